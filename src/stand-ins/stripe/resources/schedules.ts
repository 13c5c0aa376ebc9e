/**
 * SubscriptionSchedules: phases of a subscription over time, so N monthly instalments with a
 * different last amount end by themselves (`end_behavior=cancel`). Each phase has items (`price` or
 * `price_data`) and a length: `duration[interval|interval_count]`, or `end_date`, or (only for API
 * versions before 2025-08-27, where Stripe still took it) `iterations`. Starting `now` creates the
 * subscription and charges its first invoice to the default payment method; a later `start_date`
 * waits for the test clock. Create (also `from_subscription`), retrieve, update phases, cancel,
 * release, list. Phase changes and the end happen when the clock moves (clock.ts).
 */
import {
  addInterval,
  chargeInvoice,
  defaultPaymentMethod,
  endSubscription,
  type Interval,
  itemsOf,
  periodEnd,
  readItemPrice,
  subscriptionChanged,
  subscriptionItem,
} from "../billing.js";
import { invalidRequest, unexpectedState, unknownParam } from "../errors.js";
import { newId } from "../ids.js";
import type { Params } from "../params.js";
import type { Route } from "../server.js";
import { listOf, type Obj, type Store } from "../store.js";
import { page } from "./customers.js";
import { checkCompatible, readDefaultPaymentMethod, startSubscription } from "./subscriptions.js";

/** Stripe removed `iterations` in 2025-08-27.preview / 2025-09-30.clover. */
const ITERATIONS_REMOVED = "2025-08-27";

interface PhaseSpec {
  items: { price: Obj; quantity: number; metadata?: Obj }[];
  duration?: { interval: Interval; interval_count: number };
  end_date?: number;
  iterations?: number;
  start_date?: number;
  metadata?: Obj;
  default_payment_method?: string | null;
  description?: string | null;
}

function readPhases(store: Store, p: Params, version: string, customer: string): PhaseSpec[] | undefined {
  const phases = p.objects("phases");
  if (!phases) return undefined;
  if (phases.length === 0 || phases.length > 10)
    throw invalidRequest("A schedule has between 1 and 10 phases.", "phases");
  return phases.map((phase, index) => {
    const items = phase.objects("items");
    if (!items || items.length === 0)
      throw invalidRequest(
        `Missing required param: phases[${index}][items].`,
        `phases[${index}][items]`,
        "parameter_missing",
      );
    const specs = items.map((item) => {
      const price = readItemPrice(store, item);
      const quantity = item.int("quantity", { min: 1, max: 1_000_000 }) ?? 1;
      const metadata = item.metadata("metadata");
      item.value("tax_rates");
      item.value("discounts");
      item.done();
      return { price, quantity, metadata };
    });
    checkCompatible(
      specs.map((s) => s.price),
      `phases[${index}][items]`,
    );
    let duration: PhaseSpec["duration"];
    const d = phase.object("duration");
    if (d) {
      const interval = d.oneOf("interval", ["day", "week", "month", "year"] as const, { required: true })!;
      const interval_count = d.int("interval_count", { min: 1, max: 365 }) ?? 1;
      d.done();
      duration = { interval, interval_count };
    }
    let iterations: number | undefined;
    if (phase.has("iterations")) {
      if (version >= ITERATIONS_REMOVED) {
        const error = unknownParam(phase.name("iterations"));
        throw invalidRequest(
          `${error.message}. In API version ${version} a phase's length is \`duration\` (iterations was removed in 2025-08-27).`,
          phase.name("iterations"),
          "parameter_unknown",
        );
      }
      iterations = phase.int("iterations", { min: 1, max: 1000 });
    }
    const endRaw = phase.string("end_date");
    const end_date =
      endRaw === undefined ? undefined : endRaw === "now" ? store.now() : phase.int("end_date", { min: 0 });
    const startRaw = phase.string("start_date");
    const start_date =
      startRaw === undefined ? undefined : startRaw === "now" ? store.now() : phase.int("start_date", { min: 0 });
    const given = [duration, end_date, iterations].filter((x) => x !== undefined).length;
    if (given > 1)
      throw invalidRequest(
        `You may only specify one of these parameters: phases[${index}][duration], phases[${index}][end_date]${version < ITERATIONS_REMOVED ? `, phases[${index}][iterations]` : ""}.`,
        `phases[${index}]`,
        "parameters_exclusive",
      );
    const metadata = phase.metadata("metadata");
    const default_payment_method = readDefaultPaymentMethod(store, phase, customer);
    const description = phase.nullableString("description", 500);
    phase.oneOf("proration_behavior", ["create_prorations", "none", "always_invoice"] as const);
    phase.oneOf("collection_method", ["charge_automatically"] as const);
    phase.string("currency");
    phase.value("billing_cycle_anchor");
    phase.done();
    return { items: specs, duration, end_date, iterations, start_date, metadata, default_payment_method, description };
  });
}

