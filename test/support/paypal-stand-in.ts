/**
 * A local stand-in for PayPal's JavaScript SDK, served in place of https://www.paypal.com/sdk/js in
 * browser tests (the real script cannot be reached from here). It implements what the donation
 * form uses, with the SDK's shapes: `paypal.Buttons({ createOrder | createSubscription, onApprove,
 * onCancel, onError, fundingSource, style })` with `render(container)` and `close()`, and
 * `paypal.FUNDING.PAYPAL`. The rendered "PayPal" button plays the donor's part in PayPal's window,
 * as the page's `window.__paypalNext` says (set it with `next(page, …)`):
 *   "approve" (default): createOrder/createSubscription, then onApprove with orderID/subscriptionID;
 *   "approve-twice": onApprove twice at once (a double-fired callback: the API must capture once);
 *   "cancel": the donor closes PayPal's window: onCancel;
 *   "popup-blocked": the browser blocked the window: onError with the SDK's message.
 * An error thrown by createOrder goes to onError, as in the SDK. `failNextLoads` makes the next
 * script requests fail at the network. With `approve`, the donor's approval in PayPal's window is
 * passed on (the order or subscription id) before onApprove: a test whose service talks to the
 * PayPal REST stand-in approves it there, as PayPal records the payer's approval.
 */
import type { BrowserContext, Page } from "playwright-core";
import { proxyOf } from "./browser.js";

export type PayPalMove = "approve" | "approve-twice" | "cancel" | "popup-blocked";

export interface PayPalStandIn {
  /** Script requests so far, with their URLs (to check the SDK's parameters and when it loaded). */
  readonly urls: string[];
  failNextLoads(n: number): void;
  /** What the donor does in PayPal's window on the next press of the button on this page. */
  next(page: Page, move: PayPalMove): Promise<void>;
}

/** The browser side, as a function so TypeScript checks it; serialised into the served script. */
function standIn() {
  type Options = {
    createOrder?: () => Promise<string>;
    createSubscription?: () => Promise<string>;
    onApprove: (data: { orderID?: string; subscriptionID?: string }) => Promise<void>;
    onCancel?: (data: unknown) => void;
    onError?: (error: unknown) => void;
  };
  const w = window as unknown as {
    paypal: unknown;
    __paypalNext?: string;
    __paypalApprove?: (id: string, kind: "order" | "subscription") => Promise<void>;
  };
  function Buttons(options: Options) {
    let button: HTMLButtonElement | undefined;
    return {
      isEligible: () => true,
      render(container: HTMLElement) {
        button = document.createElement("button");
        button.type = "button";
        button.className = "paypal-stand-in";
        button.textContent = "PayPal";
        button.addEventListener("click", async () => {
          const move = w.__paypalNext ?? "approve";
          w.__paypalNext = "approve";
          if (move === "popup-blocked") {
            options.onError?.(new Error("Can not open popup window - blocked"));
            return;
          }
          const create = options.createOrder ?? options.createSubscription!;
          let id: string;
          try {
            id = await create();
          } catch (error) {
            options.onError?.(error);
            return;
          }
          const data = options.createOrder ? { orderID: id } : { subscriptionID: id };
          if (move === "cancel") return options.onCancel?.(data);
          await w.__paypalApprove?.(id, options.createOrder ? "order" : "subscription");
          if (move === "approve-twice") await Promise.all([options.onApprove(data), options.onApprove(data)]);
          else await options.onApprove(data);
        });
        container.append(button);
        return Promise.resolve();
      },
      close() {
        button?.remove();
        return Promise.resolve();
      },
    };
  }
  w.paypal = { Buttons, FUNDING: { PAYPAL: "paypal" }, version: "stand-in" };
}

export async function installPayPalStandIn(
  context: BrowserContext,
  options: { approve?: (id: string, kind: "order" | "subscription") => void | Promise<void> } = {},
): Promise<PayPalStandIn> {
  const urls: string[] = [];
  const approve = options.approve;
  if (approve)
    await context.exposeBinding("__paypalApprove", (_source, id: string, kind: "order" | "subscription") =>
      approve(id, kind),
    );
  let failing = 0;
  const script = `(${standIn.toString()})();`;
  // Answered at the context's proxy (browser-proxy.ts), at PayPal's own address.
  proxyOf(context).answer(/^https:\/\/www\.paypal\.com\/sdk\/js/, (request) => {
    urls.push(request.url);
    if (failing > 0) {
      failing--;
      return "fail";
    }
    return { headers: { "content-type": "text/javascript" }, body: script };
  });
  return {
    urls,
    failNextLoads(n) {
      failing += n;
    },
    async next(page, move) {
      await page.evaluate((m) => {
        (window as unknown as { __paypalNext: string }).__paypalNext = m;
      }, move);
    },
  };
}
