/**
 * PaymentIntents: create (optionally confirming at once, off session with a saved card),
 * retrieve, update, confirm (by the server, or by Stripe.js with the publishable key and the
 * client secret), cancel, list; and Charges: retrieve, list.
 */
import { paymentMethodFromData, resolvePaymentMethod } from "../cards.js";
import { confirmIntent } from "../charging.js";
import { invalidRequest, StripeApiError, unexpectedState } from "../errors.js";
import { clientSecretFor, newId } from "../ids.js";
import type { Params } from "../params.js";
import type { AuthKind, Route } from "../server.js";
import { listOf, type Obj, type Store } from "../store.js";
import { page } from "./customers.js";

/** Currencies a donations backend might meet, with Stripe's minimum charge in the smallest unit. */
export const MINIMUM_AMOUNT: Record<string, number> = { aud: 50, nzd: 50, usd: 50, eur: 50, gbp: 30, cad: 50, sgd: 50 };
export const MAXIMUM_AMOUNT = 99_999_999;

export function readCurrency(p: Params, key = "currency", required = true): string | undefined {
  const currency = p.string(key, { required })?.toLowerCase();
  if (currency !== undefined && MINIMUM_AMOUNT[currency] === undefined)
    throw invalidRequest(
      `Invalid currency: ${currency.slice(0, 10)}. This stand-in supports ${Object.keys(MINIMUM_AMOUNT).join(", ")}.`,
      p.name(key),
      "parameter_invalid_string",
    );
  return currency;
}

export function checkAmount(amount: number, currency: string, param = "amount"): void {
  const min = MINIMUM_AMOUNT[currency]!;
  if (amount < min)
    throw invalidRequest(`Amount must be at least ${(min / 100).toFixed(2)} ${currency}`, param, "amount_too_small");
  if (amount > MAXIMUM_AMOUNT)
    throw invalidRequest(`Amount must be no more than 999,999.99 ${currency}`, param, "amount_too_large");
}

export function readCustomer(store: Store, p: Params, key = "customer"): string | null | undefined {
  const id = p.nullableString(key, 255);
  if (id) store.require(id, "customer", p.name(key));
  return id;
}

/** The publishable-key caller must know the intent's client secret (Stripe.js always sends it). */
export function checkClientSecret(p: Params, auth: AuthKind, intent: Obj, what: string): void {
  const secret = p.string("client_secret");
  if (auth === "publishable" && secret === undefined)
    throw invalidRequest("Missing required param: client_secret.", "client_secret", "parameter_missing");
  if (secret !== undefined && secret !== intent.client_secret)
    throw invalidRequest(
      `The client_secret provided does not match the client_secret associated with the ${what}.`,
      "client_secret",
    );
}

/** What a publishable key may see of an intent (no customer, no metadata), as Stripe.js gets it. */
export function publicView(intent: Obj): Obj {
  const { customer: _c, metadata: _m, receipt_email: _r, ...rest } = intent;
  return { ...rest };
}

function readAutomatic(p: Params): Obj | null | undefined {
  const apm = p.object("automatic_payment_methods");
  if (!apm) return apm;
  const enabled = apm.bool("enabled");
  const allow_redirects = apm.oneOf("allow_redirects", ["always", "never"] as const);
  apm.done();
  if (enabled === undefined)
    throw invalidRequest(
      "Missing required param: automatic_payment_methods[enabled].",
      "automatic_payment_methods[enabled]",
      "parameter_missing",
    );
  return enabled ? { allow_redirects: allow_redirects ?? "always", enabled: true } : null;
}

/** Reads `payment_method` or `payment_method_data` into a PaymentMethod (Stripe.js sends the latter). */
export function readPaymentMethod(store: Store, p: Params, auth: AuthKind): Obj | undefined {
  const id = p.string("payment_method", { max: 255 });
  const data = p.object("payment_method_data");
  if (id !== undefined && data)
    throw invalidRequest(
      "You may only specify one of these parameters: payment_method, payment_method_data.",
      "payment_method_data",
      "parameters_exclusive",
    );
  if (data) {
    if (auth === "secret")
      throw invalidRequest(
        "Sending credit card numbers directly to the Stripe API is generally unsafe. In tests, use a test PaymentMethod such as pm_card_visa.",
        "payment_method_data",
      );
    const raw: Obj = {
      type: data.string("type"),
      card: data.value("card"),
      billing_details: data.value("billing_details"),
    };
    for (const extra of ["payment_user_agent", "time_on_page", "guid", "muid", "sid", "allow_redisplay", "referrer"])
      data.value(extra);
    data.done();
    return paymentMethodFromData(store, raw);
  }
  return id ? resolvePaymentMethod(store, id) : undefined;
}