/** Phases in Stripe's shape, each with its start and end, from `start`. */
function layOut(phases: PhaseSpec[], start: number): Obj[] {
  let at = start;
  return phases.map((phase, index) => {
    const startDate = index === 0 && phase.start_date !== undefined ? phase.start_date : at;
    const price = phase.items[0]!.price;
    let end: number;
    if (phase.end_date !== undefined) end = phase.end_date;
    else if (phase.duration) end = addInterval(startDate, phase.duration.interval, phase.duration.interval_count);
    else
      end = addInterval(startDate, price.recurring.interval, price.recurring.interval_count * (phase.iterations ?? 1));
    if (end <= startDate)
      throw invalidRequest(`The end of phases[${index}] must be after its start.`, `phases[${index}][end_date]`);
    at = end;
    return {
      add_invoice_items: [],
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: null,
      billing_thresholds: null,
      collection_method: null,
      currency: price.currency,
      default_payment_method: phase.default_payment_method ?? null,
      default_tax_rates: [],
      description: phase.description ?? null,
      discounts: [],
      end_date: end,
      invoice_settings: null,
      items: phase.items.map((item) => ({
        billing_thresholds: null,
        discounts: [],
        metadata: item.metadata ?? {},
        plan: item.price.id,
        price: item.price.id,
        quantity: item.quantity,
        tax_rates: [],
      })),
      metadata: phase.metadata ?? {},
      on_behalf_of: null,
      proration_behavior: "create_prorations",
      start_date: startDate,
      transfer_data: null,
      trial_end: null,
    };
  });
}

function readDefaultSettings(store: Store, p: Params, customer: string): Obj {
  const settings = p.object("default_settings");
  const out: Obj = {
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: "automatic",
    billing_thresholds: null,
    collection_method: "charge_automatically",
    default_payment_method: null,
    description: null,
    invoice_settings: { account_tax_ids: null, days_until_due: null, issuer: { type: "self" } },
    on_behalf_of: null,
    transfer_data: null,
  };
  if (settings) {
    out.default_payment_method = readDefaultPaymentMethod(store, settings, customer) ?? null;
    out.description = settings.nullableString("description", 500) ?? null;
    settings.oneOf("collection_method", ["charge_automatically"] as const);
    settings.value("billing_cycle_anchor");
    settings.value("invoice_settings");
    settings.done();
  }
  return out;
}

const currentPhaseIndex = (schedule: Obj, now: number) =>
  schedule.phases.findIndex((phase: Obj) => phase.start_date <= now && now < phase.end_date);

/** The items a phase puts on the subscription. */
function phaseItems(store: Store, phase: Obj) {
  return phase.items.map((item: Obj) => ({
    price: store.get(item.price, "price")!,
    quantity: item.quantity,
    metadata: item.metadata,
  }));
}

