/**
 * Stripe Billing's core for subscriptions and schedules: prices made inline from `price_data`,
 * billing periods (a month after the 31st is the last day of a shorter month, always counted from
 * the anchor), invoices with their PaymentIntent and InvoicePayment, and what paying or failing an
 * invoice does to its subscription. In this API version an invoice names its intent only through
 * `payments` and `confirmation_secret` (both shown when expanded) and its subscription in
 * `parent.subscription_details`.
 */
import { confirmIntent } from "./charging.js";
import { invalidRequest, StripeApiError } from "./errors.js";
import { newId, randomToken } from "./ids.js";
import type { Params } from "./params.js";
import { checkAmount, newPaymentIntent, readCurrency } from "./resources/payment-intents.js";
import type { Obj, Store } from "./store.js";

export type Interval = "day" | "week" | "month" | "year";
const INTERVALS = ["day", "week", "month", "year"] as const;

/** `anchor` moved by `count` intervals, months counted from the anchor's day (31 Jan → 28 Feb → 31 Mar). */
export function addInterval(anchor: number, interval: Interval, count: number): number {
  if (interval === "day") return anchor + count * 86_400;
  if (interval === "week") return anchor + count * 7 * 86_400;
  const d = new Date(anchor * 1000);
  const months = interval === "month" ? count : count * 12;
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Math.floor(Date.UTC(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000);
}

export function readRecurring(
  p: Params,
  required: boolean,
): { interval: Interval; interval_count: number } | undefined {
  const recurring = p.object("recurring", { required });
  if (!recurring) return undefined;
  const interval = recurring.oneOf("interval", INTERVALS, { required: true })!;
  const interval_count = recurring.int("interval_count", { min: 1, max: interval === "year" ? 3 : 36 }) ?? 1;
  recurring.value("usage_type");
  recurring.value("trial_period_days");
  recurring.done();
  return { interval, interval_count };
}

/** A Price object, stored. */
export function createPrice(store: Store, fields: Obj): Obj {
  return store.put({
    id: newId("price"),
    object: "price",
    active: fields.active ?? true,
    billing_scheme: "per_unit",
    created: store.now(),
    currency: fields.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: fields.lookup_key ?? null,
    metadata: fields.metadata ?? {},
    nickname: fields.nickname ?? null,
    product: fields.product,
    recurring: fields.recurring
      ? { ...fields.recurring, meter: null, trial_period_days: null, usage_type: "licensed" }
      : null,
    tax_behavior: fields.tax_behavior ?? "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: fields.recurring ? "recurring" : "one_time",
    unit_amount: fields.unit_amount,
    unit_amount_decimal: String(fields.unit_amount),
  });
}

/** `price_data[currency|product|unit_amount|recurring][interval]` as subscription items take it: an inactive inline price. */
export function readPriceData(store: Store, p: Params): Obj {
  const currency = readCurrency(p)!;
  const product = p.string("product", { required: true })!;
  store.require(product, "product", p.name("product"));
  const unitAmount = p.int("unit_amount", { min: 0 });
  const decimal = p.string("unit_amount_decimal");
  if (unitAmount === undefined && decimal === undefined)
    throw invalidRequest(
      `Missing required param: ${p.name("unit_amount")}.`,
      p.name("unit_amount"),
      "parameter_missing",
    );
  const unit_amount = unitAmount ?? Math.round(Number(decimal));
  if (!Number.isFinite(unit_amount)) throw invalidRequest(`Invalid decimal: ${decimal}`, p.name("unit_amount_decimal"));
  checkAmount(unit_amount, currency, p.name("unit_amount"));
  const recurring = readRecurring(p, true);
  const tax_behavior = p.oneOf("tax_behavior", ["exclusive", "inclusive", "unspecified"] as const);
  p.done();
  return createPrice(store, { currency, product, unit_amount, recurring, tax_behavior, active: false });
}

/** The price a subscription or phase item names: `price` (a recurring price) or `price_data`. */
export function readItemPrice(store: Store, item: Params): Obj {
  const priceId = item.string("price", { max: 255 });
  const data = item.object("price_data");
  if (priceId !== undefined && data)
    throw invalidRequest(
      `You may only specify one of these parameters: ${item.name("price")}, ${item.name("price_data")}.`,
      item.name("price_data"),
      "parameters_exclusive",
    );
  if (data) return readPriceData(store, data);
  if (priceId === undefined)
    throw invalidRequest(`Missing required param: ${item.name("price")}.`, item.name("price"), "parameter_missing");
  const price = store.require(priceId, "price", item.name("price"));
  if (!price.recurring)
    throw invalidRequest(
      `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
      item.name("price"),
    );
  return price;
}

/** The deprecated `plan` every subscription item still carries, from its price. */
export function planOf(price: Obj): Obj {
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: "per_unit",
    created: price.created,
    currency: price.currency,
    interval: price.recurring.interval,
    interval_count: price.recurring.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: "licensed",
  };
}

export function subscriptionItem(
  store: Store,
  subscriptionId: string,
  price: Obj,
  quantity: number,
  period: { start: number; end: number },
  metadata: Obj = {},
): Obj {
  return {
    id: newId("si"),
    object: "subscription_item",
    billing_thresholds: null,
    created: store.now(),
    current_period_end: period.end,
    current_period_start: period.start,
    discounts: [],
    metadata,
    plan: planOf(price),
    price: { ...price },
    quantity,
    subscription: subscriptionId,
    tax_rates: [],
  };
}

export const itemsOf = (sub: Obj): Obj[] => sub.items.data;
export const periodEnd = (sub: Obj): number => itemsOf(sub)[0]!.current_period_end;
export const periodStart = (sub: Obj): number => itemsOf(sub)[0]!.current_period_start;

/** The payment method a subscription's invoices are charged to, if there is one. */
export function defaultPaymentMethod(store: Store, sub: Obj): Obj | undefined {
  const id = sub.default_payment_method ?? store.get(sub.customer)?.invoice_settings?.default_payment_method;
  const pm = id ? store.get(id, "payment_method") : undefined;
  return pm && pm.customer === sub.customer ? pm : undefined;
}

/**
 * A finalized invoice for the subscription's current items over `period` (or a draft / void one
 * when collection is paused), with its PaymentIntent and InvoicePayment. Emits invoice.created,
 * invoice.finalized (and invoice.voided).
 */
export function createInvoice(
  store: Store,
  sub: Obj,
  reason: "subscription_create" | "subscription_cycle",
  period: { start: number; end: number },
  opts: { paused?: "keep_as_draft" | "mark_uncollectible" | "void" } = {},
): Obj {
  const customer = store.require(sub.customer, "customer");
  const id = newId("in");
  const lines = itemsOf(sub).map((item) => {
    const amount = item.price.unit_amount * item.quantity;
    const product = store.get(item.price.product);
    const each = (item.price.unit_amount / 100).toFixed(2);
    const every =
      item.price.recurring.interval_count > 1
        ? `every ${item.price.recurring.interval_count} ${item.price.recurring.interval}s`
        : item.price.recurring.interval;
    return {
      id: newId("il"),
      object: "line_item",
      amount,
      currency: sub.currency,
      description: `${item.quantity} × ${product?.name ?? "Donation"} (at $${each} / ${every})`,
      discount_amounts: [],
      discountable: true,
      discounts: [],
      invoice: id,
      livemode: false,
      metadata: { ...sub.metadata },
      parent: {
        invoice_item_details: null,
        subscription_item_details: {
          invoice_item: null,
          proration: false,
          proration_details: { credited_items: null },
          subscription: sub.id,
          subscription_item: item.id,
        },
        type: "subscription_item_details",
      },
      period: { end: period.end, start: period.start },
      pretax_credit_amounts: [],
      pricing: {
        price_details: { price: item.price.id, product: item.price.product },
        type: "price_details",
        unit_amount_decimal: item.price.unit_amount_decimal,
      },
      quantity: item.quantity,
      subscription: sub.id,
      taxes: [],
    };
  });
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const now = store.now();
  const draft = opts.paused === "keep_as_draft";
  const number = draft
    ? null
    : `${customer.invoice_prefix}-${String(customer.next_invoice_sequence++).padStart(4, "0")}`;
  const invoice = store.put({
    id,
    object: "invoice",
    account_country: "AU",
    account_name: "National Zakat Foundation (Stripe stand-in)",
    account_tax_ids: null,
    amount_due: total,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: total,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: !draft,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: reason,
    collection_method: "charge_automatically",
    created: now,
    currency: sub.currency,
    custom_fields: null,
    customer: sub.customer,
    customer_account: null,
    customer_address: null,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_phone: customer.phone,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: sub.description,
    discounts: [],
    due_date: null,
    effective_at: draft ? null : now,
    ending_balance: draft ? null : 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: draft ? null : `https://invoice.stripe.com/i/standin/${randomToken(32)}`,
    invoice_pdf: draft ? null : `https://pay.stripe.com/invoice/standin/${randomToken(32)}/pdf`,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: "list", data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: { ...sub.metadata }, subscription: sub.id },
      type: "subscription_details",
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: reason === "subscription_create" ? now : period.start,
    period_start: reason === "subscription_create" ? now : periodStart(sub),
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: draft ? "draft" : "open",
    status_transitions: {
      finalized_at: draft ? null : now,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: now,
    _payment_intent: null,
  });
  store.emit("invoice.created", invoice);
  if (draft) return invoice;
  if (opts.paused === "void" || opts.paused === "mark_uncollectible") {
    store.emit("invoice.finalized", invoice);
    if (opts.paused === "void") {
      invoice.status = "void";
      invoice.status_transitions.voided_at = now;
      store.emit("invoice.voided", invoice);
    } else {
      invoice.status = "uncollectible";
      invoice.status_transitions.marked_uncollectible_at = now;
      store.emit("invoice.marked_uncollectible", invoice);
    }
    return invoice;
  }
  if (total === 0) {
    invoice.status = "paid";
    invoice.status_transitions.paid_at = now;
    store.emit("invoice.finalized", invoice);
    store.emit("invoice.paid", invoice);
    return invoice;
  }
  const pi = newPaymentIntent(store, {
    amount: total,
    currency: sub.currency,
    customer: sub.customer,
    description: reason === "subscription_create" ? "Subscription creation" : "Subscription update",
    payment_method_types: ["card"],
    automatic_payment_methods: null,
    setup_future_usage: reason === "subscription_create" ? "off_session" : null,
    _invoice: invoice.id,
  });
  invoice._payment_intent = pi.id;
  store.put({
    id: newId("inpay"),
    object: "invoice_payment",
    amount_paid: null,
    amount_requested: total,
    created: now,
    currency: sub.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { payment_intent: pi.id, type: "payment_intent" },
    status: "open",
    status_transitions: { canceled_at: null, paid_at: null },
  });
  store.emit("invoice.finalized", invoice);
  store.emit("payment_intent.created", pi);
  return invoice;
}

