/**
 * The account API over real HTTP on 127.0.0.1, for the API's own tests, as deployed: the payments
 * service (src/api/, PGlite) serves it at /graphql, built from its NZF_COGNITO_* settings;
 * cognito-local issues the tokens (and answers GetUser); gifts are given with POST /donations and
 * paid through the Stripe stand-in, whose signed webhook is what makes them paid. Raw node:http
 * on the client side, so a test sees exactly the status, headers and bytes a browser or an
 * attacker would.
 */
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import Stripe from "stripe";
import { todayIn } from "../../src/payments/schedules.js";
import { startCognitoLocal, type CognitoLocal } from "./cognito-local.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  TEST_SECRET_KEY,
  type TestPaymentsService,
} from "./payments-service.js";
import { setServiceClock, restoreRealClock } from "./service-clock.js";

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely
  json: any;
  text: string;
}

export function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<Raw> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        ok({ status: res.statusCode ?? 0, headers: res.headers, json, text });
      });
    });
    req.on("error", fail);
    req.end(body);
  });
}

export interface Account {
  email: string;
  sub: string;
  access: string;
  id: string;
}

export type Outcome = "succeeded" | "failed" | "requires_payment_method";

export interface Harness {
  cognito: CognitoLocal;
  service: TestPaymentsService;
  /** The service's URL of the account API. */
  graphqlUrl: string;
  /** Stripe's official SDK on the service's Stripe stand-in: what Stripe holds, as a test reads it. */
  stripeSdk: Stripe;
  logged: string[];
  /** Signs up, confirms (the e-mail is then verified) and signs in. */
  signUp(email: string, password?: string): Promise<Account>;
  signIn(email: string, password?: string): Promise<Account>;
  gql(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<Raw>;
  /**
   * POST /donations on the service (with the token, if given), then the outcome as Stripe makes it:
   * paid with a test card (the signed webhook marks it paid), cancelled (failed), or left unpaid.
   * Returns the donation id.
   */
  donate(body: Record<string, unknown>, status: Outcome, token?: string): Promise<string>;
  /**
   * A later charge of a plan, as the service records it from Stripe's signed webhook (a row of
   * `charges`, on the day given, at noon in Sydney; `id` is the invoice, so a failed charge paid
   * later stays one charge); the amount is the donation's own unless given.
   */
  recordCharge(
    donationId: string,
    charge: { id?: string; date: string; status: "succeeded" | "failed"; totalCents?: number },
  ): Promise<void>;
  stop(): Promise<void>;
}

export const PASSWORD = "long enough";

export async function startAccountHarness(
  options: {
    /** The service's clock (src/core/clock.ts, replaced for every test file by service-clock.ts). */
    now?: () => Date;
    stripeFaults?: boolean;
  } = {},
): Promise<Harness> {
  // The test's clock, a millisecond later at each reading: gifts made "at once" keep the order
  // they were given in (the history is newest first by the time each was made).
  let tick = 0;
  const testClock = options.now;
  if (testClock) await setServiceClock(() => new Date(testClock().getTime() + tick++));
  const cognito = await startCognitoLocal();
  const logged: string[] = [];
  const logger = {
    debug() {},
    info() {},
    warn: (_: string, m: string) => void logged.push(`warn ${m}`),
    error: (_: string, m: string) => void logged.push(`error ${m}`),
  };
  const service = await startTestPaymentsService({
    env: {
      NZF_COGNITO_USER_POOL_ID: cognito.userPoolId,
      NZF_COGNITO_CLIENT_ID: cognito.clientId,
      NZF_COGNITO_ENDPOINT: cognito.endpoint,
    },
    // The service reaches Stripe through a proxy where the test cuts its calls.
    ...(options.stripeFaults ? { stripeFaults: true } : {}),
    logger,
  });
  // Each test file has its own database dump loaded; empty it of another harness's rows.
  await service.reset();
  const stripeUrl = new URL(service.stripe.url);
  const stripe = new Stripe(TEST_SECRET_KEY, {
    host: stripeUrl.hostname,
    port: Number(stripeUrl.port),
    protocol: "http",
  });
  const graphqlUrl = `${service.url}/graphql`;

  async function signIn(email: string, password = PASSWORD): Promise<Account> {
    const auth = await cognito.call<{ AuthenticationResult: { AccessToken: string; IdToken: string } }>(
      "InitiateAuth",
      {
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: cognito.clientId,
        AuthParameters: { USERNAME: email, PASSWORD: password },
      },
    );
    const access = auth.AuthenticationResult.AccessToken;
    const sub = JSON.parse(Buffer.from(access.split(".")[1]!, "base64url").toString()).sub as string;
    return { email, sub, access, id: auth.AuthenticationResult.IdToken };
  }

  async function statusOf(donationId: string): Promise<string> {
    const row = await service.db
      .selectFrom("donations")
      .select("status")
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    return row.status;
  }

  return {
    cognito,
    service,
    graphqlUrl,
    stripeSdk: stripe,
    logged,
    signIn,
    async signUp(email, password = PASSWORD) {
      await cognito.call("SignUp", {
        ClientId: cognito.clientId,
        Username: email,
        Password: password,
        UserAttributes: [{ Name: "email", Value: email }],
      });
      await cognito.call("ConfirmSignUp", {
        ClientId: cognito.clientId,
        Username: email,
        ConfirmationCode: (await cognito.readStoredCode(email)) ?? cognito.code,
      });
      return signIn(email, password);
    },
    gql(query, variables = {}, token = null) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/graphql-response+json",
      };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      return raw(graphqlUrl, "POST", headers, JSON.stringify({ query, variables }));
    },
    async donate(body, status, token) {
      const donor = { firstName: "Amina", lastName: "Khan", email: "amina@example.com", phone: "0412 345 678" };
      const headers: Record<string, string> = { "content-type": "application/json", "idempotency-key": randomUUID() };
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await raw(
        `${service.url}/donations`,
        "POST",
        headers,
        JSON.stringify({ currency: "AUD", frequency: "once", anonymous: false, coverFees: false, donor, ...body }),
      );
      if (res.status !== 201) throw new Error(`POST /donations answered ${res.status}: ${res.text}`);
      // Stripe's test clock on the test's day, so what it schedules starts when the service says.
      if (options.now) service.stripe.setNow(options.now());
      const donationId = res.json.donationId as string;
      const secret = res.json.clientSecret as string;
      const intentId = secret.split("_secret_")[0]!;
      if (status === "succeeded") {
        // What Stripe.js does when the donor presses Give: confirm with the publishable key.
        const kind = intentId.startsWith("seti_") ? "setup_intents" : "payment_intents";
        const confirmed = await fetch(`${service.stripe.url}/v1/${kind}/${intentId}/confirm`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            key: TEST_PUBLISHABLE_KEY,
            client_secret: secret,
            payment_method: "pm_card_visa",
          }),
        });
        if (!confirmed.ok)
          throw new Error(`confirming ${intentId} answered ${confirmed.status}: ${await confirmed.text()}`);
      } else if (status === "failed") {
        // The payment was given up (Stripe cancels it): a payment that failed for good.
        await stripe.paymentIntents.cancel(intentId);
      }
      await service.stripe.settled();
      if (status !== "requires_payment_method" && (await statusOf(donationId)) !== status)
        throw new Error(`${donationId} is ${await statusOf(donationId)} after the webhook, not ${status}`);
      return donationId;
    },
    async recordCharge(donationId, charge) {
      const row = await service.db
        .selectFrom("donations")
        .select(["total_cents"])
        .where("id", "=", donationId)
        .executeTakeFirstOrThrow();
      await service.db
        .insertInto("charges")
        .values({
          id: charge.id ?? `in_${randomUUID().replaceAll("-", "")}`,
          donation_id: donationId,
          amount_cents: charge.totalCents ?? row.total_cents,
          status: charge.status,
          // Noon in Sydney on that day (02:00 UTC in winter, 01:00 in summer: either is the same day).
          charged_at: new Date(`${charge.date}T02:00:00Z`),
        })
        // The same invoice again (a failed instalment paid on a later attempt): one charge, its latest state.
        .onConflict((c) => c.column("id").doUpdateSet({ status: charge.status }))
        .execute();
      if (todayIn("Australia/Sydney", new Date(`${charge.date}T02:00:00Z`)) !== charge.date)
        throw new Error(`${charge.date}: not a day`);
    },
    async stop() {
      await service.stop();
      await cognito.stop();
      restoreRealClock();
    },
  };
}
