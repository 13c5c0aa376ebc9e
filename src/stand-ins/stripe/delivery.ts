/**
 * Delivers events to the webhook endpoint as Stripe does: POST of the event's JSON, signed in the
 * `Stripe-Signature` header with the endpoint's secret and the current time, retried when the
 * answer is not 2xx or the endpoint cannot be reached. One event at a time, in the order they were
 * made (Stripe does not promise order; in order is easier to read in a test). Every attempt is
 * recorded; `settled()` waits until nothing is left to send.
 */
import { signatureHeader } from "./signing.js";
import type { StripeEventJson } from "./store.js";

export interface DeliveryRecord {
  eventId: string;
  type: string;
  /** The HTTP status, or 0 when the endpoint could not be reached or timed out. */
  status: number;
  attempt: number;
}

export interface DeliveryOptions {
  /** The signing secrets: the current one, then any old one still honoured while rolling. */
  secrets: string[];
  /** Waits before the 2nd, 3rd, ... attempt (Stripe waits hours; tests cannot). */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  /** Unix seconds for the signature: the real clock, not the test clock (the receiver checks it against its own). */
  signingTime: () => number;
}

export class WebhookDelivery {
  private url: string | null = null;
  private readonly queue: StripeEventJson[] = [];
  private running: Promise<void> | null = null;
  readonly records: DeliveryRecord[] = [];
  private stopped = false;

  constructor(private readonly options: DeliveryOptions) {}

  setSecrets(secrets: string[]): void {
    if (secrets.length === 0 || secrets.some((x) => !x)) throw new Error("setWebhookSecrets: give at least one secret");
    this.options.secrets = [...secrets];
  }

  setUrl(url: string | null): void {
    if (url !== null) new URL(url); // refuses a malformed URL at once
    this.url = url;
  }

  /** Queues an event when an endpoint is set (as Stripe sends only to endpoints that exist). */
  enqueue(event: StripeEventJson): void {
    if (this.url === null || this.stopped) return;
    this.queue.push(event);
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      const event = this.queue.shift()!;
      const attempts = 1 + this.options.retryDelaysMs.length;
      for (let attempt = 1; attempt <= attempts && !this.stopped; attempt++) {
        if (attempt > 1) await sleep(this.options.retryDelaysMs[attempt - 2]!);
        const status = await this.send(event, {});
        this.records.push({ eventId: event.id, type: event.type, status, attempt });
        if (status >= 200 && status < 300) break;
      }
    }
  }

  /** One signed POST; the status, or 0 when there was no answer. */
  async send(event: StripeEventJson, opts: { secret?: string; timestamp?: number }): Promise<number> {
    const url = this.url;
    if (url === null) return 0;
    const payload = JSON.stringify(event, null, 2);
    const timestamp = opts.timestamp ?? this.options.signingTime();
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "stripe-signature": signatureHeader(payload, opts.secret ?? this.options.secrets, timestamp),
        },
        body: payload,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: "manual",
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.status;
    } catch {
      return 0;
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
