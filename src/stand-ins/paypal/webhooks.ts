/**
 * Webhook events as PayPal sends them, and their signatures. PayPal signs
 * `<transmission id>|<transmission time>|<webhook id>|<CRC32 of the body, decimal>` with RSA and
 * SHA-256 and sends the signature in PAYPAL-TRANSMISSION-SIG, with PAYPAL-TRANSMISSION-ID, -TIME,
 * PAYPAL-CERT-URL and PAYPAL-AUTH-ALGO. A receiver checks them with
 * POST /v1/notifications/verify-webhook-signature, which this stand-in answers with its own key.
 * Delivery is retried on a non-2xx answer, as PayPal does (a few times here, quickly).
 */
import { createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { crc32 } from "node:zlib";
import { invalid } from "./errors.js";

export interface WebhookEvent {
  id: string;
  event_version: string;
  create_time: string;
  resource_type: string;
  resource_version?: string;
  event_type: string;
  summary: string;
  resource: Record<string, unknown>;
  links: { href: string; rel: string; method: string }[];
}

export interface Delivery {
  event: WebhookEvent;
  attempts: { status: number | null; error?: string; at: string }[];
  delivered: boolean;
}

export const AUTH_ALGO = "SHA256withRSA";

export function newEventId(): string {
  return `WH-${randomBytes(9).toString("hex").toUpperCase().slice(0, 17)}-${randomBytes(9).toString("hex").toUpperCase().slice(0, 17)}`;
}

export class WebhookSigner {
  private readonly keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  constructor(
    readonly webhookId: string,
    readonly certUrl: string,
  ) {}

  publicKeyPem(): string {
    return this.keys.publicKey.export({ type: "spki", format: "pem" }).toString();
  }

  /** The headers PayPal sends with `body`. */
  sign(body: string, time: Date = new Date(), transmissionId: string = randomUUID()): Record<string, string> {
    const transmissionTime = time.toISOString();
    const signer = createSign("RSA-SHA256");
    signer.update(`${transmissionId}|${transmissionTime}|${this.webhookId}|${crc32(body)}`);
    return {
      "paypal-transmission-id": transmissionId,
      "paypal-transmission-time": transmissionTime,
      "paypal-transmission-sig": signer.sign(this.keys.privateKey, "base64"),
      "paypal-cert-url": this.certUrl,
      "paypal-auth-algo": AUTH_ALGO,
    };
  }

  /**
   * POST /v1/notifications/verify-webhook-signature: SUCCESS only when every part matches what this
   * stand-in signed for its webhook. The event is serialised again, as PayPal does with the object
   * it receives, so a receiver must pass the event exactly as it was delivered.
   */
  verify(body: Record<string, unknown>): { verification_status: "SUCCESS" | "FAILURE" } {
    for (const field of [
      "auth_algo",
      "cert_url",
      "transmission_id",
      "transmission_sig",
      "transmission_time",
      "webhook_id",
    ]) {
      if (typeof body[field] !== "string" || body[field] === "")
        throw invalid(`/${field}`, "MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.");
    }
    if (typeof body.webhook_event !== "object" || body.webhook_event === null)
      throw invalid("/webhook_event", "MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.");
    const failure = { verification_status: "FAILURE" as const };
    if (body.auth_algo !== AUTH_ALGO || body.cert_url !== this.certUrl || body.webhook_id !== this.webhookId)
      return failure;
    const verifier = createVerify("RSA-SHA256");
    verifier.update(
      `${body.transmission_id}|${body.transmission_time}|${body.webhook_id}|${crc32(JSON.stringify(body.webhook_event))}`,
    );
    try {
      return verifier.verify(this.keys.publicKey, String(body.transmission_sig), "base64")
        ? { verification_status: "SUCCESS" }
        : failure;
    } catch {
      return failure;
    }
  }
}

/** Sends events to the webhook URL in order, retrying a failed delivery a few times. */
export class WebhookSender {
  readonly deliveries: Delivery[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly signer: WebhookSigner,
    private readonly url: string | undefined,
    private readonly retryDelaysMs: readonly number[],
  ) {}

  send(event: WebhookEvent): Delivery {
    const delivery: Delivery = { event, attempts: [], delivered: false };
    this.deliveries.push(delivery);
    this.queue = this.queue.then(() => this.deliver(delivery));
    return delivery;
  }

  /** Resolves once every event sent so far has been delivered or given up on. */
  settled(): Promise<void> {
    return this.queue;
  }

  /** Sends one event again (a redelivery from PayPal's dashboard). */
  redeliver(eventId: string): Promise<void> {
    const delivery = this.deliveries.find((d) => d.event.id === eventId);
    if (!delivery) return Promise.reject(new Error(`No event ${eventId} was sent.`));
    this.queue = this.queue.then(() => this.deliver(delivery));
    return this.queue;
  }

  private async deliver(delivery: Delivery): Promise<void> {
    if (!this.url) return;
    const body = JSON.stringify(delivery.event);
    for (let attempt = 0; attempt <= this.retryDelaysMs.length; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, this.retryDelaysMs[attempt - 1]));
      try {
        const res = await fetch(this.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...this.signer.sign(body) },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        delivery.attempts.push({ status: res.status, at: new Date().toISOString() });
        if (res.ok) {
          delivery.delivered = true;
          return;
        }
      } catch (error) {
        delivery.attempts.push({ status: null, error: (error as Error).message, at: new Date().toISOString() });
      }
    }
  }
}
