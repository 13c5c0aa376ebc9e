/**
 * Subscriptions: create (items with `price` or `price_data`; `payment_behavior=default_incomplete`
 * leaves the first invoice open for Stripe.js to pay through `latest_invoice.confirmation_secret`;
 * otherwise the default payment method is charged at once), retrieve, update (items, default
 * payment method, `pause_collection`, `cancel_at_period_end`, metadata), cancel (DELETE), list.
 * Renewals happen when the test clock moves (clock.ts).
 */
import {
  addInterval,
  chargeInvoice,
  createInvoice,
  defaultPaymentMethod,
  endSubscription,
  itemsOf,
  periodEnd,
  periodStart,
  readItemPrice,
  subscriptionChanged,
  subscriptionItem,
} from "../billing.js";
import { cardOf } from "../cards.js";
import { invalidRequest, StripeApiError } from "../errors.js";
import { newId } from "../ids.js";
import type { Params } from "../params.js";
import type { Route } from "../server.js";
import { listOf, type Obj, type Store } from "../store.js";
import { page } from "./customers.js";

export interface ItemSpec {
  id?: string;
  price?: Obj;
  quantity?: number;
  metadata?: Obj;
  deleted?: boolean;
}

export function readItems(store: Store, p: Params, key: string, forUpdate: boolean): ItemSpec[] | undefined {
  const items = p.objects(key);
  if (!items) return undefined;
  if (items.length > 20) throw invalidRequest("A subscription may have at most 20 items.", p.name(key));
  return items.map((item) => {
    const id = forUpdate ? item.string("id", { max: 255 }) : undefined;
    const deleted = forUpdate ? item.bool("deleted") : undefined;
    const hasPrice = item.has("price") || item.has("price_data");
    const price = hasPrice || !forUpdate || id === undefined ? readItemPrice(store, item) : undefined;
    const quantity = item.int("quantity", { min: 1, max: 1_000_000 });
    const metadata = item.metadata("metadata");
    item.value("tax_rates");
    item.value("discounts");
    if (forUpdate) item.value("clear_usage");
    item.done();
    return { id, price, quantity, metadata, deleted };
  });
}

/** All items bill in one currency and on one interval, as Stripe requires. */
export function checkCompatible(prices: Obj[], param: string): void {
  const first = prices[0]!;
  for (const price of prices)
    if (
      price.currency !== first.currency ||
      price.recurring.interval !== first.recurring.interval ||
      price.recurring.interval_count !== first.recurring.interval_count
    )
      throw invalidRequest("Currency and interval fields must match across all plans on this subscription.", param);
}

/** A payment method the customer has, for `default_payment_method`. */
export function readDefaultPaymentMethod(
  store: Store,
  p: Params,
  customer: string,
  key = "default_payment_method",
): string | null | undefined {
  const id = p.nullableString(key, 255);
  if (!id) return id;
  const pm = store.get(id, "payment_method");
  if (!pm || pm.customer !== customer)
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
      p.name(key),
      "resource_missing",
    );
  return id;
}

/** A new subscription, stored and announced, with its first invoice (open, not yet charged). */
export function startSubscription(
  store: Store,
  fields: {
    customer: string;
    items: { price: Obj; quantity: number; metadata?: Obj }[];
    metadata?: Obj;
    description?: string | null;
    default_payment_method?: string | null;
    save_default_payment_method?: "on_subscription" | "off";
    cancel_at_period_end?: boolean;
    schedule?: string | null;
  },
): { sub: Obj; invoice: Obj } {
  const now = store.now();
  const first = fields.items[0]!.price;
  const end = addInterval(now, first.recurring.interval, first.recurring.interval_count);
  const id = newId("sub");
  const sub = store.put({
    id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: now,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: { proration_discounts: "included" }, type: "flexible", updated_at: now },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: fields.cancel_at_period_end ?? false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: "charge_automatically",
    created: now,
    currency: first.currency,
    customer: fields.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: fields.default_payment_method ?? null,
    default_source: null,
    default_tax_rates: [],
    description: fields.description ?? null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: "self" } },
    items: {
      object: "list",
      data: fields.items.map((item) =>
        subscriptionItem(store, id, item.price, item.quantity, { start: now, end }, item.metadata ?? {}),
      ),
      has_more: false,
      total_count: fields.items.length,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata ?? {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: fields.save_default_payment_method ?? "off",
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: fields.schedule ?? null,
    start_date: now,
    status: "incomplete",
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } },
    trial_start: null,
  });
  store.emit("customer.subscription.created", sub);
  const invoice = createInvoice(store, sub, "subscription_create", { start: now, end });
  sub.latest_invoice = invoice.id;
  if (invoice.status === "paid") {
    sub.status = "active";
    subscriptionChanged(store, sub, { status: "incomplete" });
  }
  return { sub, invoice };
}

