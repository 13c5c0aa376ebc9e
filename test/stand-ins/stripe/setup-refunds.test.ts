import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, stripeError } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const typesFor = (id: string) =>
  h
    .verified()
    .filter((e) => (e.data.object as { id: string }).id === id)
    .map((e) => e.type);

async function paidIntent(amount: number): Promise<Stripe.PaymentIntent> {
  const pi = await h.stripe.paymentIntents.create({ amount, currency: "aud", metadata: { fund: "zakat" } });
  const confirmed = await h.confirmAsStripeJs("payment_intents", pi.client_secret!, { payment_method: "pm_card_visa" });
  expect(confirmed.body.status).toBe("succeeded");
  return pi;
}

describe("Stripe stand-in: SetupIntents, off-session charges, refunds and disputes", () => {
  it("saves a card with a SetupIntent confirmed as Stripe.js does, then charges it off session", async () => {
    const customer = await h.stripe.customers.create({ email: "later@example.org" });
    const si = await h.stripe.setupIntents.create({
      customer: customer.id,
      usage: "off_session",
      metadata: { donation: "don_later" },
      automatic_payment_methods: { enabled: true },
    });
    expect(si.id).toMatch(/^seti_/);
    expect(si.client_secret).toMatch(new RegExp(`^${si.id}_secret_`));
    expect(si).toMatchObject({ object: "setup_intent", status: "requires_payment_method", usage: "off_session" });

    const confirmed = await h.confirmAsStripeJs("setup_intents", si.client_secret!, {
      "payment_method_data[type]": "card",
      "payment_method_data[card][number]": "4242 4242 4242 4242",
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe("succeeded");

    const saved = await h.stripe.setupIntents.retrieve(si.id, { expand: ["payment_method"] });
    const pm = saved.payment_method as Stripe.PaymentMethod;
    expect(pm.customer).toBe(customer.id);
    expect(pm.card).toMatchObject({ last4: "4242", brand: "visa" });
    await h.standIn.settled();
    expect(typesFor(si.id)).toEqual(["setup_intent.created", "setup_intent.succeeded"]);
    expect(typesFor(pm.id)).toEqual(["payment_method.attached"]);

    const charged = await h.stripe.paymentIntents.create(
      {
        amount: 12_000,
        currency: "aud",
        customer: customer.id,
        payment_method: pm.id,
        off_session: true,
        confirm: true,
        metadata: { donation: "don_later", instalment: "1" },
      },
      { idempotencyKey: "don_later-charge-1" },
    );
    expect(charged.status).toBe("succeeded");
    await h.standIn.settled();
    expect(typesFor(charged.id)).toEqual(["payment_intent.created", "payment_intent.succeeded"]);
  });

  it("declines a card that cannot be saved, and keeps the SetupIntent open for another", async () => {
    const customer = await h.stripe.customers.create({ email: "declined-setup@example.org" });
    const si = await h.stripe.setupIntents.create({ customer: customer.id });
    const declined = await h.confirmAsStripeJs("setup_intents", si.client_secret!, {
      payment_method: "pm_card_chargeDeclined",
    });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ type: "card_error", code: "card_declined" });
    const after = await h.stripe.setupIntents.retrieve(si.id);
    expect(after.status).toBe("requires_payment_method");
    expect(after.last_setup_error?.code).toBe("card_declined");
    expect((await h.stripe.customers.listPaymentMethods(customer.id)).data).toHaveLength(0);
    await h.standIn.settled();
    expect(typesFor(si.id)).toContain("setup_intent.setup_failed");

    const ok = await h.stripe.setupIntents.confirm(si.id, { payment_method: "pm_card_visa" });
    expect(ok.status).toBe("succeeded");
    const canceled = await stripeError(h.stripe.setupIntents.cancel(si.id));
    expect(canceled.code).toBe("setup_intent_unexpected_state");
  });

  it("a saved card that fails later gives card_declined off session", async () => {
    const customer = await h.stripe.customers.create({ email: "fails-later@example.org" });
    const si = await h.stripe.setupIntents.create({
      customer: customer.id,
      payment_method: "pm_card_chargeCustomerFail",
      confirm: true,
    });
    expect(si.status).toBe("succeeded");
    const error = await stripeError(
      h.stripe.paymentIntents.create({
        amount: 5_000,
        currency: "aud",
        customer: customer.id,
        payment_method: si.payment_method as string,
        off_session: true,
        confirm: true,
      }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ code: "card_declined", decline_code: "generic_decline" });
  });

  it("refunds in part then in full, and refuses more than was paid", async () => {
    const pi = await paidIntent(10_000);
    const part = await h.stripe.refunds.create({
      payment_intent: pi.id,
      amount: 2_500,
      reason: "requested_by_customer",
    });
    expect(part).toMatchObject({ object: "refund", amount: 2_500, status: "succeeded", payment_intent: pi.id });
    expect(part.id).toMatch(/^re_/);
    const tooMuch = await stripeError(h.stripe.refunds.create({ payment_intent: pi.id, amount: 8_000 }));
    expect(tooMuch).toMatchObject({ code: "amount_too_large", param: "amount" });
    const rest = await h.stripe.refunds.create({ payment_intent: pi.id });
    expect(rest.amount).toBe(7_500);
    const again = await stripeError(h.stripe.refunds.create({ payment_intent: pi.id }));
    expect(again.code).toBe("charge_already_refunded");

    const charge = await h.stripe.charges.retrieve(rest.charge as string, { expand: ["refunds"] });
    expect(charge).toMatchObject({ amount_refunded: 10_000, refunded: true });
    expect(charge.refunds?.data.map((r) => r.amount).sort()).toEqual([2_500, 7_500]);
    await h.standIn.settled();
    const refunded = h
      .verified()
      .filter((e) => e.type === "charge.refunded" && (e.data.object as Stripe.Charge).id === charge.id);
    expect(refunded.map((e) => (e.data.object as Stripe.Charge).amount_refunded)).toEqual([2_500, 10_000]);
    expect(refunded[1]!.data.previous_attributes).toEqual({ amount_refunded: 2_500, refunded: false });
    expect(typesFor(part.id)).toEqual(["refund.created"]);

    const unpaid = await h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud" });
    const notPaid = await stripeError(h.stripe.refunds.create({ payment_intent: unpaid.id }));
    expect(notPaid.code).toBe("charge_not_refundable");
  });

  it("opens a dispute from the test hook, and a disputed charge is not refunded", async () => {
    const pi = await paidIntent(4_000);
    const dispute = h.standIn.dispute(pi.id);
    expect(dispute.id).toMatch(/^du_/);
    await h.standIn.settled();
    const [event] = h
      .verified()
      .filter((e) => e.type === "charge.dispute.created" && (e.data.object as Stripe.Dispute).id === dispute.id);
    expect(event?.data.object).toMatchObject({ payment_intent: pi.id, amount: 4_000, status: "needs_response" });
    const refused = await stripeError(h.stripe.refunds.create({ payment_intent: pi.id }));
    expect(refused.code).toBe("charge_disputed");
    h.standIn.closeDispute(dispute.id, "lost");
    await h.standIn.settled();
    expect(h.verified().some((e) => e.type === "charge.dispute.closed")).toBe(true);
  });
});
