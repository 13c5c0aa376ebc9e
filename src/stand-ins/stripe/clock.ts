/**
 * The test clock: `advanceTo(d)` walks time forward to `d`, handling what falls due in time order,
 * each dated when it fell due: a schedule's start or phase end (first, so a renewal at the same
 * instant bills the new phase, or none after the last), an incomplete subscription that expires
 * 23 hours after creation, a paused subscription that resumes, and each subscription period that
 * ends (renewed: a new invoice charged to the default payment method, or ended when set to cancel).
 */
import {
  addInterval,
  chargeInvoice,
  createInvoice,
  defaultPaymentMethod,
  endSubscription,
  itemsOf,
  periodEnd,
  subscriptionChanged,
  voidInvoice,
} from "./billing.js";
import { endPhase, scheduleDue, startSchedule } from "./resources/schedules.js";
import type { Obj, Store } from "./store.js";

const INCOMPLETE_FOR = 23 * 3600;
const BILLING = ["active", "past_due", "trialing"];

interface Due {
  time: number;
  rank: number;
  run: () => void;
}

function renew(store: Store, sub: Obj): void {
  const start = periodEnd(sub);
  if (sub.cancel_at_period_end || (sub.cancel_at !== null && sub.cancel_at <= start)) {
    endSubscription(store, sub, "cancellation_requested");
    return;
  }
  const price = itemsOf(sub)[0]!.price;
  sub._cycle = (sub._cycle ?? 1) + 1;
  const end = addInterval(
    sub.billing_cycle_anchor,
    price.recurring.interval,
    price.recurring.interval_count * sub._cycle,
  );
  const previous: Obj = {
    items: { ...sub.items, data: itemsOf(sub).map((item) => ({ ...item })) },
    latest_invoice: sub.latest_invoice,
  };
  for (const item of itemsOf(sub)) {
    item.current_period_start = start;
    item.current_period_end = end;
  }
  const paused = sub.pause_collection?.behavior;
  const invoice = createInvoice(store, sub, "subscription_cycle", { start, end }, { paused });
  sub.latest_invoice = invoice.id;
  subscriptionChanged(store, sub, previous);
  if (!paused) chargeInvoice(store, invoice, defaultPaymentMethod(store, sub));
}

function expire(store: Store, sub: Obj): void {
  sub.status = "incomplete_expired";
  sub.ended_at = store.now();
  for (const invoice of store.list("invoice", (i) => i.parent?.subscription_details?.subscription === sub.id))
    voidInvoice(store, invoice);
  store.emit("customer.subscription.updated", sub, { status: "incomplete" });
}

function nextDue(store: Store, until: number): Due | null {
  const due: Due[] = [];
  for (const schedule of store.list("subscription_schedule")) {
    const time = scheduleDue(schedule);
    if (time === null || time > until) continue;
    due.push({
      time,
      rank: 0,
      run: () => (schedule.status === "not_started" ? startSchedule(store, schedule) : endPhase(store, schedule)),
    });
  }
  for (const sub of store.list("subscription")) {
    if (sub.status === "incomplete" && sub.created + INCOMPLETE_FOR <= until)
      due.push({ time: sub.created + INCOMPLETE_FOR, rank: 1, run: () => expire(store, sub) });
    if (!BILLING.includes(sub.status)) continue;
    const resumes = sub.pause_collection?.resumes_at;
    if (resumes && resumes <= until)
      due.push({
        time: resumes,
        rank: 1,
        run: () => {
          const previous = { pause_collection: sub.pause_collection };
          sub.pause_collection = null;
          subscriptionChanged(store, sub, previous);
        },
      });
    const end = periodEnd(sub);
    if (end <= until) due.push({ time: end, rank: 2, run: () => renew(store, sub) });
  }
  due.sort((a, b) => a.time - b.time || a.rank - b.rank);
  return due[0] ?? null;
}

/** Handles everything due up to the store's now, oldest first. */
export function advance(store: Store): void {
  const until = store.now();
  // Bounded: a clock moved years ahead over many subscriptions still stops.
  for (let steps = 0; steps < 100_000; steps++) {
    const due = nextDue(store, until);
    if (!due) return;
    store.at(due.time, due.run);
  }
  throw new Error("advanceTo: too much fell due at once (over 100,000 steps)");
}
