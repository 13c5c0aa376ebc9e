/**
 * A local stand-in for Stripe.js, served in place of https://js.stripe.com/* in browser tests (the
 * real script cannot be reached from here). It implements the subset the donation island uses,
 * with the same shapes: `Stripe(pk)`, `elements({ clientSecret, appearance })`,
 * `elements.create("payment")` with `mount`, `on("ready" | "change")`, `destroy`; `elements.submit()`;
 * `confirmPayment` / `confirmSetup` with `confirmParams.return_url`, which confirm the intent at the
 * Stripe API stand-in (whose signed webhook tells the payments service) and then redirect to
 * return_url with `payment_intent`/`setup_intent`, `…_client_secret` and `redirect_status`, as
 * Stripe does; and `retrievePaymentIntent`.
 *
 * The card field is a real input: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined
 * (Stripe's own test numbers). Switches make the next loads fail at the network ('Failed to load
 * Stripe.js') or serve a script that defines no `Stripe` ('Stripe.js not available').
 */
import type { BrowserContext } from "playwright-core";
import { proxyOf } from "./browser.js";
import type { ProxyAnswer } from "./browser-proxy.js";

export interface StripeStandIn {
  /** Script requests answered so far (including failed ones). */
  readonly requests: number;
  /** The next `n` script requests fail at the network. */
  failNextLoads(n: number): void;
  /** The next `n` script requests get a script that defines no `window.Stripe`. */
  emptyNextLoads(n: number): void;
}

