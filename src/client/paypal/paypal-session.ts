/**
 * PayPal's buttons for one donation, without React (it is the deferred PayPal kit, and a React
 * import here would split React's shared chunk in two): loads the SDK from PayPal, renders its
 * buttons into the step's container, and runs the payments API's PayPal calls from the SDK's
 * callbacks (docs/payments-api.md, "PayPal"). It also writes, inside that container, what is
 * happening (loading, taking the payment), what went wrong (by code, in the page's language when
 * its dictionary has the code, else PayPal's English message) and a button to load PayPal again
 * after the script failed: markup kept out of the form's first load. One idempotency key
 * per call for this donation, and the page moves on once: a retried or doubled capture never
 * charges twice (the API captures once and replays its answer).
 */
import type { PaymentsClient } from "../../payments/client.js";
import { PaymentsApiError, PaymentsError } from "../../payments/errors.js";
import { newIdempotencyKey } from "../../payments/idempotency.js";
import { PAYPAL_MESSAGES, type PayPalErrorCode } from "../../payments/paypal.js";
import { loadPayPalSdk, type PayPalButtons } from "./load-paypal.js";

export interface PayPalSessionOptions {
  clientId: string;
  client: PaymentsClient;
  donationId: string;
  /** One-off gifts are an order, monthly ones a subscription. */
  once: boolean;
  container: HTMLElement;
  words: {
    loadingPayPal: string;
    processing: string;
    loadPayPalAgain: string;
    /** Messages by error code in the page's language (empty in English). */
    errors: Record<string, string>;
  };
  /** Taking the payment: the step's other buttons wait. */
  onCapturing(capturing: boolean): void;
  onPaid(): void;
}

/** The SDK reports a blocked window as an error whose message names the popup. */
const POPUP = /popup|pop-up|window.*(blocked|closed)/i;

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}) => {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  return el;
};

export function startPayPal(o: PayPalSessionOptions): { close(): void } {
  let live = true;
  let buttons: PayPalButtons | undefined;
  const keys = { create: newIdempotencyKey(), capture: newIdempotencyKey() };
  let apiFailure: unknown = null;
  let paid = false;
  const mount = element("div", { class: "don-paypal-buttons" });
  const status = element("p", { role: "status" });
  const alert = element("p", { role: "alert", class: "don-alert" });
  const again = element("button", { type: "button", class: "button" });
  again.textContent = o.words.loadPayPalAgain;
  alert.hidden = true;
  again.hidden = true;
  o.container.replaceChildren(mount, status, alert, again);
  const say = (message: string | null) => {
    alert.textContent = message ?? "";
    alert.hidden = message === null;
  };
  const problem = (code: PayPalErrorCode) => say(o.words.errors[code] ?? PAYPAL_MESSAGES[code]);
  const apiProblem = (e: unknown) => {
    if (e instanceof PaymentsApiError && e.code in PAYPAL_MESSAGES) problem(e.code as PayPalErrorCode);
    else if (e instanceof PaymentsError) say(e.message);
    else problem("paypal_failed");
  };
  const capturing = (on: boolean) => {
    status.textContent = on ? o.words.processing : "";
    if (on) say(null);
    o.onCapturing(on);
  };
  const create = async () => {
    apiFailure = null;
    say(null);
    try {
      return o.once
        ? (await o.client.createPayPalOrder(o.donationId, keys.create)).orderId
        : (await o.client.createPayPalSubscription(o.donationId, keys.create)).subscriptionId;
    } catch (e) {
      apiFailure = e;
      throw e;
    }
  };
  const load = () => {
    status.textContent = o.words.loadingPayPal;
    again.hidden = true;
    say(null);
    loadPayPalSdk(o.clientId, o.once ? "order" : "subscription")
      .then(async (paypal) => {
        if (!live) return;
        buttons = paypal.Buttons({
          fundingSource: paypal.FUNDING?.PAYPAL,
          style: { layout: "vertical", color: "gold", shape: "rect", label: "paypal", height: 48 },
          ...(o.once ? { createOrder: create } : { createSubscription: create }),
          onApprove: async (data) => {
            capturing(true);
            try {
              await o.client.capturePayPal(
                o.donationId,
                o.once ? { orderId: data.orderID ?? "" } : { subscriptionId: data.subscriptionID ?? "" },
                keys.capture,
              );
              if (!paid) {
                paid = true;
                o.onPaid();
              }
            } catch (e) {
              apiProblem(e);
            } finally {
              capturing(false);
            }
          },
          onCancel: () => problem("paypal_cancelled"),
          onError: (e) => {
            if (apiFailure) return apiProblem(apiFailure);
            // For whoever debugs it: the donor sees the message, the console shows why.
            console.warn("PayPal:", e);
            problem(POPUP.test(String((e as Error)?.message ?? e)) ? "paypal_popup_blocked" : "paypal_failed");
          },
        });
        await buttons.render(mount);
        status.textContent = "";
      })
      .catch((e) => {
        if (!live) return;
        console.warn("PayPal:", (e as Error)?.cause ?? e);
        status.textContent = "";
        problem("paypal_script_failed");
        again.hidden = false;
      });
  };
  again.addEventListener("click", load);
  load();
  return {
    close() {
      live = false;
      void buttons?.close?.().catch(() => undefined);
    },
  };
}
