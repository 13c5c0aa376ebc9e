import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, stripeError } from "./harness.js";

// 31 January: the next periods end on 28 February and 31 March (Stripe counts months from the anchor).
const START = new Date("2027-01-31T10:00:00Z");
const at = (iso: string) => new Date(iso);
const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

let h: Harness;
let product: Stripe.Product;
beforeAll(async () => {
  h = await startHarness({ now: () => START });
  product = await h.stripe.products.create({ name: "Monthly sadaqah" });
});
afterAll(async () => {
  await h?.close();
});

const monthly = (unit_amount: number) => ({
  price_data: { currency: "aud", product: product.id, unit_amount, recurring: { interval: "month" as const } },
});

const eventsFor = (type: string, test: (o: any) => boolean) =>
  h.verified().filter((e) => e.type === type && test(e.data.object));

describe("Stripe stand-in: subscriptions on the test clock", () => {
  it("a monthly gift: the first invoice's intent is confirmed by Stripe.js, then renewals charge the saved card", async () => {
    const customer = await h.stripe.customers.create({ email: "monthly@example.org" });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [monthly(5_000)],
      payment_behavior: "default_incomplete",
      payment_settings: { save_default_payment_method: "on_subscription" },
      metadata: { donation: "don_monthly" },
      expand: ["latest_invoice.confirmation_secret", "latest_invoice.payments"],
    });
    expect(sub.id).toMatch(/^sub_/);
    expect(sub.status).toBe("incomplete");
    expect(sub.items.data[0]).toMatchObject({
      current_period_start: unix("2027-01-31T10:00:00Z"),
      current_period_end: unix("2027-02-28T10:00:00Z"),
      price: { unit_amount: 5_000, currency: "aud", recurring: { interval: "month", interval_count: 1 } },
    });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      object: "invoice",
      status: "open",
      amount_due: 5_000,
      billing_reason: "subscription_create",
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: sub.id, metadata: { donation: "don_monthly" } },
      },
    });
    // In this API version the intent is reached through confirmation_secret and payments, not invoice.payment_intent.
    expect("payment_intent" in invoice).toBe(false);
    const secret = invoice.confirmation_secret!.client_secret;
    const intentId = invoice.payments!.data[0]!.payment.payment_intent as string;
    expect(secret.startsWith(`${intentId}_secret_`)).toBe(true);
    expect(invoice.confirmation_secret!.type).toBe("payment_intent");
    // Not expanded, the includable fields are absent.
    const plain = await h.stripe.invoices.retrieve(invoice.id);
    expect(plain.confirmation_secret).toBeUndefined();
    expect(plain.payments).toBeUndefined();

    const confirmed = await h.confirmAsStripeJs("payment_intents", secret, { payment_method: "pm_card_visa" });
    expect(confirmed.body.status).toBe("succeeded");
    await h.standIn.settled();
    expect(eventsFor("invoice.paid", (o) => o.id === invoice.id)).toHaveLength(1);
    const activated = eventsFor("customer.subscription.updated", (o) => o.id === sub.id && o.status === "active");
    expect(activated).toHaveLength(1);
    expect(activated[0]!.data.previous_attributes).toMatchObject({ status: "incomplete" });
    const active = await h.stripe.subscriptions.retrieve(sub.id);
    expect(active.status).toBe("active");
    expect(active.default_payment_method).toMatch(/^pm_/);

    await h.standIn.advanceTo(at("2027-02-28T10:00:00Z"));
    const invoices = await h.stripe.invoices.list({ subscription: sub.id });
    expect(invoices.data.map((i) => [i.billing_reason, i.status, i.amount_paid])).toEqual([
      ["subscription_cycle", "paid", 5_000],
      ["subscription_create", "paid", 5_000],
    ]);
    expect(invoices.data[0]!.lines.data[0]!.period).toEqual({
      start: unix("2027-02-28T10:00:00Z"),
      end: unix("2027-03-31T10:00:00Z"),
    });
    const renewed = await h.stripe.subscriptions.retrieve(sub.id);
    expect(renewed.items.data[0]!.current_period_end).toBe(unix("2027-03-31T10:00:00Z"));
    const paidEvent = eventsFor("invoice.paid", (o) => o.id === invoices.data[0]!.id)[0]!;
    expect(paidEvent.created).toBe(unix("2027-02-28T10:00:00Z"));

    // The donor changes the amount: the next period bills the new one.
    const item = renewed.items.data[0]!;
    await h.stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, ...monthly(7_000) }],
      proration_behavior: "none",
    });
    // Collection paused: the March invoice is voided, nothing charged.
    await h.stripe.subscriptions.update(sub.id, { pause_collection: { behavior: "void" } });
    await h.standIn.advanceTo(at("2027-03-31T10:00:00Z"));
    await h.stripe.subscriptions.update(sub.id, { pause_collection: "" });
    await h.standIn.advanceTo(at("2027-04-30T10:00:00Z"));
    const later = await h.stripe.invoices.list({ subscription: sub.id });
    expect(later.data.slice(0, 2).map((i) => [i.status, i.amount_due, i.amount_paid])).toEqual([
      ["paid", 7_000, 7_000],
      ["void", 7_000, 0],
    ]);

    // Ends at the period end when asked.
    const ending = await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(ending.cancel_at).toBe(unix("2027-05-31T10:00:00Z"));
    await h.standIn.advanceTo(at("2027-06-15T10:00:00Z"));
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe("canceled");
    expect(eventsFor("customer.subscription.deleted", (o) => o.id === sub.id)).toHaveLength(1);
    expect((await h.stripe.invoices.list({ subscription: sub.id })).data).toHaveLength(4);
  });

  it("a renewal that declines makes the subscription past_due until the invoice is paid", async () => {
    h.standIn.setNow(at("2027-07-01T00:00:00Z"));
    const customer = await h.stripe.customers.create({ email: "declines-later@example.org" });
    const pm = await h.stripe.paymentMethods.attach("pm_card_chargeCustomerFail", { customer: customer.id });
    const good = await h.stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
    await h.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: good.id } });
    const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [monthly(2_000)] });
    expect(sub.status).toBe("active");
    await h.stripe.subscriptions.update(sub.id, { default_payment_method: pm.id });
    await h.standIn.advanceTo(at("2027-08-01T00:00:00Z"));
    const pastDue = await h.stripe.subscriptions.retrieve(sub.id, { expand: ["latest_invoice"] });
    expect(pastDue.status).toBe("past_due");
    const invoice = pastDue.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: "open", attempted: true, attempt_count: 1 });
    await h.standIn.settled();
    expect(eventsFor("invoice.payment_failed", (o) => o.id === invoice.id)).toHaveLength(1);

    const paid = await h.stripe.invoices.pay(invoice.id, { payment_method: good.id });
    expect(paid.status).toBe("paid");
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe("active");
  });

  it("cancelling an unpaid subscription voids its invoice and cancels the intent", async () => {
    const customer = await h.stripe.customers.create({ email: "abandons@example.org" });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [monthly(3_000)],
      payment_behavior: "default_incomplete",
      expand: ["latest_invoice.payments"],
    });
    const intentId = (sub.latest_invoice as Stripe.Invoice).payments!.data[0]!.payment.payment_intent as string;
    const deep = await h.stripe.subscriptions.retrieve(sub.id, {
      expand: ["latest_invoice.payments.data.payment.payment_intent", "customer"],
    });
    const payment = (deep.latest_invoice as Stripe.Invoice).payments!.data[0]!.payment;
    expect((payment.payment_intent as Stripe.PaymentIntent).client_secret).toMatch(new RegExp(`^${intentId}_secret_`));
    expect((deep.customer as Stripe.Customer).email).toBe("abandons@example.org");
    const cannot = await stripeError(h.stripe.paymentIntents.cancel(intentId));
    expect(cannot.code).toBe("payment_intent_unexpected_state");
    const canceled = await h.stripe.subscriptions.cancel(sub.id);
    expect(canceled.status).toBe("canceled");
    expect((await h.stripe.invoices.retrieve((sub.latest_invoice as Stripe.Invoice).id)).status).toBe("void");
    expect((await h.stripe.paymentIntents.retrieve(intentId)).status).toBe("canceled");
    const again = await stripeError(h.stripe.subscriptions.cancel(sub.id));
    expect(again).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });

  it("an unpaid first invoice expires the subscription after 23 hours", async () => {
    h.standIn.setNow(at("2027-09-01T00:00:00Z"));
    const customer = await h.stripe.customers.create({ email: "expires@example.org" });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [monthly(3_000)],
      payment_behavior: "default_incomplete",
    });
    await h.standIn.advanceTo(at("2027-09-02T00:00:00Z"));
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe("incomplete_expired");
    expect((await h.stripe.invoices.retrieve(sub.latest_invoice as string)).status).toBe("void");
  });

  it("refuses what Stripe refuses on subscriptions", async () => {
    const customer = await h.stripe.customers.create({ email: "refused@example.org" });
    const noProduct = await stripeError(
      h.stripe.subscriptions.create({
        customer: customer.id,
        items: [
          {
            price_data: {
              currency: "aud",
              product: "prod_missing",
              unit_amount: 1_000,
              recurring: { interval: "month" },
            },
          },
        ],
      }),
    );
    expect(noProduct).toMatchObject({ statusCode: 404, param: "items[0][price_data][product]" });
    const noInterval = await stripeError(
      h.stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price_data: { currency: "aud", product: product.id, unit_amount: 1_000 } as never }],
      }),
    );
    expect(noInterval).toMatchObject({ code: "parameter_missing", param: "items[0][price_data][recurring]" });
    const mixed = await stripeError(
      h.stripe.subscriptions.create({
        customer: customer.id,
        items: [
          monthly(1_000),
          { price_data: { currency: "aud", product: product.id, unit_amount: 1_000, recurring: { interval: "year" } } },
        ],
      }),
    );
    expect(mixed.message).toContain("must match");
    const foreignCard = await h.stripe.paymentMethods.attach("pm_card_visa", {
      customer: (await h.stripe.customers.create({ email: "other@example.org" })).id,
    });
    const notTheirs = await stripeError(
      h.stripe.subscriptions.create({
        customer: customer.id,
        items: [monthly(1_000)],
        default_payment_method: foreignCard.id,
      }),
    );
    expect(notTheirs.param).toBe("default_payment_method");
    const noCard = await stripeError(
      h.stripe.subscriptions.create({
        customer: customer.id,
        items: [monthly(1_000)],
        payment_behavior: "error_if_incomplete",
      }),
    );
    expect(noCard.code).toBe("resource_missing");
  });
});
