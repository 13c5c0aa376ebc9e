/**
 * Catalog products, billing plans and subscriptions (monthly gifts and instalments). A subscription
 * waits for the payer's approval (`approve`: PayPal's window), then is ACTIVE and its first cycle is
 * charged at once; `chargeCycle` plays PayPal's billing of the next cycle. A plan's billing cycles
 * run in sequence order (each `total_cycles` times, 0 = no end), so 11 instalments of one price and
 * a last of another are two cycles; after the last it is EXPIRED. Each charge raises PAYMENT.SALE.COMPLETED; each change
 * of state BILLING.SUBSCRIPTION.CREATED, ACTIVATED, SUSPENDED, CANCELLED or EXPIRED.
 */
import { centsOf, money, paypalFeeCents } from "./amounts.js";
import { type StandInContext, link, paypalId } from "./context.js";
import { invalid, notFound, unprocessable } from "./errors.js";

interface Product {
  id: string;
  name: string;
  description?: string;
  type: string;
  category?: string;
  create_time: string;
  update_time: string;
}

interface Cycle {
  frequency: { interval_unit: string; interval_count: number };
  tenure_type: "REGULAR" | "TRIAL";
  sequence: number;
  total_cycles: number;
  cents: number;
  currency: string;
}

interface Plan {
  id: string;
  product_id: string;
  name: string;
  description?: string;
  status: "CREATED" | "ACTIVE" | "INACTIVE";
  cycles: Cycle[];
  payment_preferences: Record<string, unknown>;
  create_time: string;
  update_time: string;
}

type SubscriptionStatus = "APPROVAL_PENDING" | "APPROVED" | "ACTIVE" | "SUSPENDED" | "CANCELLED" | "EXPIRED";

interface Subscription {
  id: string;
  plan: Plan;
  status: SubscriptionStatus;
  status_update_time: string;
  start_time: string;
  custom_id?: string;
  subscriber?: Record<string, unknown>;
  returnUrl?: string;
  /** Cycles completed, per billing cycle of the plan in sequence order. */
  completed: number[];
  /** A revise's prices (sequence → cents), in force once the payer approved it. */
  overrides: Map<number, number>;
  /** A revise waiting for the payer's consent in PayPal's window (its `ba_token`). */
  revision?: { token: string; plan: Plan; overrides: Map<number, number>; returnUrl?: string };
  lastPayment?: { cents: number; time: string };
  create_time: string;
  update_time: string;
}

const UNITS = ["DAY", "WEEK", "MONTH", "YEAR"];
const text = (v: unknown, field: string, max: number, required: boolean): string | undefined => {
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string" || v.length < 1 || v.length > max)
    throw invalid(
      field,
      v === undefined ? "MISSING_REQUIRED_PARAMETER" : "INVALID_STRING_LENGTH",
      v === undefined
        ? "A required field / parameter is missing."
        : "The value of a field is either too short or too long.",
    );
  return v;
};

export class Subscriptions {
  private readonly products = new Map<string, Product>();
  private readonly plans = new Map<string, Plan>();
  private readonly subscriptions = new Map<string, Subscription>();
  /** A revise's approval token → its subscription. */
  private readonly revisions = new Map<string, string>();

  constructor(private readonly ctx: StandInContext) {}

  createProduct(body: Record<string, unknown>): { status: number; body: unknown } {
    const now = this.ctx.now().toISOString();
    const type = body.type ?? "PHYSICAL";
    if (!["PHYSICAL", "DIGITAL", "SERVICE"].includes(String(type)))
      throw invalid("/type", "INVALID_PARAMETER_VALUE", "The value of a field is invalid.", String(type));
    const id = text(body.id, "/id", 50, false) ?? paypalId("PROD-", 17);
    if (this.products.has(id))
      throw unprocessable("DUPLICATE_RESOURCE_IDENTIFIER", "A resource with this id already exists.");
    const product: Product = {
      id,
      name: text(body.name, "/name", 127, true)!,
      type: String(type),
      create_time: now,
      update_time: now,
      ...(body.description === undefined ? {} : { description: text(body.description, "/description", 256, false)! }),
      ...(body.category === undefined ? {} : { category: String(body.category) }),
    };
    this.products.set(id, product);
    return { status: 201, body: this.productView(product) };
  }

