/**
 * Loads PayPal's JavaScript SDK from www.paypal.com only when the donor has chosen PayPal and
 * proceeds (never with the page). One-off gifts and monthly gifts need different SDK parameters
 * (intent=capture, or vault=true&intent=subscription), and the SDK reads them from its script URL,
 * so a change of schedule replaces the script. A script that fails to load or defines no
 * `paypal.Buttons` is a PayPalLoadError (`paypal_script_failed`), and a later call tries again.
 */

/** The part of the SDK the form uses (https://developer.paypal.com/sdk/js/reference/). */
export interface PayPalButtonsOptions {
  style?: Record<string, string | number | boolean>;
  fundingSource?: string;
  createOrder?: () => Promise<string>;
  createSubscription?: () => Promise<string>;
  onApprove: (data: { orderID?: string; subscriptionID?: string }) => Promise<void>;
  onCancel?: (data: unknown) => void;
  onError?: (error: unknown) => void;
}

export interface PayPalButtons {
  render(container: HTMLElement): Promise<void>;
  close?(): Promise<void>;
  isEligible?(): boolean;
}

export interface PayPalNamespace {
  Buttons(options: PayPalButtonsOptions): PayPalButtons;
  FUNDING?: { PAYPAL?: string };
}

export type PayPalKind = "order" | "subscription";

export class PayPalLoadError extends Error {
  readonly code = "paypal_script_failed";
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "PayPalLoadError";
  }
}

export const SDK_ORIGIN = "https://www.paypal.com";
const SCRIPT_ID = "nzf-paypal-sdk";
const LOAD_TIMEOUT_MS = 20_000;

/** The SDK's address for a kind of gift: AUD, PayPal's own buttons, Venmo off (US only). */
export function sdkUrl(clientId: string, kind: PayPalKind): string {
  const params = new URLSearchParams({
    "client-id": clientId,
    currency: "AUD",
    components: "buttons",
    "disable-funding": "venmo",
    ...(kind === "order" ? { intent: "capture" } : { vault: "true", intent: "subscription" }),
  });
  return `${SDK_ORIGIN}/sdk/js?${params}`;
}

type WithPayPal = typeof globalThis & { paypal?: PayPalNamespace };

export function loadPayPalSdk(clientId: string, kind: PayPalKind, doc: Document = document): Promise<PayPalNamespace> {
  const src = sdkUrl(clientId, kind);
  const win = globalThis as WithPayPal;
  const existing = doc.getElementById(SCRIPT_ID) as HTMLScriptElement | null;
  if (existing?.src === src && existing.dataset.loaded === "true" && win.paypal?.Buttons)
    return Promise.resolve(win.paypal);
  existing?.remove();
  delete win.paypal;
  return new Promise<PayPalNamespace>((resolve, reject) => {
    const script = doc.createElement("script");
    script.id = SCRIPT_ID;
    script.src = src;
    script.async = true;
    const timer = setTimeout(
      () => fail(new Error(`no answer from ${SDK_ORIGIN} in ${LOAD_TIMEOUT_MS} ms`)),
      LOAD_TIMEOUT_MS,
    );
    function fail(cause: unknown) {
      clearTimeout(timer);
      script.remove();
      reject(new PayPalLoadError("Failed to load the PayPal SDK", cause));
    }
    script.onerror = () => fail(new Error(`${src} did not load`));
    script.onload = () => {
      clearTimeout(timer);
      if (!win.paypal?.Buttons) return fail(new Error("the PayPal SDK ran but defined no paypal.Buttons"));
      script.dataset.loaded = "true";
      resolve(win.paypal);
    };
    doc.head.append(script);
  });
}