/** Charges an open invoice's intent off session; a decline is recorded (hooks), not thrown, unless asked. */
export function chargeInvoice(
  store: Store,
  invoice: Obj,
  pm: Obj | undefined,
  opts: { throwOnDecline?: boolean } = {},
): boolean {
  const pi = invoice._payment_intent ? store.get(invoice._payment_intent) : undefined;
  if (!pi || invoice.status !== "open") return false;
  if (!pm) {
    invoiceFailed(store, invoice);
    return false;
  }
  try {
    confirmIntent(store, pi, pm, { offSession: true });
    return true;
  } catch (error) {
    if (opts.throwOnDecline || !(error instanceof StripeApiError) || error.status !== 402) throw error;
    return false;
  }
}

function subscriptionOf(store: Store, invoice: Obj): Obj | undefined {
  const id = invoice.parent?.subscription_details?.subscription;
  return id ? store.get(id, "subscription") : undefined;
}

/** Emits customer.subscription.updated with what changed, unless the subscription is being created. */
export function subscriptionChanged(store: Store, sub: Obj, previous: Obj): void {
  if (sub._creating || Object.keys(previous).length === 0) return;
  store.emit("customer.subscription.updated", sub, previous);
}

function invoicePaid(store: Store, invoice: Obj, pi: Obj): void {
  const now = store.now();
  invoice.status = "paid";
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.attempted = true;
  invoice.attempt_count += 1;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = now;
  const payment = store.list(
    "invoice_payment",
    (p) => p.invoice === invoice.id && p.payment.payment_intent === pi.id,
  )[0];
  if (payment) {
    payment.status = "paid";
    payment.amount_paid = invoice.amount_due;
    payment.status_transitions.paid_at = now;
    store.emit("invoice_payment.paid", payment);
  }
  store.emit("invoice.paid", invoice);
  store.emit("invoice.payment_succeeded", invoice);
  const sub = subscriptionOf(store, invoice);
  if (!sub) return;
  const previous: Obj = {};
  if (sub.status === "incomplete" || sub.status === "past_due") {
    previous.status = sub.status;
    sub.status = "active";
  }
  if (
    sub.payment_settings.save_default_payment_method === "on_subscription" &&
    pi.payment_method &&
    sub.default_payment_method !== pi.payment_method
  ) {
    previous.default_payment_method = sub.default_payment_method;
    sub.default_payment_method = pi.payment_method;
  }
  subscriptionChanged(store, sub, previous);
}