/** Starts a not-started schedule now: its subscription, first invoice and first charge. */
export function startSchedule(store: Store, schedule: Obj): void {
  const phase = schedule.phases[0];
  const pmId = phase.default_payment_method ?? schedule.default_settings.default_payment_method;
  const { sub, invoice } = startSubscription(store, {
    customer: schedule.customer,
    items: phaseItems(store, phase),
    metadata: phase.metadata,
    description: phase.description ?? schedule.default_settings.description,
    default_payment_method: pmId,
    schedule: schedule.id,
  });
  schedule.subscription = sub.id;
  schedule.status = "active";
  schedule.current_phase = { end_date: phase.end_date, start_date: phase.start_date };
  chargeInvoice(store, invoice, defaultPaymentMethod(store, sub));
}

/** At `phase.end_date`: the next phase's items, or the end (cancel or release). Before the renewal due then. */
export function endPhase(store: Store, schedule: Obj): void {
  const sub = schedule.subscription ? store.get(schedule.subscription, "subscription") : undefined;
  const now = store.now();
  const next = schedule.phases.find((phase: Obj) => phase.start_date === now);
  if (next && sub) {
    const previous = { items: { ...sub.items, data: itemsOf(sub).map((item) => ({ ...item })) } };
    const end = periodEnd(sub);
    sub.items = {
      ...sub.items,
      data: phaseItems(store, next).map((item: Obj) =>
        subscriptionItem(
          store,
          sub.id,
          item.price,
          item.quantity,
          { start: now, end: Math.max(end, now) },
          item.metadata ?? {},
        ),
      ),
    };
    // The new items start when this period ends: keep the period the old items had.
    for (const item of itemsOf(sub)) {
      item.current_period_start = previous.items.data[0]!.current_period_start;
      item.current_period_end = previous.items.data[0]!.current_period_end;
    }
    if (next.default_payment_method) sub.default_payment_method = next.default_payment_method;
    if (next.metadata && Object.keys(next.metadata).length > 0) sub.metadata = next.metadata;
    const before = { current_phase: schedule.current_phase };
    schedule.current_phase = { end_date: next.end_date, start_date: next.start_date };
    subscriptionChanged(store, sub, previous);
    store.emit("subscription_schedule.updated", schedule, before);
    return;
  }
  schedule.current_phase = null;
  if (schedule.end_behavior === "cancel") {
    schedule.status = "completed";
    schedule.completed_at = now;
    if (sub && sub.status !== "canceled" && sub.status !== "incomplete_expired")
      endSubscription(store, sub, "cancellation_requested");
    store.emit("subscription_schedule.completed", schedule);
  } else {
    schedule.status = "released";
    schedule.released_at = now;
    schedule.released_subscription = sub?.id ?? null;
    schedule.subscription = null;
    if (sub) {
      sub.schedule = null;
      subscriptionChanged(store, sub, { schedule: schedule.id });
    }
    store.emit("subscription_schedule.released", schedule);
  }
}

/** When the schedule next needs the clock: its start, or the end of its current phase. */
export function scheduleDue(schedule: Obj): number | null {
  if (schedule.status === "not_started") return schedule.phases[0].start_date;
  if (schedule.status === "active") {
    const now = schedule.current_phase;
    return now ? now.end_date : null;
  }
  return null;
}

function release(store: Store, schedule: Obj): void {
  const sub = schedule.subscription ? store.get(schedule.subscription, "subscription") : undefined;
  schedule.status = "released";
  schedule.released_at = store.now();
  schedule.released_subscription = sub?.id ?? null;
  schedule.subscription = null;
  schedule.current_phase = null;
  if (sub) {
    sub.schedule = null;
    subscriptionChanged(store, sub, { schedule: schedule.id });
  }
  store.emit("subscription_schedule.released", schedule);
}