const SAVE = ["on_subscription", "off"] as const;

export const subscriptionRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/subscriptions",
    handler({ store, params: p }) {
      const customer = p.string("customer", { required: true, max: 255 })!;
      store.require(customer, "customer", "customer");
      const items = readItems(store, p, "items", false);
      if (!items || items.length === 0)
        throw invalidRequest("Missing required param: items.", "items", "parameter_missing");
      checkCompatible(
        items.map((i) => i.price!),
        "items",
      );
      const behavior =
        p.oneOf("payment_behavior", [
          "allow_incomplete",
          "default_incomplete",
          "error_if_incomplete",
          "pending_if_incomplete",
        ] as const) ?? "allow_incomplete";
      const settings = p.object("payment_settings");
      let save: (typeof SAVE)[number] | undefined;
      if (settings) {
        save = settings.oneOf("save_default_payment_method", SAVE);
        const types = settings.strings("payment_method_types");
        if (types?.some((t) => t !== "card"))
          throw invalidRequest(
            "This stand-in supports the card payment method type only.",
            "payment_settings[payment_method_types]",
          );
        settings.value("payment_method_options");
        settings.done();
      }
      const defaultPm = readDefaultPaymentMethod(store, p, customer);
      const metadata = p.metadata("metadata") ?? {};
      const description = p.nullableString("description", 500);
      const cancelAtPeriodEnd = p.bool("cancel_at_period_end");
      p.oneOf("collection_method", ["charge_automatically"] as const);
      p.oneOf("proration_behavior", ["create_prorations", "none", "always_invoice"] as const);
      p.bool("off_session");
      p.done();
      const pending = { customer, default_payment_method: defaultPm } as Obj;
      const pm = behavior === "default_incomplete" ? undefined : defaultPaymentMethod(store, pending);
      if (behavior === "error_if_incomplete") {
        if (!pm)
          throw invalidRequest(
            "This customer has no attached payment source or default payment method. Please consider adding a default payment method.",
            undefined,
            "resource_missing",
          );
        const decline = cardOf(pm).chargeDecline;
        if (decline)
          throw new StripeApiError(402, "card_error", decline.message, {
            code: decline.code,
            decline_code: decline.decline_code,
          });
      }
      const { sub, invoice } = startSubscription(store, {
        customer,
        items: items.map((i) => ({ price: i.price!, quantity: i.quantity ?? 1, metadata: i.metadata })),
        metadata,
        description,
        default_payment_method: defaultPm,
        save_default_payment_method: save,
        cancel_at_period_end: cancelAtPeriodEnd,
      });
      if (behavior !== "default_incomplete") chargeInvoice(store, invoice, pm);
      return sub;
    },
  },
  {
    method: "GET",
    path: "/v1/subscriptions/:id",
    handler({ store, id, params: p }) {
      p.done();
      return store.require(id, "subscription");
    },
  },
  {
    method: "POST",
    path: "/v1/subscriptions/:id",
    handler({ store, id, params: p }) {
      const sub = store.require(id, "subscription");
      const items = readItems(store, p, "items", true);
      const defaultPm = readDefaultPaymentMethod(store, p, sub.customer);
      const metadata = p.metadata("metadata", sub.metadata);
      const description = p.nullableString("description", 500);
      const cancelAtPeriodEnd = p.bool("cancel_at_period_end");
      const pauseRaw = p.object("pause_collection");
      let pause: Obj | null | undefined = pauseRaw === null ? null : undefined;
      if (pauseRaw) {
        const behavior = pauseRaw.oneOf("behavior", ["keep_as_draft", "mark_uncollectible", "void"] as const, {
          required: true,
        })!;
        const resumesAt = pauseRaw.int("resumes_at", { min: 0 });
        pauseRaw.done();
        pause = { behavior, resumes_at: resumesAt ?? null };
      }
      const cancellation = p.object("cancellation_details");
      let details: Obj | undefined;
      if (cancellation) {
        details = { comment: cancellation.nullableString("comment", 5000), feedback: cancellation.string("feedback") };
        cancellation.done();
      }
      p.oneOf("proration_behavior", ["create_prorations", "none", "always_invoice"] as const);
      p.oneOf("payment_behavior", [
        "allow_incomplete",
        "default_incomplete",
        "error_if_incomplete",
        "pending_if_incomplete",
      ] as const);
      p.bool("off_session");
      p.done();
      if (sub.status === "canceled" || sub.status === "incomplete_expired") {
        if (items || defaultPm !== undefined || cancelAtPeriodEnd !== undefined || pause !== undefined)
          throw invalidRequest(
            `A canceled subscription can only update its cancellation_details and metadata.`,
            undefined,
            "subscription_canceled",
          );
      }
      if (sub.schedule && (items || cancelAtPeriodEnd !== undefined))
        throw invalidRequest(
          `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior or items directly is not allowed. Please update the schedule instead.`,
        );
      const previous: Obj = {};
      if (items) {
        const next = itemsOf(sub).map((item) => ({ ...item }));
        for (const spec of items) {
          if (spec.id !== undefined) {
            const at = next.findIndex((item) => item.id === spec.id);
            if (at === -1) throw invalidRequest(`No such subscription item: '${spec.id}'`, "items", "resource_missing");
            if (spec.deleted) {
              next.splice(at, 1);
              continue;
            }
            const item = next[at]!;
            if (spec.price) {
              item.price = { ...spec.price };
              item.plan = subscriptionItem(store, sub.id, spec.price, 1, { start: 0, end: 0 }).plan;
            }
            if (spec.quantity !== undefined) item.quantity = spec.quantity;
            if (spec.metadata !== undefined) item.metadata = spec.metadata;
          } else {
            next.push(
              subscriptionItem(
                store,
                sub.id,
                spec.price!,
                spec.quantity ?? 1,
                { start: periodStart(sub), end: periodEnd(sub) },
                spec.metadata ?? {},
              ),
            );
          }
        }
        if (next.length === 0) throw invalidRequest("A subscription must have at least one item.", "items");
        checkCompatible(
          next.map((item) => item.price),
          "items",
        );
        previous.items = { ...sub.items, data: itemsOf(sub).map((item) => ({ ...item })) };
        sub.items = { ...sub.items, data: next, total_count: next.length };
      }
      const set = (key: string, value: unknown) => {
        if (value === undefined || JSON.stringify(sub[key]) === JSON.stringify(value)) return;
        previous[key] = sub[key];
        sub[key] = value;
      };
      set("default_payment_method", defaultPm);
      set("metadata", metadata);
      set("description", description);
      set("cancel_at_period_end", cancelAtPeriodEnd);
      if (cancelAtPeriodEnd !== undefined) {
        set("cancel_at", cancelAtPeriodEnd ? periodEnd(sub) : null);
        set("canceled_at", cancelAtPeriodEnd ? store.now() : null);
      }
      set("pause_collection", pause);
      if (details) set("cancellation_details", { ...sub.cancellation_details, ...details });
      subscriptionChanged(store, sub, previous);
      return sub;
    },
  },
  {
    method: "DELETE",
    path: "/v1/subscriptions/:id",
    handler({ store, id, params: p }) {
      const sub = store.require(id, "subscription");
      p.bool("invoice_now");
      p.bool("prorate");
      const cancellation = p.object("cancellation_details");
      const details: Obj = {};
      if (cancellation) {
        details.comment = cancellation.nullableString("comment", 5000);
        details.feedback = cancellation.string("feedback");
        cancellation.done();
      }
      p.done();
      if (sub.status === "canceled" || sub.status === "incomplete_expired")
        throw new StripeApiError(
          404,
          "invalid_request_error",
          `No such subscription: '${sub.id}'. This subscription has already been canceled.`,
          { param: "id", code: "resource_missing" },
        );
      endSubscription(store, sub, "cancellation_requested", details);
      const schedule = sub.schedule ? store.get(sub.schedule, "subscription_schedule") : undefined;
      if (schedule && (schedule.status === "active" || schedule.status === "not_started")) {
        schedule.status = "canceled";
        schedule.canceled_at = store.now();
        schedule.current_phase = null;
        store.emit("subscription_schedule.canceled", schedule);
      }
      return sub;
    },
  },
  {
    method: "GET",
    path: "/v1/subscriptions",
    handler({ store, params: p }) {
      const customer = p.string("customer");
      const status = p.string("status");
      const price = p.string("price");
      const cursor = page(p);
      p.done();
      const all = store.list(
        "subscription",
        (s) =>
          (customer === undefined || s.customer === customer) &&
          (status === undefined
            ? s.status !== "canceled" && s.status !== "incomplete_expired"
            : status === "all" || s.status === status) &&
          (price === undefined || itemsOf(s).some((item) => item.price.id === price)),
      );
      return listOf("/v1/subscriptions", all, cursor);
    },
  },
];