function invoiceFailed(store: Store, invoice: Obj): void {
  invoice.attempted = true;
  invoice.attempt_count += 1;
  invoice.next_payment_attempt = null;
  store.emit("invoice.payment_failed", invoice);
  const sub = subscriptionOf(store, invoice);
  if (sub && sub.status === "active") {
    sub.status = "past_due";
    subscriptionChanged(store, sub, { status: "active" });
  }
}

/** Voids an open invoice (a cancelled or expired subscription's): its intent is cancelled. */
export function voidInvoice(store: Store, invoice: Obj): void {
  if (invoice.status !== "open" && invoice.status !== "draft") return;
  const now = store.now();
  invoice.status = "void";
  invoice.status_transitions.voided_at = now;
  const pi = invoice._payment_intent ? store.get(invoice._payment_intent) : undefined;
  if (pi && pi.status !== "succeeded" && pi.status !== "canceled") {
    pi.status = "canceled";
    pi.canceled_at = now;
    pi.cancellation_reason = "void_invoice";
    store.emit("payment_intent.canceled", pi);
  }
  for (const payment of store.list("invoice_payment", (p) => p.invoice === invoice.id && p.status === "open")) {
    payment.status = "canceled";
    payment.status_transitions.canceled_at = now;
  }
  store.emit("invoice.voided", invoice);
}

