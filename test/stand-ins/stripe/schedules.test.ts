import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, stripeError } from "./harness.js";

const START = new Date("2027-03-15T09:30:00Z");
let h: Harness;
let product: Stripe.Product;
beforeAll(async () => {
  h = await startHarness({ now: () => START });
  product = await h.stripe.products.create({ name: "Zakat in instalments" });
});
afterAll(async () => {
  await h?.close();
});

const monthsAfter = (date: Date, months: number) => {
  const d = new Date(date);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
};
const priceData = (unit_amount: number) => ({
  currency: "aud",
  product: product.id,
  unit_amount,
  recurring: { interval: "month" as const },
});

/** A customer whose card was saved with a SetupIntent, as the service does for a later first charge. */
async function customerWithCard(email: string, card = "pm_card_visa") {
  const customer = await h.stripe.customers.create({ email });
  const si = await h.stripe.setupIntents.create({ customer: customer.id, usage: "off_session" });
  const confirmed = await h.confirmAsStripeJs("setup_intents", si.client_secret!, { payment_method: card });
  expect(confirmed.body.status).toBe("succeeded");
  return { customer, pm: confirmed.body.payment_method as string };
}

describe("Stripe stand-in: subscription schedules", () => {
  it("12 monthly instalments with a smaller last one bill 12 times month by month, then cancel by themselves", async () => {
    const { customer, pm } = await customerWithCard("instalments@example.org");
    const schedule = await h.stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: "now",
      end_behavior: "cancel",
      default_settings: { default_payment_method: pm },
      metadata: { donation: "don_inst" },
      phases: [
        {
          items: [{ price_data: priceData(10_000) }],
          duration: { interval: "month", interval_count: 11 },
          metadata: { donation: "don_inst" },
        },
        { items: [{ price_data: priceData(5_000) }], duration: { interval: "month", interval_count: 1 } },
      ],
    });
    expect(schedule.id).toMatch(/^sub_sched_/);
    expect(schedule.status).toBe("active");
    expect(schedule.phases.map((p) => [p.start_date, p.end_date])).toEqual([
      [START.getTime() / 1000, monthsAfter(START, 11).getTime() / 1000],
      [monthsAfter(START, 11).getTime() / 1000, monthsAfter(START, 12).getTime() / 1000],
    ]);
    const subId = schedule.subscription as string;
    const sub = await h.stripe.subscriptions.retrieve(subId);
    expect(sub).toMatchObject({ status: "active", schedule: schedule.id, metadata: { donation: "don_inst" } });

    const paid = async () =>
      (await h.stripe.invoices.list({ subscription: subId, status: "paid", limit: 100 })).data.map(
        (i) => i.amount_paid,
      );
    expect(await paid()).toEqual([10_000]);
    for (let month = 1; month <= 12; month++) {
      await h.standIn.advanceTo(monthsAfter(START, month));
      expect((await paid()).length).toBe(Math.min(month + 1, 12));
    }
    const amounts = await paid();
    expect(amounts.filter((a) => a === 10_000)).toHaveLength(11);
    expect(amounts.filter((a) => a === 5_000)).toHaveLength(1);
    expect(amounts[0]).toBe(5_000); // the newest is the last instalment

    const ended = await h.stripe.subscriptionSchedules.retrieve(schedule.id);
    expect(ended).toMatchObject({ status: "completed", current_phase: null });
    expect((await h.stripe.subscriptions.retrieve(subId)).status).toBe("canceled");
    await h.standIn.advanceTo(monthsAfter(START, 14));
    expect(await paid()).toHaveLength(12);

    const events = h.verified();
    const mine = (type: string) =>
      events.filter(
        (e) =>
          e.type === type &&
          ((e.data.object as { id: string }).id === subId ||
            (e.data.object as Stripe.Invoice).parent?.subscription_details?.subscription === subId ||
            (e.data.object as { id: string }).id === schedule.id),
      );
    expect(mine("invoice.paid")).toHaveLength(12);
    expect(mine("customer.subscription.deleted")).toHaveLength(1);
    expect(mine("subscription_schedule.completed")).toHaveLength(1);
    expect(h.received.filter((r) => r.error)).toEqual([]);
  });

  it("refuses `iterations` in the pinned API version and takes it in an older one", async () => {
    const { customer, pm } = await customerWithCard("iterations@example.org");
    const refused = await stripeError(
      h.stripe.subscriptionSchedules.create({
        customer: customer.id,
        phases: [{ items: [{ price_data: priceData(1_000) }], iterations: 3 } as never],
      }),
    );
    expect(refused).toMatchObject({ code: "parameter_unknown", param: "phases[0][iterations]" });
    const older = await h.stripe.subscriptionSchedules.create(
      {
        customer: customer.id,
        end_behavior: "cancel",
        default_settings: { default_payment_method: pm },
        phases: [{ items: [{ price_data: priceData(1_000) }], iterations: 3 } as never],
      },
      { apiVersion: "2025-03-31.basil" },
    );
    expect(older.phases[0]!.end_date).toBe(
      monthsAfter(new Date(older.phases[0]!.start_date * 1000), 3).getTime() / 1000,
    );
    await h.stripe.subscriptionSchedules.cancel(older.id);
    expect((await h.stripe.subscriptions.retrieve(older.subscription as string)).status).toBe("canceled");
  });

  it("a schedule starting later waits for the clock; release hands the subscription over", async () => {
    const { customer, pm } = await customerWithCard("later@example.org");
    const now = Math.floor(Date.parse("2028-07-01T00:00:00Z") / 1000);
    h.standIn.setNow(new Date("2028-06-20T00:00:00Z"));
    const schedule = await h.stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: now,
      end_behavior: "release",
      default_settings: { default_payment_method: pm },
      phases: [{ items: [{ price_data: priceData(2_500) }], duration: { interval: "month", interval_count: 2 } }],
    });
    expect(schedule).toMatchObject({ status: "not_started", subscription: null });
    await h.standIn.advanceTo(new Date("2028-07-01T00:00:00Z"));
    const started = await h.stripe.subscriptionSchedules.retrieve(schedule.id);
    expect(started.status).toBe("active");
    const subId = started.subscription as string;
    expect((await h.stripe.invoices.list({ subscription: subId })).data.map((i) => i.status)).toEqual(["paid"]);
    await h.standIn.advanceTo(new Date("2028-09-01T00:00:00Z"));
    const released = await h.stripe.subscriptionSchedules.retrieve(schedule.id);
    expect(released).toMatchObject({ status: "released", released_subscription: subId, subscription: null });
    const sub = await h.stripe.subscriptions.retrieve(subId);
    expect(sub).toMatchObject({ status: "active", schedule: null });
    expect((await h.stripe.invoices.list({ subscription: subId })).data).toHaveLength(3);
  });

  it("from_subscription then phases: an existing monthly gift becomes N instalments", async () => {
    const { customer, pm } = await customerWithCard("convert@example.org");
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price_data: priceData(4_000) }],
      default_payment_method: pm,
    });
    expect(sub.status).toBe("active");
    const schedule = await h.stripe.subscriptionSchedules.create({ from_subscription: sub.id });
    expect(schedule).toMatchObject({ status: "active", subscription: sub.id, end_behavior: "release" });
    const start = schedule.phases[0]!.start_date;
    const updated = await h.stripe.subscriptionSchedules.update(schedule.id, {
      end_behavior: "cancel",
      phases: [
        {
          items: [{ price_data: priceData(4_000) }],
          start_date: start,
          duration: { interval: "month", interval_count: 2 },
        },
        { items: [{ price_data: priceData(1_000) }], duration: { interval: "month", interval_count: 1 } },
      ],
    });
    expect(updated.phases).toHaveLength(2);
    const end = updated.phases[1]!.end_date;
    await h.standIn.advanceTo(new Date((end + 86_400) * 1000));
    const amounts = (await h.stripe.invoices.list({ subscription: sub.id })).data.map((i) => i.amount_paid);
    expect(amounts).toEqual([1_000, 4_000, 4_000]);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe("canceled");
    const direct = await stripeError(h.stripe.subscriptionSchedules.release(schedule.id));
    expect(direct.code).toBe("subscription_schedule_unexpected_state");
  });

  it("as the service does instalments: the first paid by a saving PaymentIntent, the rest by a schedule from the next date", async () => {
    h.standIn.setNow(new Date("2029-01-10T00:00:00Z"));
    const customer = await h.stripe.customers.create({ email: "service-way@example.org" });
    const first = await h.stripe.paymentIntents.create({
      amount: 3_813,
      currency: "aud",
      customer: customer.id,
      automatic_payment_methods: { enabled: true },
      setup_future_usage: "off_session",
      metadata: { donation_id: "don_service" },
    });
    const paid = await h.confirmAsStripeJs("payment_intents", first.client_secret!, {
      payment_method: "pm_card_authenticationRequiredOnSetup",
    });
    expect(paid.body.status).toBe("requires_action");
    const done = await h.standIn.authenticate(first.id, "succeed");
    expect(done.status).toBe("succeeded");
    const pm = done.payment_method as string;
    expect((await h.stripe.paymentMethods.retrieve(pm)).customer).toBe(customer.id);

    const schedule = await h.stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: Math.floor(Date.parse("2029-02-10T00:00:00+10:00") / 1000),
      end_behavior: "cancel",
      default_settings: {
        collection_method: "charge_automatically",
        default_payment_method: pm,
        description: "NZF zakat",
      },
      metadata: { donation_id: "don_service" },
      phases: [
        {
          items: [{ price_data: priceData(3_813) }],
          duration: { interval: "month", interval_count: 10 },
          metadata: { donation_id: "don_service" },
        },
        {
          items: [{ price_data: priceData(3_807) }],
          duration: { interval: "month", interval_count: 1 },
          metadata: { donation_id: "don_service" },
        },
      ],
    });
    expect(schedule.status).toBe("not_started");
    await h.standIn.advanceTo(new Date("2030-02-01T00:00:00Z"));
    const sub = (await h.stripe.subscriptionSchedules.retrieve(schedule.id)).subscription as string;
    const invoices = (await h.stripe.invoices.list({ subscription: sub, limit: 100 })).data;
    expect(invoices.map((i) => i.amount_paid).reverse()).toEqual([...Array(10).fill(3_813), 3_807]);
    // The webhook the service reads names the gift through the subscription's metadata.
    const paidEvents = h
      .verified()
      .filter(
        (e) =>
          e.type === "invoice.paid" &&
          (e.data.object as Stripe.Invoice).parent?.subscription_details?.subscription === sub,
      );
    expect(paidEvents).toHaveLength(11);
    for (const e of paidEvents)
      expect((e.data.object as Stripe.Invoice).parent?.subscription_details?.metadata).toEqual({
        donation_id: "don_service",
      });
    expect((await h.stripe.subscriptions.retrieve(sub)).status).toBe("canceled");
  });
});
