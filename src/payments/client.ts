/**
 * The typed client for the payments API (docs/payments-api.md), used by the donation island and the
 * thank-you page. Browser-safe: only `fetch`, `AbortController` and timers.
 *
 * - Every failure is a `PaymentsError` whose message a donor can read.
 * - Each request is aborted after 15 s (client-limits.ts) and becomes a `PaymentsTimeoutError`.
 * - A `createDonation` with the same key and body as one still in flight returns that request's
 *   promise, so a double click sends one request. Retrying later with the same key is safe: the
 *   backend replays its first answer.
 */
import { canonicalJson } from "./canonical-json.js";
import { CLIENT_LIMITS } from "./client-limits.js";
import { DONOR_MESSAGES, PaymentsApiError, PaymentsNetworkError, PaymentsTimeoutError } from "./errors.js";
import type { ApiErrorBody, DonationCreated, DonationRequest, DonationState } from "./types.js";
import type { PayPalCaptured, PayPalCaptureRequest, PayPalOrderCreated, PayPalSubscriptionCreated } from "./paypal.js";
import type { EnquiryAccepted, EnquiryRequest, UpdatesSignUpAccepted, UpdatesSignUpRequest } from "./contact.js";

export interface PaymentsClientOptions {
  /** The API base URL from build configuration (PAYMENTS_API_URL), e.g. "https://…/main". */
  baseUrl: string;
  /**
   * The signed-in donor's access token, or null: sent as `Authorization: Bearer` with a new gift
   * (POST /donations) only, so the service files it under their account. Read at each request.
   */
  accessToken?: () => string | null;
}

export interface RequestOptions {
  /** Cancels the request (e.g. the donor left the page); the promise rejects with the abort reason. */
  signal?: AbortSignal;
}

export interface PaymentsClient {
  createDonation(body: DonationRequest, idempotencyKey: string, options?: RequestOptions): Promise<DonationCreated>;
  /**
   * "Change my gift or details": the pending donation made with `donationKey` (the Idempotency-Key
   * of its creation or last change) takes the new body; same id and reference, a new client secret.
   */
  updateDonation(
    donationId: string,
    donationKey: string,
    body: DonationRequest,
    idempotencyKey: string,
  ): Promise<DonationCreated>;
  getDonation(donationId: string, options?: RequestOptions): Promise<DonationState>;
  /** PayPal (docs/payments-api.md, "PayPal"): the donation's one order (one-off gifts). */
  createPayPalOrder(donationId: string, idempotencyKey: string): Promise<PayPalOrderCreated>;
  /** The donation's one subscription (monthly and instalment gifts). */
  createPayPalSubscription(donationId: string, idempotencyKey: string): Promise<PayPalSubscriptionCreated>;
  /** Captures what the donor approved; called again, it returns the first capture's answer. */
  capturePayPal(donationId: string, body: PayPalCaptureRequest, idempotencyKey: string): Promise<PayPalCaptured>;
  /** The contact page's enquiry (POST /enquiries); the same key again answers with the first enquiry's id. */
  sendEnquiry(body: EnquiryRequest, idempotencyKey: string): Promise<EnquiryAccepted>;
  /** A sign-up for e-mail updates (POST /updates): the service e-mails a confirmation link (double opt-in). */
  signUpForUpdates(body: UpdatesSignUpRequest, idempotencyKey: string): Promise<UpdatesSignUpAccepted>;
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  const e = (value as ApiErrorBody | null)?.error;
  return !!e && typeof e === "object" && typeof e.code === "string" && typeof e.message === "string";
}

function fallbackMessage(status: number): string {
  if (status === 429) return DONOR_MESSAGES.rateLimited;
  if (status === 503) return DONOR_MESSAGES.unavailable;
  if (status >= 500) return DONOR_MESSAGES.server;
  return DONOR_MESSAGES.badResponse;
}

function toApiError(status: number, body: unknown, retryAfter: string | null): PaymentsApiError {
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  if (isApiErrorBody(body)) {
    const { code, message, field, fields } = body.error;
    return new PaymentsApiError({
      status,
      code,
      message,
      field: field ?? fields?.[0]?.field,
      fields,
      retryAfterSeconds: seconds,
    });
  }
  // Not our shape: an API Gateway or proxy error page. Say something true and useful instead.
  return new PaymentsApiError({
    status,
    code: `http_${status}`,
    message: fallbackMessage(status),
    retryAfterSeconds: seconds,
  });
}

