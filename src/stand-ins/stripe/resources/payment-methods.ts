/** PaymentMethods: create (as Stripe.js does, publishable key), retrieve, attach, detach, list. */
import { cardOf, paymentMethodFromData, resolvePaymentMethod } from "../cards.js";
import { invalidRequest, StripeApiError } from "../errors.js";
import type { Route } from "../server.js";
import { listOf, type Obj, type Store } from "../store.js";
import { page } from "./customers.js";

/** Attaches a PaymentMethod to a customer, as `attach` and a saving confirm do. */
export function attachPaymentMethod(store: Store, pm: Obj, customerId: string, param = "customer"): Obj {
  if (pm.customer === customerId) return pm;
  if (pm.customer)
    throw invalidRequest(
      "The payment method you provided has already been attached to a customer.",
      "payment_method",
      "payment_method_unexpected_state",
    );
  if (pm._used_without_customer)
    throw invalidRequest(
      "This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.",
      "payment_method",
      "payment_method_unexpected_state",
    );
  store.require(customerId, "customer", param);
  if (cardOf(pm).declinesOnSetup) {
    const decline = cardOf(pm).chargeDecline!;
    throw new StripeApiError(402, "card_error", decline.message, {
      code: decline.code,
      decline_code: decline.decline_code,
      param: "",
    });
  }
  pm.customer = customerId;
  store.emit("payment_method.attached", pm);
  return pm;
}

export const paymentMethodRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/payment_methods",
    publishable: true,
    handler({ store, params: p, auth }) {
      const type = p.oneOf("type", ["card"] as const, { required: true })!;
      const card = p.object("card", { required: true });
      const billing = p.object("billing_details");
      const metadata = p.metadata("metadata") ?? {};
      p.done();
      const data: Obj = { type, card: {} as Obj, billing_details: {} as Obj };
      if (card) {
        for (const key of ["number", "exp_month", "exp_year", "cvc"]) {
          const v = card.string(key);
          if (v !== undefined) data.card[key] = v;
        }
        card.done();
      }
      if (billing) {
        for (const key of ["name", "email", "phone"]) {
          const v = billing.string(key, { max: 512 });
          if (v !== undefined) data.billing_details[key] = v;
        }
        billing.value("address");
        billing.done();
      }
      if (auth === "secret")
        throw invalidRequest(
          "Sending credit card numbers directly to the Stripe API is generally unsafe. To continue processing use Stripe.js, the Stripe mobile bindings, or Stripe Elements. In tests, use a test PaymentMethod such as pm_card_visa.",
        );
      const pm = paymentMethodFromData(store, data, "");
      pm.metadata = metadata;
      return pm;
    },
  },
  {
    method: "GET",
    path: "/v1/payment_methods/:id",
    handler({ store, id, params: p }) {
      p.done();
      return resolvePaymentMethod(store, id, "id");
    },
  },
  {
    method: "POST",
    path: "/v1/payment_methods/:id/attach",
    handler({ store, id, params: p }) {
      const customer = p.string("customer", { required: true })!;
      p.done();
      const pm = resolvePaymentMethod(store, id, "id");
      return attachPaymentMethod(store, pm, customer);
    },
  },
  {
    method: "POST",
    path: "/v1/payment_methods/:id/detach",
    handler({ store, id, params: p }) {
      p.done();
      const pm = store.require(id, "payment_method", "id", "PaymentMethod");
      if (!pm.customer)
        throw invalidRequest(
          "The payment method you provided is not attached to a customer so detachment is impossible.",
          undefined,
          "payment_method_unexpected_state",
        );
      const previous = { customer: pm.customer };
      pm.customer = null;
      pm._used_without_customer = true;
      store.emit("payment_method.detached", pm, previous);
      return pm;
    },
  },
  {
    method: "GET",
    path: "/v1/payment_methods",
    handler({ store, params: p }) {
      const customer = p.string("customer");
      const type = p.string("type");
      const cursor = page(p);
      p.done();
      if (customer) store.require(customer, "customer", "customer");
      const all = store.list(
        "payment_method",
        (pm) => customer !== undefined && pm.customer === customer && (type === undefined || pm.type === type),
      );
      return listOf("/v1/payment_methods", all, cursor);
    },
  },
];