function readConfirmExtras(p: Params): { returnUrl?: string } {
  const returnUrl = p.string("return_url", { max: 2048 });
  p.bool("use_stripe_sdk");
  p.string("expected_payment_method_type");
  p.bool("error_on_requires_action");
  p.value("mandate_data");
  p.value("payment_method_options");
  return { returnUrl };
}

/** Server-side confirms of an intent open to redirecting methods need a return_url (Stripe's rule). */
function checkReturnUrl(pi: Obj, auth: AuthKind, returnUrl: string | undefined, offSession: boolean): void {
  if (auth === "secret" && !offSession && !returnUrl && pi.automatic_payment_methods?.allow_redirects === "always")
    throw invalidRequest(
      "This PaymentIntent is configured to accept payment methods enabled in your Dashboard. Because some of these payment methods might redirect your customer off of your page, you must provide a `return_url`. If you don't want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.",
    );
}

const UPDATABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];

export function newPaymentIntent(store: Store, fields: Obj): Obj {
  const id = newId("pi");
  return store.put({
    id,
    object: "payment_intent",
    amount: fields.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: fields.automatic_payment_methods ?? null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: clientSecretFor(id),
    confirmation_method: "automatic",
    created: store.now(),
    currency: fields.currency,
    customer: fields.customer ?? null,
    customer_account: null,
    description: fields.description ?? null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: fields.metadata ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: fields.payment_method ?? null,
    payment_method_configuration_details: fields.automatic_payment_methods
      ? { id: "pmc_standin_default", parent: null }
      : null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" },
    },
    payment_method_types: fields.payment_method_types ?? ["card"],
    processing: null,
    receipt_email: fields.receipt_email ?? null,
    review: null,
    setup_future_usage: fields.setup_future_usage ?? null,
    shipping: null,
    source: null,
    statement_descriptor: fields.statement_descriptor ?? null,
    statement_descriptor_suffix: fields.statement_descriptor_suffix ?? null,
    status: fields.payment_method ? "requires_confirmation" : "requires_payment_method",
    transfer_data: null,
    transfer_group: null,
    ...(fields._invoice ? { _invoice: fields._invoice } : {}),
  });
}