/** Ends a subscription now: open invoices voided, `customer.subscription.deleted`. */
export function endSubscription(store: Store, sub: Obj, reason: string, details: Obj = {}): void {
  const now = store.now();
  sub.status = "canceled";
  sub.canceled_at ??= now;
  sub.ended_at = now;
  sub.cancel_at_period_end = false;
  sub.cancellation_details = { comment: details.comment ?? null, feedback: details.feedback ?? null, reason };
  for (const invoice of store.list(
    "invoice",
    (i) => i.parent?.subscription_details?.subscription === sub.id && i.status === "open",
  ))
    voidInvoice(store, invoice);
  store.emit("customer.subscription.deleted", sub);
}

/** Invoices settle when their intent does, whoever confirmed it (the service, Stripe.js, a renewal). */
export function registerInvoiceHooks(store: Store): void {
  store.on("intent.succeeded", (pi) => {
    const invoice = pi._invoice ? store.get(pi._invoice, "invoice") : undefined;
    if (invoice && invoice.status === "open") invoicePaid(store, invoice, pi);
  });
  store.on("intent.failed", (pi) => {
    const invoice = pi._invoice ? store.get(pi._invoice, "invoice") : undefined;
    if (invoice && invoice.status === "open") invoiceFailed(store, invoice);
  });
}