  getProduct(id: string): unknown {
    const product = this.products.get(id);
    if (!product) throw notFound(id);
    return this.productView(product);
  }

  createPlan(body: Record<string, unknown>): { status: number; body: unknown } {
    const productId = text(body.product_id, "/product_id", 50, true)!;
    if (!this.products.has(productId))
      throw invalid("/product_id", "INVALID_PARAMETER_VALUE", "The specified product ID does not exist.", productId);
    const rawCycles = body.billing_cycles;
    if (!Array.isArray(rawCycles) || rawCycles.length === 0 || rawCycles.length > 12)
      throw invalid("/billing_cycles", "MISSING_REQUIRED_PARAMETER", "A plan has from 1 to 12 billing cycles.");
    const unsorted = rawCycles.map((raw, i): Cycle => {
      const c = raw as Record<string, unknown>;
      const f = (c.frequency ?? {}) as Record<string, unknown>;
      if (!UNITS.includes(String(f.interval_unit)))
        throw invalid(
          `/billing_cycles/${i}/frequency/interval_unit`,
          "INVALID_PARAMETER_VALUE",
          "The value of a field is invalid.",
          String(f.interval_unit),
        );
      const count = f.interval_count ?? 1;
      if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 365)
        throw invalid(
          `/billing_cycles/${i}/frequency/interval_count`,
          "INVALID_PARAMETER_VALUE",
          "The value of a field is invalid.",
        );
      const total = c.total_cycles ?? 1;
      if (!Number.isInteger(total) || (total as number) < 0 || (total as number) > 999)
        throw invalid(
          `/billing_cycles/${i}/total_cycles`,
          "INVALID_PARAMETER_VALUE",
          "The value of a field is invalid.",
        );
      if (c.tenure_type !== "REGULAR" && c.tenure_type !== "TRIAL")
        throw invalid(
          `/billing_cycles/${i}/tenure_type`,
          "INVALID_PARAMETER_VALUE",
          "The value of a field is invalid.",
          String(c.tenure_type),
        );
      const price = centsOf(
        (c.pricing_scheme as { fixed_price?: unknown } | undefined)?.fixed_price,
        `/billing_cycles/${i}/pricing_scheme/fixed_price`,
      );
      return {
        frequency: { interval_unit: String(f.interval_unit), interval_count: count as number },
        tenure_type: c.tenure_type,
        sequence: Number(c.sequence ?? i + 1),
        total_cycles: total as number,
        cents: price.cents,
        currency: price.currency,
      };
    });
    const cycles = [...unsorted].sort((a, b) => a.sequence - b.sequence);
    if (new Set(cycles.map((c) => c.sequence)).size !== cycles.length)
      throw invalid("/billing_cycles", "INVALID_PARAMETER_VALUE", "Each billing cycle needs a sequence of its own.");
    if (cycles.slice(0, -1).some((c) => c.total_cycles === 0))
      throw invalid(
        "/billing_cycles",
        "INVALID_PARAMETER_VALUE",
        "Only the last billing cycle may repeat without end (total_cycles 0).",
      );
    const now = this.ctx.now().toISOString();
    const status = (body.status ?? "ACTIVE") as Plan["status"];
    if (!["CREATED", "ACTIVE", "INACTIVE"].includes(status))
      throw invalid("/status", "INVALID_PARAMETER_VALUE", "The value of a field is invalid.", String(status));
    const plan: Plan = {
      id: paypalId("P-", 24),
      product_id: productId,
      name: text(body.name, "/name", 127, true)!,
      status,
      cycles,
      payment_preferences: (body.payment_preferences as Record<string, unknown>) ?? {},
      create_time: now,
      update_time: now,
      ...(body.description === undefined ? {} : { description: String(body.description) }),
    };
    this.plans.set(plan.id, plan);
    return { status: 201, body: this.planView(plan) };
  }

  getPlan(id: string): unknown {
    const plan = this.plans.get(id);
    if (!plan) throw notFound(id);
    return this.planView(plan);
  }

  create(body: Record<string, unknown>): { status: number; body: unknown } {
    const planId = text(body.plan_id, "/plan_id", 50, true)!;
    const plan = this.plans.get(planId);
    if (!plan) throw invalid("/plan_id", "INVALID_PARAMETER_VALUE", "The specified plan ID does not exist.", planId);
    if (plan.status !== "ACTIVE")
      throw unprocessable(
        "PLAN_STATUS_INVALID",
        "Invalid plan status. Subscription can not be created with a plan that is not ACTIVE.",
      );
    const now = this.ctx.now().toISOString();
    const start = typeof body.start_time === "string" ? body.start_time : now;
    if (Number.isNaN(Date.parse(start)))
      throw invalid(
        "/start_time",
        "INVALID_PARAMETER_SYNTAX",
        "The value of a field does not conform to the expected format.",
        start,
      );
    const context = body.application_context as { return_url?: unknown } | undefined;
    const sub: Subscription = {
      id: paypalId("I-", 12),
      plan,
      status: "APPROVAL_PENDING",
      status_update_time: now,
      start_time: start,
      completed: plan.cycles.map(() => 0),
      overrides: new Map(),
      create_time: now,
      update_time: now,
      ...(body.custom_id === undefined ? {} : { custom_id: text(body.custom_id, "/custom_id", 127, false)! }),
      ...(typeof body.subscriber === "object" && body.subscriber
        ? { subscriber: body.subscriber as Record<string, unknown> }
        : {}),
      ...(typeof context?.return_url === "string" ? { returnUrl: context.return_url } : {}),
    };
    this.subscriptions.set(sub.id, sub);
    this.ctx.emit("BILLING.SUBSCRIPTION.CREATED", "subscription", "Subscription created", this.view(sub), "2.0");
    return { status: 201, body: this.view(sub) };
  }

  /** GET …/subscriptions/:id; `fields=plan` adds the plan as billed, overrides applied. */
  get(id: string, fields?: string | null): unknown {
    const sub = this.find(id);
    const view = this.view(sub);
    if (!fields?.split(",").includes("plan")) return view;
    const plan = this.planView(sub.plan) as { billing_cycles: { sequence: number; pricing_scheme: unknown }[] };
    for (const cycle of plan.billing_cycles) {
      const cents = sub.overrides.get(cycle.sequence);
      if (cents !== undefined)
        cycle.pricing_scheme = { version: 2, fixed_price: money(cents, sub.plan.cycles[0]!.currency) };
    }
    return { ...view, plan };
  }

  /**
   * POST …/revise: another plan, or the plan's prices overridden (`plan.billing_cycles[]` by
   * sequence). It needs the payer's consent: the answer's `approve` link opens PayPal's window, and
   * until the payer approves there the subscription is billed as before. Approved, it raises
   * BILLING.SUBSCRIPTION.UPDATED and the next cycle is billed at the new price.
   */
  revise(id: string, body: Record<string, unknown>): { status: number; body: unknown } {
    const sub = this.find(id);
    if (sub.status !== "ACTIVE" && sub.status !== "SUSPENDED")
      throw unprocessable(
        "SUBSCRIPTION_STATUS_INVALID",
        "Invalid subscription status for revise action; subscription status should be active or suspended.",
      );
    const planId = body.plan_id === undefined ? sub.plan.id : text(body.plan_id, "/plan_id", 50, true)!;
    const plan = this.plans.get(planId);
    if (!plan || plan.product_id !== sub.plan.product_id)
      throw invalid("/plan_id", "INVALID_PARAMETER_VALUE", "The specified plan ID does not exist.", planId);
    const overrides = new Map<number, number>();
    const inline = body.plan as { billing_cycles?: unknown } | undefined;
    if (inline !== undefined) {
      if (typeof inline !== "object" || inline === null || !Array.isArray(inline.billing_cycles))
        throw invalid("/plan/billing_cycles", "INVALID_PARAMETER_VALUE", "The value of a field is invalid.");
      inline.billing_cycles.forEach((raw, i) => {
        const c = raw as { sequence?: unknown; pricing_scheme?: { fixed_price?: unknown } };
        const cycle = plan.cycles.find((x) => x.sequence === c.sequence);
        if (!cycle)
          throw invalid(
            `/plan/billing_cycles/${i}/sequence`,
            "INVALID_PARAMETER_VALUE",
            "The billing cycle sequence does not exist in the plan.",
            String(c.sequence),
          );
        const price = centsOf(c.pricing_scheme?.fixed_price, `/plan/billing_cycles/${i}/pricing_scheme/fixed_price`);
        if (price.currency !== cycle.currency)
          throw unprocessable("CURRENCY_MISMATCH", "The currency code is different from the plan's currency code.");
        overrides.set(cycle.sequence, price.cents);
      });
    }
    if (sub.revision) this.revisions.delete(sub.revision.token);
    const token = paypalId("BA-", 17);
    const context = body.application_context as { return_url?: unknown } | undefined;
    sub.revision = {
      token,
      plan,
      overrides,
      ...(typeof context?.return_url === "string" ? { returnUrl: context.return_url } : {}),
    };
    this.revisions.set(token, sub.id);
    const self = `${this.ctx.baseUrl}/v1/billing/subscriptions/${sub.id}`;
    return {
      status: 200,
      body: {
        plan_id: plan.id,
        plan_overridden: overrides.size > 0,
        ...(inline === undefined ? {} : { plan: inline }),
        links: [
          link(`${this.ctx.baseUrl}/webapps/billing/subscriptions/update?ba_token=${token}`, "approve"),
          link(self, "edit", "PATCH"),
          link(self, "self"),
        ],
      },
    };
  }

  /** The payer consents to a revise in PayPal's window (by its token, or the subscription's id). */
  approveRevision(tokenOrId: string): string | undefined {
    const sub = this.find(this.revisions.get(tokenOrId) ?? tokenOrId);
    const revision = sub.revision;
    if (!revision) throw notFound(tokenOrId);
    this.revisions.delete(revision.token);
    sub.revision = undefined;
    sub.plan = revision.plan;
    sub.overrides = revision.overrides;
    sub.update_time = this.ctx.now().toISOString();
    this.ctx.emit("BILLING.SUBSCRIPTION.UPDATED", "subscription", "Subscription updated", this.view(sub), "2.0");
    return revision.returnUrl;
  }

  /** Whether a `ba_token` is a revise's (PayPal's update window) rather than a new subscription's. */
  isRevision(token: string): boolean {
    return this.revisions.has(token);
  }

  /** The payer approves in PayPal's window: the subscription starts and its first cycle is charged. */
  approve(id: string): string | undefined {
    const sub = this.find(id);
    if (sub.status === "APPROVAL_PENDING") {
      this.setStatus(sub, "ACTIVE");
      this.ctx.emit("BILLING.SUBSCRIPTION.ACTIVATED", "subscription", "Subscription activated", this.view(sub), "2.0");
      this.chargeCycle(id);
    }
    return sub.returnUrl
      ? `${sub.returnUrl}${sub.returnUrl.includes("?") ? "&" : "?"}subscription_id=${sub.id}`
      : undefined;
  }

  /** PayPal bills the next cycle: a sale, then EXPIRED after the last one. */
  chargeCycle(id: string): void {
    const sub = this.find(id);
    if (sub.status !== "ACTIVE")
      throw new Error(`Subscription ${id} is ${sub.status}: PayPal bills only an ACTIVE one.`);
    const index = currentCycle(sub);
    if (index === -1) throw new Error(`Subscription ${id} has no cycle left to bill.`);
    const cycle = sub.plan.cycles[index]!;
    const cents = sub.overrides.get(cycle.sequence) ?? cycle.cents;
    const now = this.ctx.now().toISOString();
    sub.completed[index]! += 1;
    sub.lastPayment = { cents, time: now };
    sub.update_time = now;
    const fee = paypalFeeCents(cents);
    const value = money(cents, cycle.currency).value;
    const saleId = paypalId();
    this.ctx.emit(
      "PAYMENT.SALE.COMPLETED",
      "sale",
      `Payment completed for $ ${value} ${cycle.currency}`,
      {
        id: saleId,
        state: "completed",
        amount: { total: value, currency: cycle.currency, details: { subtotal: value } },
        payment_mode: "INSTANT_TRANSFER",
        protection_eligibility: "ELIGIBLE",
        transaction_fee: { value: money(fee, cycle.currency).value, currency: cycle.currency },
        billing_agreement_id: sub.id,
        ...(sub.custom_id ? { custom: sub.custom_id } : {}),
        create_time: now,
        update_time: now,
        links: [
          link(`${this.ctx.baseUrl}/v1/payments/sale/${saleId}`, "self"),
          link(`${this.ctx.baseUrl}/v1/payments/sale/${saleId}/refund`, "refund", "POST"),
        ],
      },
      "1.0",
    );
    if (currentCycle(sub) === -1) {
      this.setStatus(sub, "EXPIRED");
      this.ctx.emit("BILLING.SUBSCRIPTION.EXPIRED", "subscription", "Subscription expired", this.view(sub), "2.0");
    }
  }

  /** POST …/cancel, …/suspend, …/activate: 204, or 422 when the state does not allow it. */
  change(
    id: string,
    action: "cancel" | "suspend" | "activate",
    body: Record<string, unknown>,
  ): { status: number; body: unknown } {
    const sub = this.find(id);
    text(body.reason, "/reason", 128, true);
    const allowed: Record<typeof action, SubscriptionStatus[]> = {
      cancel: ["ACTIVE", "SUSPENDED"],
      suspend: ["ACTIVE"],
      activate: ["SUSPENDED"],
    };
    if (!allowed[action].includes(sub.status))
      throw unprocessable(
        "SUBSCRIPTION_STATUS_INVALID",
        `Invalid subscription status for ${action} action; subscription status should be ${allowed[action].join(" or ").toLowerCase()}.`,
      );
    const next = { cancel: "CANCELLED", suspend: "SUSPENDED", activate: "ACTIVE" } as const;
    this.setStatus(sub, next[action]);
    const event = {
      cancel: "BILLING.SUBSCRIPTION.CANCELLED",
      suspend: "BILLING.SUBSCRIPTION.SUSPENDED",
      activate: "BILLING.SUBSCRIPTION.ACTIVATED",
    } as const;
    this.ctx.emit(event[action], "subscription", `Subscription ${next[action].toLowerCase()}`, this.view(sub), "2.0");
    return { status: 204, body: undefined };
  }

  private setStatus(sub: Subscription, status: SubscriptionStatus): void {
    const now = this.ctx.now().toISOString();
    sub.status = status;
    sub.status_update_time = now;
    sub.update_time = now;
  }

  private find(id: string): Subscription {
    const sub = this.subscriptions.get(id);
    if (!sub) throw notFound(id);
    return sub;
  }

  private productView(p: Product) {
    return {
      ...p,
      links: [
        link(`${this.ctx.baseUrl}/v1/catalogs/products/${p.id}`, "self"),
        link(`${this.ctx.baseUrl}/v1/catalogs/products/${p.id}`, "edit", "PATCH"),
      ],
    };
  }

  private planView(p: Plan) {
    return {
      id: p.id,
      product_id: p.product_id,
      name: p.name,
      status: p.status,
      ...(p.description ? { description: p.description } : {}),
      usage_type: "LICENSED",
      billing_cycles: p.cycles.map((c) => ({
        pricing_scheme: {
          version: 1,
          fixed_price: money(c.cents, c.currency),
          create_time: p.create_time,
          update_time: p.update_time,
        },
        frequency: c.frequency,
        tenure_type: c.tenure_type,
        sequence: c.sequence,
        total_cycles: c.total_cycles,
      })),
      payment_preferences: p.payment_preferences,
      quantity_supported: false,
      create_time: p.create_time,
      update_time: p.update_time,
      links: [
        link(`${this.ctx.baseUrl}/v1/billing/plans/${p.id}`, "self"),
        link(`${this.ctx.baseUrl}/v1/billing/plans/${p.id}`, "edit", "PATCH"),
      ],
    };
  }

  private view(s: Subscription) {
    const cycle = s.plan.cycles[0]!;
    const paidCycle = s.plan.cycles[Math.max(0, lastIndex(s))]!;
    const self = `${this.ctx.baseUrl}/v1/billing/subscriptions/${s.id}`;
    const live = s.status === "ACTIVE" || s.status === "SUSPENDED";
    return {
      id: s.id,
      plan_id: s.plan.id,
      status: s.status,
      status_update_time: s.status_update_time,
      start_time: s.start_time,
      quantity: "1",
      ...(s.custom_id ? { custom_id: s.custom_id } : {}),
      ...(s.subscriber ? { subscriber: s.subscriber } : {}),
      plan_overridden: s.overrides.size > 0,
      ...(s.status === "APPROVAL_PENDING"
        ? {}
        : {
            billing_info: {
              outstanding_balance: money(0, cycle.currency),
              cycle_executions: s.plan.cycles.map((c, i) => ({
                tenure_type: c.tenure_type,
                sequence: c.sequence,
                cycles_completed: s.completed[i]!,
                cycles_remaining: c.total_cycles === 0 ? 0 : Math.max(0, c.total_cycles - s.completed[i]!),
                current_pricing_scheme_version: 1,
                total_cycles: c.total_cycles,
              })),
              ...(s.lastPayment
                ? { last_payment: { amount: money(s.lastPayment.cents, paidCycle.currency), time: s.lastPayment.time } }
                : {}),
              ...(live ? { next_billing_time: this.nextBilling(s) } : {}),
              failed_payments_count: 0,
            },
          }),
      create_time: s.create_time,
      update_time: s.update_time,
      links:
        s.status === "APPROVAL_PENDING"
          ? [
              link(`${this.ctx.baseUrl}/webapps/billing/subscriptions?ba_token=${s.id}`, "approve"),
              link(self, "edit", "PATCH"),
              link(self, "self"),
            ]
          : [
              link(`${self}/cancel`, "cancel", "POST"),
              link(self, "edit", "PATCH"),
              link(self, "self"),
              link(`${self}/suspend`, "suspend", "POST"),
            ],
    };
  }

  private nextBilling(s: Subscription): string {
    const { interval_unit: unit, interval_count: count } = s.plan.cycles[0]!.frequency;
    const next = new Date(s.start_time);
    const n = count * s.completed.reduce((a, b) => a + b, 0);
    if (unit === "DAY") next.setUTCDate(next.getUTCDate() + n);
    else if (unit === "WEEK") next.setUTCDate(next.getUTCDate() + 7 * n);
    else if (unit === "MONTH") next.setUTCMonth(next.getUTCMonth() + n);
    else next.setUTCFullYear(next.getUTCFullYear() + n);
    return next.toISOString();
  }
}

/** The plan's cycle billed next: the first not yet completed (one with total_cycles 0 never is); -1 when none. */
function currentCycle(sub: Subscription): number {
  return sub.plan.cycles.findIndex((c, i) => c.total_cycles === 0 || sub.completed[i]! < c.total_cycles);
}

/** The cycle billed last, for the last payment's currency. */
function lastIndex(sub: Subscription): number {
  let last = -1;
  sub.completed.forEach((n, i) => {
    if (n > 0) last = i;
  });
  return last;
}
