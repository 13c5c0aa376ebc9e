/**
 * What the Stripe stand-in tests share: the stand-in, the REAL `stripe` SDK pointed at it the way
 * the service points it (host, port, protocol), a webhook receiver that verifies each delivery
 * with the SDK's `constructEvent` (answering 400 to a bad signature, as the service will), and
 * Stripe.js's publishable-key confirm done with fetch.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import {
  type StripeStandIn,
  type StripeStandInOptions,
  startStripeStandIn,
} from "../../../src/stand-ins/stripe/index.js";

export const SECRET_KEY = "sk_test_standInSecret0001";
export const PUBLISHABLE_KEY = "pk_test_standInPublic0001";
export const WEBHOOK_SECRET = "whsec_standInWebhookSecret0001";

export interface Received {
  event?: Stripe.Event;
  error?: string;
  raw: string;
}

export interface Harness {
  standIn: StripeStandIn;
  stripe: Stripe;
  received: Received[];
  /** Verified events received, in order. */
  verified(): Stripe.Event[];
  /** The next `n` deliveries are answered 500 (before verification). */
  failNext(n: number): void;
  /** Stripe.js's confirm: POST with the publishable key as the `key` field and the client secret. */
  confirmAsStripeJs(
    kind: "payment_intents" | "setup_intents",
    clientSecret: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export function sdkFor(apiBase: string, key = SECRET_KEY): Stripe {
  const url = new URL(apiBase);
  return new Stripe(key, {
    host: url.hostname,
    port: Number(url.port),
    protocol: url.protocol.replace(":", "") as "http",
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

export async function startHarness(
  opts: { now?: () => Date; standIn?: Partial<StripeStandInOptions>; verifySecret?: string } = {},
): Promise<Harness> {
  const received: Received[] = [];
  let failures = 0;
  const verifier = new Stripe(SECRET_KEY);
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (failures > 0) {
        failures--;
        received.push({ raw, error: "failed on purpose" });
        res.writeHead(500).end();
        return;
      }
      try {
        const event = verifier.webhooks.constructEvent(
          raw,
          String(req.headers["stripe-signature"]),
          opts.verifySecret ?? WEBHOOK_SECRET,
        );
        received.push({ raw, event });
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      } catch (error) {
        received.push({ raw, error: (error as Error).message });
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;
  const standIn = await startStripeStandIn({
    webhookSecret: WEBHOOK_SECRET,
    webhookUrl: `http://127.0.0.1:${port}/stripe/webhook`,
    publishableKey: PUBLISHABLE_KEY,
    webhookRetryDelaysMs: [10, 20, 40],
    now: opts.now,
    ...opts.standIn,
  });
  return {
    standIn,
    stripe: sdkFor(standIn.url),
    received,
    verified: () => received.flatMap((r) => (r.event ? [r.event] : [])),
    failNext(n) {
      failures = n;
    },
    async confirmAsStripeJs(kind, clientSecret, fields) {
      const id = clientSecret.split("_secret_")[0];
      const res = await fetch(`${standIn.url}/v1/${kind}/${id}/confirm`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          key: PUBLISHABLE_KEY,
          client_secret: clientSecret,
          return_url: "http://127.0.0.1:4321/give/thank-you/",
          ...fields,
        }),
      });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await standIn.stop();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    },
  };
}

/** The StripeError an SDK call throws (fails the test when it does not throw). */
export async function stripeError(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) return error;
    throw error;
  }
  throw new Error("expected the Stripe call to fail");
}