/** The browser side, as a function so TypeScript checks it; serialised into the served script. */
function standIn(target: { stripeApiUrl: string }) {
  type Handler = (event: unknown) => void;
  // biome-ignore lint/correctness/noComponentHookFactories: the name is Stripe.js's global constructor, not a React component
  function Stripe(publishableKey: string) {
    if (!/^pk_(test|live)_/.test(publishableKey)) throw new Error("Invalid API Key provided: " + publishableKey);
    const intentIdOf = (secret: string) => secret.split("_secret_")[0]!;
    let cardOf: () => string = () => "";
    async function confirm(
      kind: "payment" | "setup",
      options: {
        elements: { _clientSecret: string };
        confirmParams?: { return_url?: string };
        redirect?: "always" | "if_required";
      },
    ) {
      const secret = options.elements._clientSecret;
      const returnUrl = options.confirmParams?.return_url;
      if (!returnUrl) throw new Error("stripe.confirmPayment(): the `confirmParams.return_url` argument is required.");
      const card = cardOf().replace(/\s+/g, "");
      {
        // As Stripe.js does: confirm with the publishable key and the client secret, straight to
        // Stripe's API (here the Stripe stand-in), which then sends the service its signed webhook.
        const kindPath = kind === "payment" ? "payment_intents" : "setup_intents";
        const response = await fetch(target.stripeApiUrl + "/v1/" + kindPath + "/" + intentIdOf(secret) + "/confirm", {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            key: publishableKey,
            client_secret: secret,
            return_url: returnUrl,
            "payment_method_data[type]": "card",
            "payment_method_data[card][number]": card,
            "payment_method_data[card][exp_month]": "12",
            "payment_method_data[card][exp_year]": "2034",
            "payment_method_data[card][cvc]": "123",
          }).toString(),
        });
        const answer = (await response.json()) as { error?: { type: string; code?: string; message: string } };
        if (!response.ok) return { error: answer.error ?? { type: "api_error", message: "HTTP " + response.status } };
      }
      // A card needs no redirect: with "if_required", Stripe resolves with the intent and the page moves on itself.
      if (options.redirect === "if_required") {
        const intent = { id: intentIdOf(secret), status: "succeeded", client_secret: secret };
        return kind === "payment" ? { paymentIntent: intent } : { setupIntent: intent };
      }
      const url = new URL(returnUrl);
      url.searchParams.set(kind === "payment" ? "payment_intent" : "setup_intent", intentIdOf(secret));
      url.searchParams.set(kind === "payment" ? "payment_intent_client_secret" : "setup_intent_client_secret", secret);
      url.searchParams.set("redirect_status", "succeeded");
      window.location.assign(url.href);
      return new Promise(() => undefined); // the page is leaving, as with the real redirect
    }
    return {
      elements(options: { clientSecret: string; appearance?: unknown }) {
        if (!options?.clientSecret) throw new Error("elements(): clientSecret is required for the Payment Element.");
        const elements = {
          _clientSecret: options.clientSecret,
          create(type: string) {
            if (type !== "payment") throw new Error("The stand-in only has the Payment Element.");
            const handlers: Record<string, Handler[]> = {};
            const emit = (name: string, event: unknown) => {
              for (const h of handlers[name] ?? []) h(event);
            };
            let root: HTMLElement | null = null;
            return {
              on(name: string, handler: Handler) {
                (handlers[name] ??= []).push(handler);
                return this;
              },
              mount(target: string | HTMLElement) {
                const host = typeof target === "string" ? document.querySelector<HTMLElement>(target) : target;
                if (!host) throw new Error("mount(): the target element does not exist.");
                root = document.createElement("div");
                root.className = "stripe-stand-in";
                root.innerHTML =
                  '<label for="stand-in-card">Card number</label><input id="stand-in-card" inputmode="numeric" autocomplete="cc-number">' +
                  '<label for="stand-in-expiry">Expiry (MM / YY)</label><input id="stand-in-expiry" autocomplete="cc-exp">' +
                  '<label for="stand-in-cvc">Security code</label><input id="stand-in-cvc" inputmode="numeric" autocomplete="cc-csc">';
                host.append(root);
                const input = root.querySelector<HTMLInputElement>("#stand-in-card")!;
                cardOf = () => input.value;
                input.addEventListener("input", () =>
                  emit("change", {
                    elementType: "payment",
                    complete: input.value.replace(/\s+/g, "").length === 16,
                    empty: input.value === "",
                  }),
                );
                setTimeout(() => emit("ready", { elementType: "payment" }), 10);
              },
              unmount() {
                root?.remove();
              },
              destroy() {
                root?.remove();
                root = null;
              },
            };
          },
          async submit() {
            const card = cardOf().replace(/\s+/g, "");
            if (!/^\d{16}$/.test(card))
              return {
                error: {
                  type: "validation_error",
                  code: "incomplete_number",
                  message: "Your card number is incomplete.",
                },
              };
            return {};
          },
        };
        return elements;
      },
      confirmPayment: (options: Parameters<typeof confirm>[1]) => confirm("payment", options),
      confirmSetup: (options: Parameters<typeof confirm>[1]) => confirm("setup", options),
      async retrievePaymentIntent(clientSecret: string) {
        return {
          paymentIntent: {
            id: intentIdOf(clientSecret),
            client_secret: clientSecret,
            status: "requires_payment_method",
          },
        };
      },
    };
  }
  // @stripe/stripe-js compares this with its release train and warns on a mismatch.
  (Stripe as unknown as { version: string }).version = "endive";
  (window as unknown as { Stripe: typeof Stripe }).Stripe = Stripe;
}

/**
 * `stripeApiUrl`: confirm through the Stripe API stand-in (src/stand-ins/stripe/), as real Stripe.js
 * confirms through Stripe; the signed webhook then tells the payments service.
 */
export async function installStripeStandIn(
  context: BrowserContext,
  options: { stripeApiUrl: string },
): Promise<StripeStandIn> {
  let failing = 0;
  let empty = 0;
  let requests = 0;
  const script = `(${standIn.toString()})(${JSON.stringify(options)});`;
  // Answered at the context's proxy (browser-proxy.ts), at Stripe's own address; latest answers win.
  proxyOf(context).answer(/^https:\/\/js\.stripe\.com\//, (): ProxyAnswer | "fail" => {
    requests++;
    if (failing > 0) {
      failing--;
      return "fail";
    }
    if (empty > 0) {
      empty--;
      return { headers: { "content-type": "text/javascript" }, body: "/* no Stripe here */" };
    }
    return {
      headers: { "content-type": "text/javascript", "access-control-allow-origin": "*" },
      body: script,
    };
  });
  return {
    get requests() {
      return requests;
    },
    failNextLoads(n) {
      failing += n;
    },
    emptyNextLoads(n) {
      empty += n;
    },
  };
}