export const scheduleRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/subscription_schedules",
    handler({ store, params: p, version }) {
      const fromSub = p.string("from_subscription", { max: 255 });
      if (fromSub !== undefined) {
        for (const key of ["customer", "phases", "start_date", "end_behavior", "default_settings"])
          if (p.has(key))
            throw invalidRequest(`You cannot set '${key}' if 'from_subscription' is set.`, key, "parameters_exclusive");
        const metadata = p.metadata("metadata") ?? {};
        p.done();
        const sub = store.require(fromSub, "subscription", "from_subscription");
        if (sub.schedule)
          throw invalidRequest(
            `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
            "from_subscription",
          );
        if (sub.status === "canceled" || sub.status === "incomplete_expired")
          throw invalidRequest("A canceled subscription cannot be managed by a schedule.", "from_subscription");
        const phases = layOut(
          [
            {
              items: itemsOf(sub).map((item) => ({
                price: item.price,
                quantity: item.quantity,
                metadata: item.metadata,
              })),
              end_date: periodEnd(sub),
              start_date: itemsOf(sub)[0]!.current_period_start,
            },
          ],
          itemsOf(sub)[0]!.current_period_start,
        );
        const schedule = store.put(
          newSchedule(store, sub.customer, phases, "release", metadata, readDefaultSettingsFrom(sub)),
        );
        schedule.status = "active";
        schedule.subscription = sub.id;
        schedule.current_phase = { end_date: phases[0]!.end_date, start_date: phases[0]!.start_date };
        sub.schedule = schedule.id;
        store.emit("subscription_schedule.created", schedule);
        subscriptionChanged(store, sub, { schedule: null });
        return schedule;
      }
      const customer = p.string("customer", { required: true, max: 255 })!;
      store.require(customer, "customer", "customer");
      const startRaw = p.string("start_date");
      const start = startRaw === undefined || startRaw === "now" ? store.now() : p.int("start_date", { min: 0 })!;
      const endBehavior = p.oneOf("end_behavior", ["cancel", "release"] as const) ?? "release";
      const specs = readPhases(store, p, version, customer);
      if (!specs) throw invalidRequest("Missing required param: phases.", "phases", "parameter_missing");
      const defaults = readDefaultSettings(store, p, customer);
      const metadata = p.metadata("metadata") ?? {};
      p.done();
      if (start < store.now() - 60)
        throw invalidRequest(
          "This stand-in does not backdate schedules: start_date must be now or later.",
          "start_date",
        );
      const schedule = store.put(newSchedule(store, customer, layOut(specs, start), endBehavior, metadata, defaults));
      store.emit("subscription_schedule.created", schedule);
      if (start <= store.now()) startSchedule(store, schedule);
      return schedule;
    },
  },
  {
    method: "GET",
    path: "/v1/subscription_schedules/:id",
    handler({ store, id, params: p }) {
      p.done();
      return store.require(id, "subscription_schedule", "schedule");
    },
  },
  {
    method: "POST",
    path: "/v1/subscription_schedules/:id",
    handler({ store, id, params: p, version }) {
      const schedule = store.require(id, "subscription_schedule", "schedule");
      const specs = readPhases(store, p, version, schedule.customer);
      const endBehavior = p.oneOf("end_behavior", ["cancel", "release"] as const);
      const metadata = p.metadata("metadata", schedule.metadata ?? {});
      p.oneOf("proration_behavior", ["create_prorations", "none", "always_invoice"] as const);
      const defaults = p.has("default_settings") ? readDefaultSettings(store, p, schedule.customer) : undefined;
      p.done();
      if (schedule.status !== "active" && schedule.status !== "not_started")
        throw unexpectedState(
          `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`,
          "subscription_schedule_unexpected_state",
        );
      const previous: Obj = {};
      if (specs) {
        const start = specs[0]!.start_date ?? schedule.phases[0].start_date;
        const phases = layOut(specs, start);
        if (schedule.status === "active" && currentPhaseIndex({ phases }, store.now()) === -1)
          throw invalidRequest(
            "The phases must include the current phase (phases[0][start_date] no later than now).",
            "phases",
          );
        previous.phases = schedule.phases;
        schedule.phases = phases;
        const index = currentPhaseIndex(schedule, store.now());
        if (schedule.status === "active" && index >= 0) {
          const phase = phases[index]!;
          schedule.current_phase = { end_date: phase.end_date, start_date: phase.start_date };
          const sub = store.get(schedule.subscription, "subscription");
          if (sub) {
            const wanted = phase.items.map((item: Obj) => `${item.price}×${item.quantity}`).join(",");
            const have = itemsOf(sub)
              .map((item) => `${item.price.id}×${item.quantity}`)
              .join(",");
            if (wanted !== have) {
              const before = { items: { ...sub.items, data: itemsOf(sub).map((item) => ({ ...item })) } };
              const period = { start: itemsOf(sub)[0]!.current_period_start, end: periodEnd(sub) };
              sub.items = {
                ...sub.items,
                data: phaseItems(store, phase).map((item: Obj) =>
                  subscriptionItem(store, sub.id, item.price, item.quantity, period, item.metadata ?? {}),
                ),
              };
              subscriptionChanged(store, sub, before);
            }
          }
        }
      }
      if (endBehavior !== undefined && endBehavior !== schedule.end_behavior) {
        previous.end_behavior = schedule.end_behavior;
        schedule.end_behavior = endBehavior;
      }
      if (metadata !== undefined) {
        previous.metadata = schedule.metadata;
        schedule.metadata = metadata;
      }
      if (defaults) {
        previous.default_settings = schedule.default_settings;
        schedule.default_settings = defaults;
      }
      store.emit("subscription_schedule.updated", schedule, previous);
      return schedule;
    },
  },
  {
    method: "POST",
    path: "/v1/subscription_schedules/:id/cancel",
    handler({ store, id, params: p }) {
      const schedule = store.require(id, "subscription_schedule", "schedule");
      p.bool("invoice_now");
      p.bool("prorate");
      p.done();
      if (schedule.status !== "active" && schedule.status !== "not_started")
        throw unexpectedState(
          `You cannot cancel a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`,
          "subscription_schedule_unexpected_state",
        );
      const sub = schedule.subscription ? store.get(schedule.subscription, "subscription") : undefined;
      schedule.status = "canceled";
      schedule.canceled_at = store.now();
      schedule.current_phase = null;
      if (sub && sub.status !== "canceled" && sub.status !== "incomplete_expired")
        endSubscription(store, sub, "cancellation_requested");
      store.emit("subscription_schedule.canceled", schedule);
      return schedule;
    },
  },
  {
    method: "POST",
    path: "/v1/subscription_schedules/:id/release",
    handler({ store, id, params: p }) {
      const schedule = store.require(id, "subscription_schedule", "schedule");
      p.bool("preserve_cancel_date");
      p.done();
      if (schedule.status !== "active" && schedule.status !== "not_started")
        throw unexpectedState(
          `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`,
          "subscription_schedule_unexpected_state",
        );
      release(store, schedule);
      return schedule;
    },
  },
  {
    method: "GET",
    path: "/v1/subscription_schedules",
    handler({ store, params: p }) {
      const customer = p.string("customer");
      const cursor = page(p);
      p.value("scheduled");
      p.done();
      return listOf(
        "/v1/subscription_schedules",
        store.list("subscription_schedule", (s) => customer === undefined || s.customer === customer),
        cursor,
      );
    },
  },
];

function readDefaultSettingsFrom(sub: Obj): Obj {
  return {
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: "automatic",
    billing_thresholds: null,
    collection_method: "charge_automatically",
    default_payment_method: sub.default_payment_method,
    description: sub.description,
    invoice_settings: { account_tax_ids: null, days_until_due: null, issuer: { type: "self" } },
    on_behalf_of: null,
    transfer_data: null,
  };
}

function newSchedule(
  store: Store,
  customer: string,
  phases: Obj[],
  endBehavior: string,
  metadata: Obj,
  defaults: Obj,
): Obj {
  return {
    id: newId("sub_sched"),
    object: "subscription_schedule",
    application: null,
    billing_mode: { flexible: { proration_discounts: "included" }, type: "flexible", updated_at: store.now() },
    canceled_at: null,
    completed_at: null,
    created: store.now(),
    current_phase: null,
    customer,
    customer_account: null,
    default_settings: defaults,
    end_behavior: endBehavior,
    livemode: false,
    metadata,
    pause_schedules: [],
    phases,
    released_at: null,
    released_subscription: null,
    status: "not_started",
    subscription: null,
    test_clock: null,
  };
}
