/**
 * SetupIntents: save a card for later without charging it (a schedule whose first charge is
 * later). Confirmed by the server or by Stripe.js (publishable key + client secret); on success the
 * PaymentMethod is attached to the customer (`payment_method.attached`, `setup_intent.succeeded`);
 * a card that declines when saved gives 402 and `setup_intent.setup_failed`.
 */
import { cardOf, resolvePaymentMethod } from "../cards.js";
import { invalidRequest, StripeApiError, unexpectedState } from "../errors.js";
import { clientSecretFor, newId } from "../ids.js";
import type { Route } from "../server.js";
import { listOf, type Obj, type Store, snapshot } from "../store.js";
import { page } from "./customers.js";
import { checkClientSecret, publicView, readCustomer, readPaymentMethod } from "./payment-intents.js";
import { attachPaymentMethod } from "./payment-methods.js";

const CONFIRMABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];

function confirmSetup(store: Store, si: Obj, pm: Obj | null): Obj {
  if (!CONFIRMABLE.includes(si.status))
    throw unexpectedState(
      `You cannot confirm this SetupIntent because it has a status of ${si.status}. Only a SetupIntent with one of the following statuses may be confirmed: ${CONFIRMABLE.join(", ")}.`,
      "setup_intent_unexpected_state",
    );
  const method = pm ?? (si.payment_method ? store.get(si.payment_method, "payment_method") : undefined);
  if (!method)
    throw invalidRequest(
      "You cannot confirm this SetupIntent because it's missing a payment method. Specify payment_method or payment_method_data.",
      "payment_method",
      "setup_intent_unexpected_state",
    );
  if (method.customer && method.customer !== si.customer)
    throw invalidRequest("The provided PaymentMethod belongs to a different Customer.", "payment_method");
  const card = cardOf(method);
  if (card.declinesOnSetup) {
    const decline = card.chargeDecline!;
    si.status = "requires_payment_method";
    si.payment_method = null;
    si.last_setup_error = {
      code: decline.code,
      decline_code: decline.decline_code,
      doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, "-")}`,
      message: decline.message,
      payment_method: snapshot(method),
      type: "card_error",
    };
    store.emit("setup_intent.setup_failed", si);
    throw new StripeApiError(402, "card_error", decline.message, {
      code: decline.code,
      decline_code: decline.decline_code,
      extra: { setup_intent: snapshot(si), payment_method: snapshot(method), request_log_url: null },
    });
  }
  si.payment_method = method.id;
  si.last_setup_error = null;
  if ((card.authentication ?? "none") !== "none") {
    // Saving this card asks the cardholder once (3-D Secure), then off-session payments need not.
    si.status = "requires_action";
    si.next_action = {
      type: "use_stripe_sdk",
      use_stripe_sdk: {
        type: "three_d_secure_redirect",
        stripe_js: `https://hooks.stripe.com/3d_secure_2/hosted?setup_intent=${si.id}`,
        source: newId("src"),
      },
    };
    store.emit("setup_intent.requires_action", si);
    return si;
  }
  return finishSetup(store, si, method);
}

function finishSetup(store: Store, si: Obj, method: Obj): Obj {
  si.payment_method = method.id;
  si.next_action = null;
  if (si.customer) attachPaymentMethod(store, method, si.customer);
  si.status = "succeeded";
  store.emit("setup_intent.succeeded", si);
  return si;
}

/** The cardholder's answer to the 3-D Secure asked when saving a card. */
export function completeSetupAuthentication(store: Store, si: Obj, outcome: "succeed" | "fail"): Obj {
  if (si.status !== "requires_action")
    throw unexpectedState(
      `This SetupIntent has a status of ${si.status}, not requires_action.`,
      "setup_intent_unexpected_state",
    );
  const method = store.get(si.payment_method, "payment_method")!;
  if (outcome === "succeed") {
    method._authenticated_setup = true;
    return finishSetup(store, si, method);
  }
  si.status = "requires_payment_method";
  si.payment_method = null;
  si.next_action = null;
  si.last_setup_error = {
    code: "setup_intent_authentication_failure",
    doc_url: "https://stripe.com/docs/error-codes/setup-intent-authentication-failure",
    message:
      "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
    payment_method: snapshot(method),
    type: "invalid_request_error",
  };
  store.emit("setup_intent.setup_failed", si);
  return si;
}