export const paymentIntentRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/payment_intents",
    handler({ store, params: p, auth }) {
      const currency = readCurrency(p)!;
      const amount = p.int("amount", { required: true })!;
      checkAmount(amount, currency);
      const customer = readCustomer(store, p);
      const metadata = p.metadata("metadata") ?? {};
      const description = p.nullableString("description", 1000);
      const receipt_email = p.nullableString("receipt_email", 512);
      const apm = readAutomatic(p);
      const types = p.strings("payment_method_types");
      if (apm !== undefined && types !== undefined)
        throw invalidRequest(
          "You may only specify one of these parameters: automatic_payment_methods, payment_method_types.",
          "payment_method_types",
          "parameters_exclusive",
        );
      if (types && types.some((t) => t !== "card"))
        throw invalidRequest("This stand-in supports the card payment method type only.", "payment_method_types");
      const setup_future_usage = p.oneOf("setup_future_usage", ["off_session", "on_session"] as const);
      const offSessionRaw = p.string("off_session");
      if (offSessionRaw !== undefined && !["true", "false", "one_off", "recurring"].includes(offSessionRaw))
        throw invalidRequest(`Invalid boolean: ${offSessionRaw.slice(0, 20)}`, "off_session");
      const offSession = offSessionRaw === "true" || offSessionRaw === "one_off" || offSessionRaw === "recurring";
      const confirm = p.bool("confirm") ?? false;
      p.oneOf("capture_method", ["automatic", "automatic_async"] as const);
      p.oneOf("confirmation_method", ["automatic"] as const);
      const statement_descriptor_suffix = p.string("statement_descriptor_suffix", { max: 22 });
      const statement_descriptor = p.string("statement_descriptor", { max: 22 });
      const { returnUrl } = readConfirmExtras(p);
      const pmId = p.string("payment_method", { max: 255 });
      if (p.value("payment_method_data") !== undefined)
        throw invalidRequest(
          "Sending credit card numbers directly to the Stripe API is generally unsafe. In tests, use a test PaymentMethod such as pm_card_visa.",
          "payment_method_data",
        );
      p.done();
      if (offSessionRaw !== undefined && !confirm)
        throw invalidRequest("You can only set `off_session` when `confirm` is true.", "off_session");
      if (setup_future_usage && offSession)
        throw invalidRequest(
          "You cannot set setup_future_usage and off_session together: an off-session payment uses a card that is already saved.",
          "setup_future_usage",
        );
      const automatic = types ? null : (apm ?? { allow_redirects: "always", enabled: true });
      if (confirm) checkReturnUrl({ automatic_payment_methods: automatic }, auth, returnUrl, offSession);
      const pm = pmId ? resolvePaymentMethod(store, pmId) : undefined;
      // Stripe refuses a payment method of another customer before it makes anything.
      if (pm?.customer && pm.customer !== customer)
        throw invalidRequest(
          customer
            ? "The provided PaymentMethod belongs to a different Customer than the one on this PaymentIntent."
            : "The provided PaymentMethod was previously attached to a Customer. To use it with this PaymentIntent, you must provide the same Customer ID in the customer parameter.",
          "payment_method",
        );
      const pi = newPaymentIntent(store, {
        amount,
        currency,
        customer,
        metadata,
        description,
        receipt_email,
        automatic_payment_methods: automatic,
        payment_method_types: types,
        setup_future_usage,
        payment_method: pm?.id,
        statement_descriptor,
        statement_descriptor_suffix,
      });
      store.emit("payment_intent.created", pi);
      if (confirm) confirmIntent(store, pi, pm ?? null, { offSession });
      return pi;
    },
  },
  {
    method: "GET",
    path: "/v1/payment_intents/:id",
    publishable: true,
    handler({ store, id, params: p, auth }) {
      const pi = store.require(id, "payment_intent", "intent");
      checkClientSecret(p, auth, pi, "PaymentIntent");
      p.done();
      return auth === "publishable" ? publicView(pi) : pi;
    },
  },
  {
    method: "POST",
    path: "/v1/payment_intents/:id",
    handler({ store, id, params: p }) {
      const pi = store.require(id, "payment_intent", "intent");
      const currency = readCurrency(p, "currency", false);
      const amount = p.int("amount");
      const customer = readCustomer(store, p);
      const metadata = p.metadata("metadata", pi.metadata);
      const description = p.nullableString("description", 1000);
      const receipt_email = p.nullableString("receipt_email", 512);
      const sfu = p.string("setup_future_usage");
      if (sfu !== undefined && !["", "off_session", "on_session"].includes(sfu))
        throw invalidRequest(
          "Invalid setup_future_usage: must be one of off_session, on_session",
          "setup_future_usage",
        );
      const statement_descriptor_suffix = p.nullableString("statement_descriptor_suffix", 22);
      const pmId = p.string("payment_method", { max: 255 });
      p.done();
      const restricted = { amount, currency, customer, setup_future_usage: sfu, payment_method: pmId };
      for (const [key, value] of Object.entries(restricted))
        if (value !== undefined && !UPDATABLE.includes(pi.status))
          throw unexpectedState(
            `This PaymentIntent's ${key} could not be updated because it has a status of ${pi.status}. You may only update the ${key} of a PaymentIntent with one of the following statuses: ${UPDATABLE.join(", ")}.`,
          );
      if (amount !== undefined || currency !== undefined) checkAmount(amount ?? pi.amount, currency ?? pi.currency);
      if (pi._invoice && (amount !== undefined || currency !== undefined))
        throw invalidRequest(
          "You cannot update the amount or currency of a PaymentIntent created by an invoice. Update the invoice instead.",
          "amount",
        );
      const pm = pmId ? resolvePaymentMethod(store, pmId) : undefined;
      if (amount !== undefined) pi.amount = amount;
      if (currency !== undefined) pi.currency = currency;
      if (customer !== undefined) pi.customer = customer;
      if (metadata !== undefined) pi.metadata = metadata;
      if (description !== undefined) pi.description = description;
      if (receipt_email !== undefined) pi.receipt_email = receipt_email;
      if (sfu !== undefined) pi.setup_future_usage = sfu === "" ? null : sfu;
      if (statement_descriptor_suffix !== undefined) pi.statement_descriptor_suffix = statement_descriptor_suffix;
      if (pm) {
        pi.payment_method = pm.id;
        pi.status = "requires_confirmation";
      }
      return pi;
    },
  },
  {
    method: "POST",
    path: "/v1/payment_intents/:id/confirm",
    publishable: true,
    handler({ store, id, params: p, auth }) {
      const pi = store.require(id, "payment_intent", "intent");
      checkClientSecret(p, auth, pi, "PaymentIntent");
      const pm = readPaymentMethod(store, p, auth);
      const offSessionRaw = p.string("off_session");
      const offSession = offSessionRaw === "true" || offSessionRaw === "one_off" || offSessionRaw === "recurring";
      const { returnUrl } = readConfirmExtras(p);
      const receipt_email = auth === "publishable" ? p.nullableString("receipt_email", 512) : undefined;
      const sfu = p.oneOf("setup_future_usage", ["off_session", "on_session"] as const);
      p.done();
      checkReturnUrl(pi, auth, returnUrl, offSession);
      if (receipt_email !== undefined) pi.receipt_email = receipt_email;
      if (sfu !== undefined) pi.setup_future_usage = sfu;
      try {
        confirmIntent(store, pi, pm ?? null, { offSession });
      } catch (error) {
        if (auth === "publishable" && error instanceof StripeApiError && error.status === 402) {
          const extra = { ...error.fields.extra, payment_intent: publicView(pi) };
          throw new StripeApiError(402, error.type, error.message, { ...error.fields, extra });
        }
        throw error;
      }
      return auth === "publishable" ? publicView(pi) : pi;
    },
  },
  {
    method: "POST",
    path: "/v1/payment_intents/:id/cancel",
    handler({ store, id, params: p }) {
      const pi = store.require(id, "payment_intent", "intent");
      const reason = p.oneOf("cancellation_reason", [
        "duplicate",
        "fraudulent",
        "requested_by_customer",
        "abandoned",
      ] as const);
      p.done();
      if (pi._invoice)
        throw unexpectedState(
          "You cannot cancel this PaymentIntent because it was created by an invoice. Void the invoice instead, or cancel its subscription.",
        );
      const cancelable = ["requires_payment_method", "requires_capture", "requires_confirmation", "requires_action"];
      if (!cancelable.includes(pi.status))
        throw unexpectedState(
          `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${cancelable.join(", ")}, processing.`,
        );
      pi.status = "canceled";
      pi.canceled_at = store.now();
      pi.cancellation_reason = reason ?? null;
      store.emit("payment_intent.canceled", pi);
      return pi;
    },
  },
  {
    method: "GET",
    path: "/v1/payment_intents",
    handler({ store, params: p }) {
      const customer = p.string("customer");
      const cursor = page(p);
      p.value("created");
      p.done();
      return listOf(
        "/v1/payment_intents",
        store.list("payment_intent", (pi) => customer === undefined || pi.customer === customer),
        cursor,
      );
    },
  },
  {
    method: "GET",
    path: "/v1/charges/:id",
    handler({ store, id, params: p }) {
      p.done();
      return store.require(id, "charge", "charge");
    },
  },
  {
    method: "GET",
    path: "/v1/charges",
    handler({ store, params: p }) {
      const customer = p.string("customer");
      const paymentIntent = p.string("payment_intent");
      const cursor = page(p);
      p.done();
      return listOf(
        "/v1/charges",
        store.list(
          "charge",
          (ch) =>
            (customer === undefined || ch.customer === customer) &&
            (paymentIntent === undefined || ch.payment_intent === paymentIntent),
        ),
        cursor,
      );
    },
  },
];
