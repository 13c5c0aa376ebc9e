/**
 * Which card each regular gift is charged to, as the account shows it: brand, last four digits and
 * expiry, read from Stripe when its signed webhook says the card was used or saved, and the new
 * card after "Change card". The attacker's tests first: card details sent by the browser with the
 * gift, an unsigned webhook, and a signed card change from another Stripe customer change nothing.
 * PayPal gifts say PayPal.
 */
import { randomUUID } from "node:crypto";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { giftView, paidWith } from "../../src/account-api/facts.js";
import { type Account, type Harness, raw, startAccountHarness } from "../support/account-api-harness.js";
import { TEST_PUBLISHABLE_KEY } from "../support/payments-service.js";

let h: Harness;
let donor: Account;
let stripe: Stripe;
let monthly: string;
let weekly: string;
const YEAR = new Date().getUTCFullYear() + 4;

const gifts = async () =>
  (
    await h.gql(
      "{ regularGifts { id paidWith paymentMethod card { brand last4 expMonth expYear } } }",
      {},
      donor.access,
    )
  ).json.data.regularGifts as { id: string; paidWith: string; card: unknown }[];
const giftOf = async (id: string) => (await gifts()).find((g) => g.id === id)!;

/** What Stripe.js does when the donor presses Save: confirm the SetupIntent with the publishable key. */
async function confirmSetup(clientSecret: string, paymentMethod: string) {
  const res = await fetch(`${h.service.stripe.url}/v1/setup_intents/${clientSecret.split("_secret_")[0]}/confirm`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      key: TEST_PUBLISHABLE_KEY,
      client_secret: clientSecret,
      payment_method: paymentMethod,
    }),
  });
  expect(res.status).toBe(200);
  await h.service.stripe.settled();
}

beforeAll(async () => {
  h = await startAccountHarness();
  stripe = h.stripeSdk;
  donor = await h.signUp("ruqayyah@example.com");
  monthly = `gift_${await h.donate({ fund: "sadaqah", amountCents: 2_500, frequency: "monthly" }, "succeeded", donor.access)}`;
  weekly = `gift_${await h.donate(
    { fund: "jumuah-giving", amountCents: 1_000, frequency: "weekly-friday" },
    "succeeded",
    donor.access,
  )}`;
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("the card on each gift", () => {
  it("card details the browser sends with a gift are never stored", async () => {
    const res = await raw(
      `${h.service.url}/donations`,
      "POST",
      { "content-type": "application/json", "idempotency-key": randomUUID() },
      JSON.stringify({
        fund: "sadaqah",
        amountCents: 2_500,
        currency: "AUD",
        frequency: "monthly",
        anonymous: false,
        coverFees: false,
        donor: { firstName: "Eve", lastName: "X", email: "eve@example.com", phone: "0412 345 678" },
        card: { brand: "Visa", last4: "0000" },
        card_last4: "0000",
      }),
    );
    // Fields the contract does not name are ignored: the gift is made, its card unknown until Stripe says.
    expect(res.status).toBe(201);
    const row = await h.service.db
      .selectFrom("donations")
      .select(["card_brand", "card_last4"])
      .where("id", "=", res.json.donationId as string)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ card_brand: null, card_last4: null });
  });

  it("each gift shows the card Stripe charged: brand, last digits, expiry", async () => {
    expect(await giftOf(monthly)).toMatchObject({
      paymentMethod: "card",
      card: { brand: "Visa", last4: "4242", expMonth: 12, expYear: YEAR },
      paidWith: `Visa ending 4242, expires 12/${YEAR}`,
    });
    // Every Friday: the card saved for the job's charges.
    expect((await giftOf(weekly)).paidWith).toBe(`Visa ending 4242, expires 12/${YEAR}`);
  });

  it("an unsigned webhook, or a signed card change from another customer, changes no card", async () => {
    const forged = await raw(
      `${h.service.url}/stripe/webhook`,
      "POST",
      { "content-type": "application/json", "stripe-signature": "t=1,v1=00" },
      JSON.stringify({
        id: "evt_forged",
        type: "setup_intent.succeeded",
        data: {
          object: {
            id: "seti_forged",
            payment_method: "pm_card_mastercard",
            metadata: { donation_id: monthly.slice(5), purpose: "card_change" },
          },
        },
      }),
    );
    expect(forged.status).toBe(400);
    // A real SetupIntent, signed by Stripe, but for a customer that is not the gift's.
    const stranger = await stripe.customers.create({ email: "mallory@example.com" });
    const intent = await stripe.setupIntents.create({
      customer: stranger.id,
      usage: "off_session",
      metadata: { donation_id: monthly.slice(5), purpose: "card_change" },
    });
    await confirmSetup(intent.client_secret!, "pm_card_mastercard");
    expect((await giftOf(monthly)).paidWith).toBe(`Visa ending 4242, expires 12/${YEAR}`);
  });

  it("after Change card, the gift shows the new card once Stripe's webhook saved it", async () => {
    const started = await h.gql(
      "mutation($id: ID!) { changeRegularGiftCard(id: $id) { clientSecret } }",
      { id: monthly },
      donor.access,
    );
    const clientSecret = started.json.data.changeRegularGiftCard.clientSecret as string;
    // Until Stripe saved it, the card is the old one.
    expect((await giftOf(monthly)).paidWith).toBe(`Visa ending 4242, expires 12/${YEAR}`);
    await confirmSetup(clientSecret, "pm_card_mastercard");
    expect(await giftOf(monthly)).toMatchObject({
      card: { brand: "Mastercard", last4: "4444" },
      paidWith: `Mastercard ending 4444, expires 12/${YEAR}`,
    });
    // The other gift keeps its own card.
    expect((await giftOf(weekly)).paidWith).toBe(`Visa ending 4242, expires 12/${YEAR}`);
  });

  it("PayPal gifts say PayPal; a card not known yet says Card", () => {
    expect(paidWith({ paymentMethod: "paypal", card: null })).toBe("PayPal");
    expect(paidWith({ paymentMethod: "card", card: null })).toBe("Card");
    expect(
      paidWith({ paymentMethod: "card", card: { brand: "eftpos", last4: "0036", expMonth: 3, expYear: 2030 } }),
    ).toBe("eftpos ending 0036, expires 03/2030");
    const view = giftView(
      {
        donationId: "d1",
        reference: "NZF-TEST",
        fund: "sadaqah",
        frequency: "monthly",
        paymentMethod: "paypal",
        intentType: "payment",
        openEnded: true,
        schedule: [{ date: "2026-11-28", amountCents: 1_000 }],
        scheduleTotalCents: null,
        amountCents: 1_000,
        coverFees: false,
        currency: "AUD",
        date: "2026-11-28",
        status: "succeeded",
        donorName: "A B",
        donorEmail: "a@example.com",
        sub: "s",
        charges: [],
        plan: { amountCents: null, paused: false, cancelled: false },
        card: { brand: "Visa", last4: "4242", expMonth: 1, expYear: 2030 },
      },
      "2026-11-28",
    );
    expect(view).toMatchObject({ paidWith: "PayPal", card: null });
  });
});