export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const doFetch = globalThis.fetch.bind(globalThis);
  const { timeoutMs } = CLIENT_LIMITS;
  const base = options.baseUrl.replace(/\/+$/, "");
  const inFlight = new Map<string, { body: string; promise: Promise<DonationCreated> }>();

  async function request<T>(
    method: "GET" | "POST" | "PATCH",
    path: string,
    init: { body?: string; headers?: Record<string, string>; signal?: AbortSignal },
  ): Promise<T> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort(init.signal!.reason);
    init.signal?.addEventListener("abort", onCallerAbort, { once: true });
    if (init.signal?.aborted) onCallerAbort();
    try {
      let response: Response;
      let text: string;
      try {
        response = await doFetch(`${base}${path}`, {
          method,
          headers: {
            Accept: "application/json",
            ...(init.body ? { "Content-Type": "application/json" } : {}),
            ...init.headers,
          },
          body: init.body,
          signal: controller.signal,
        });
        text = await response.text();
      } catch (error) {
        if (timedOut) throw new PaymentsTimeoutError(timeoutMs);
        if (init.signal?.aborted) throw init.signal.reason;
        throw new PaymentsNetworkError(error);
      }
      let json: unknown;
      try {
        json = text === "" ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (!response.ok) throw toApiError(response.status, json, response.headers.get("retry-after"));
      if (json === undefined || json === null || typeof json !== "object") {
        throw new PaymentsApiError({
          status: response.status,
          code: "bad_response",
          message: DONOR_MESSAGES.badResponse,
        });
      }
      return json as T;
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  function paypalCall<T>(donationId: string, action: string, body: object, idempotencyKey: string): Promise<T> {
    return request<T>("POST", `/donations/${encodeURIComponent(donationId)}/paypal/${action}`, {
      body: JSON.stringify(body),
      headers: { "Idempotency-Key": idempotencyKey },
    });
  }

  return {
    createDonation(body, idempotencyKey, opts = {}) {
      const canonical = canonicalJson(body);
      const pending = inFlight.get(idempotencyKey);
      if (pending && pending.body === canonical) return pending.promise;
      const token = options.accessToken?.();
      const promise = request<DonationCreated>("POST", "/donations", {
        body: JSON.stringify(body),
        headers: { "Idempotency-Key": idempotencyKey, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        signal: opts.signal,
      }).finally(() => {
        if (inFlight.get(idempotencyKey)?.promise === promise) inFlight.delete(idempotencyKey);
      });
      inFlight.set(idempotencyKey, { body: canonical, promise });
      return promise;
    },
    updateDonation(donationId, donationKey, body, idempotencyKey) {
      return request<DonationCreated>("PATCH", `/donations/${encodeURIComponent(donationId)}`, {
        body: JSON.stringify(body),
        headers: { "Idempotency-Key": idempotencyKey, "Donation-Key": donationKey },
      });
    },
    getDonation(donationId, opts = {}) {
      return request<DonationState>("GET", `/donations/${encodeURIComponent(donationId)}`, { signal: opts.signal });
    },
    createPayPalOrder(donationId, idempotencyKey) {
      return paypalCall<PayPalOrderCreated>(donationId, "order", {}, idempotencyKey);
    },
    createPayPalSubscription(donationId, idempotencyKey) {
      return paypalCall<PayPalSubscriptionCreated>(donationId, "subscription", {}, idempotencyKey);
    },
    capturePayPal(donationId, body, idempotencyKey) {
      return paypalCall<PayPalCaptured>(donationId, "capture", body, idempotencyKey);
    },
    sendEnquiry(body, idempotencyKey) {
      return request<EnquiryAccepted>("POST", "/enquiries", {
        body: JSON.stringify(body),
        headers: { "Idempotency-Key": idempotencyKey },
      });
    },
    signUpForUpdates(body, idempotencyKey) {
      return request<UpdatesSignUpAccepted>("POST", "/updates", {
        body: JSON.stringify(body),
        headers: { "Idempotency-Key": idempotencyKey },
      });
    },
  };
}