export const setupIntentRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/setup_intents",
    handler({ store, params: p }) {
      const customer = readCustomer(store, p);
      const usage = p.oneOf("usage", ["off_session", "on_session"] as const) ?? "off_session";
      const metadata = p.metadata("metadata") ?? {};
      const description = p.nullableString("description", 1000);
      const apm = p.object("automatic_payment_methods");
      let automatic: Obj | null = { allow_redirects: "always", enabled: true };
      if (apm) {
        const enabled = apm.bool("enabled");
        const allow = apm.oneOf("allow_redirects", ["always", "never"] as const);
        apm.done();
        automatic = enabled ? { allow_redirects: allow ?? "always", enabled: true } : null;
      }
      const types = p.strings("payment_method_types");
      if (apm && types)
        throw invalidRequest(
          "You may only specify one of these parameters: automatic_payment_methods, payment_method_types.",
          "payment_method_types",
          "parameters_exclusive",
        );
      if (types?.some((t) => t !== "card"))
        throw invalidRequest("This stand-in supports the card payment method type only.", "payment_method_types");
      const pmId = p.string("payment_method", { max: 255 });
      const confirm = p.bool("confirm") ?? false;
      p.string("return_url", { max: 2048 });
      p.value("payment_method_options");
      p.value("mandate_data");
      p.value("use_stripe_sdk");
      p.done();
      const pm = pmId ? resolvePaymentMethod(store, pmId) : undefined;
      const id = newId("seti");
      const si = store.put({
        id,
        object: "setup_intent",
        application: null,
        automatic_payment_methods: types ? null : automatic,
        cancellation_reason: null,
        client_secret: clientSecretFor(id),
        created: store.now(),
        customer: customer ?? null,
        customer_account: null,
        description: description ?? null,
        excluded_payment_method_types: null,
        flow_directions: null,
        last_setup_error: null,
        latest_attempt: null,
        livemode: false,
        mandate: null,
        metadata,
        next_action: null,
        on_behalf_of: null,
        payment_method: pm?.id ?? null,
        payment_method_configuration_details: types ? null : { id: "pmc_standin_default", parent: null },
        payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: "automatic" } },
        payment_method_types: types ?? ["card"],
        single_use_mandate: null,
        status: pm ? "requires_confirmation" : "requires_payment_method",
        usage,
      });
      store.emit("setup_intent.created", si);
      if (confirm) confirmSetup(store, si, pm ?? null);
      return si;
    },
  },
  {
    method: "GET",
    path: "/v1/setup_intents/:id",
    publishable: true,
    handler({ store, id, params: p, auth }) {
      const si = store.require(id, "setup_intent", "intent");
      checkClientSecret(p, auth, si, "SetupIntent");
      p.done();
      return auth === "publishable" ? publicView(si) : si;
    },
  },
  {
    method: "POST",
    path: "/v1/setup_intents/:id",
    handler({ store, id, params: p }) {
      const si = store.require(id, "setup_intent", "intent");
      const metadata = p.metadata("metadata", si.metadata);
      const description = p.nullableString("description", 1000);
      const customer = readCustomer(store, p);
      const pmId = p.string("payment_method", { max: 255 });
      p.done();
      if ((customer !== undefined || pmId !== undefined) && !CONFIRMABLE.includes(si.status))
        throw unexpectedState(
          `You cannot update this SetupIntent because it has a status of ${si.status}.`,
          "setup_intent_unexpected_state",
        );
      if (metadata !== undefined) si.metadata = metadata;
      if (description !== undefined) si.description = description;
      if (customer !== undefined) si.customer = customer;
      if (pmId !== undefined) {
        si.payment_method = resolvePaymentMethod(store, pmId).id;
        si.status = "requires_confirmation";
      }
      return si;
    },
  },
  {
    method: "POST",
    path: "/v1/setup_intents/:id/confirm",
    publishable: true,
    handler({ store, id, params: p, auth }) {
      const si = store.require(id, "setup_intent", "intent");
      checkClientSecret(p, auth, si, "SetupIntent");
      const pm = readPaymentMethod(store, p, auth);
      p.string("return_url", { max: 2048 });
      p.bool("use_stripe_sdk");
      p.string("expected_payment_method_type");
      p.value("mandate_data");
      p.value("payment_method_options");
      p.done();
      try {
        confirmSetup(store, si, pm ?? null);
      } catch (error) {
        if (auth === "publishable" && error instanceof StripeApiError && error.status === 402) {
          const extra = { ...error.fields.extra, setup_intent: publicView(si) };
          throw new StripeApiError(402, error.type, error.message, { ...error.fields, extra });
        }
        throw error;
      }
      return auth === "publishable" ? publicView(si) : si;
    },
  },
  {
    method: "POST",
    path: "/v1/setup_intents/:id/cancel",
    handler({ store, id, params: p }) {
      const si = store.require(id, "setup_intent", "intent");
      const reason = p.oneOf("cancellation_reason", ["abandoned", "requested_by_customer", "duplicate"] as const);
      p.done();
      if (!CONFIRMABLE.includes(si.status))
        throw unexpectedState(
          `You cannot cancel this SetupIntent because it has a status of ${si.status}. Only a SetupIntent with one of the following statuses may be canceled: ${CONFIRMABLE.join(", ")}.`,
          "setup_intent_unexpected_state",
        );
      si.status = "canceled";
      si.cancellation_reason = reason ?? null;
      store.emit("setup_intent.canceled", si);
      return si;
    },
  },
  {
    method: "GET",
    path: "/v1/setup_intents",
    handler({ store, params: p }) {
      const customer = p.string("customer");
      const paymentMethod = p.string("payment_method");
      const cursor = page(p);
      p.done();
      return listOf(
        "/v1/setup_intents",
        store.list(
          "setup_intent",
          (si) =>
            (customer === undefined || si.customer === customer) &&
            (paymentMethod === undefined || si.payment_method === paymentMethod),
        ),
        cursor,
      );
    },
  },
];
