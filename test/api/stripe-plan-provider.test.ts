/**
 * A monthly gift's changes from the account page act on Stripe: the account API (the payments
 * service's /graphql) asks the Stripe plan provider, which pauses, resumes, re-prices and cancels
 * the gift's Subscription at the Stripe stand-in through the official SDK. Read back from Stripe,
 * not from our tables.
 */
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, type Harness, startAccountHarness } from "../support/account-api-harness.js";
import { TEST_PUBLISHABLE_KEY } from "../support/payments-service.js";

let h: Harness;
let donor: Account;
let other: Account;
let stripe: Stripe;
let subscriptionId: string;
let giftId: string;

const change = async (mutation: string, token = donor.access) => {
  const res = await h.gql(`mutation($id: ID!) { ${mutation} }`, { id: giftId }, token);
  return res.json;
};
const subscription = () => stripe.subscriptions.retrieve(subscriptionId);

beforeAll(async () => {
  h = await startAccountHarness();
  stripe = h.stripeSdk;
  donor = await h.signUp("sara@example.com");
  other = await h.signUp("omar@example.com");
  const donationId = await h.donate(
    { fund: "sadaqah", amountCents: 2_500, frequency: "monthly" },
    "succeeded",
    donor.access,
  );
  const row = await h.service.db
    .selectFrom("donations")
    .select("stripe_subscription_id")
    .where("id", "=", donationId)
    .executeTakeFirstOrThrow();
  subscriptionId = row.stripe_subscription_id!;
  giftId = `gift_${donationId}`;
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("a monthly gift's changes act on its Stripe subscription", () => {
  it("someone else's token changes nothing at Stripe", async () => {
    const before = h.service.stripe.requests().length;
    const json = await change(`pauseRegularGift(id: $id) { changed }`, other.access);
    expect(json.errors[0].extensions.code).toBe("GIFT_NOT_FOUND");
    expect(h.service.stripe.requests().length).toBe(before);
    expect((await subscription()).pause_collection).toBeNull();
  });

  it("pause voids what falls due; resume charges again", async () => {
    expect((await subscription()).status).toBe("active");
    const paused = await change(`pauseRegularGift(id: $id) { changed gift { status } }`);
    expect(paused.data.pauseRegularGift).toEqual({ changed: true, gift: { status: "PAUSED" } });
    expect((await subscription()).pause_collection).toMatchObject({ behavior: "void" });
    // A repeat is safe: nothing asked of Stripe again.
    const before = h.service.stripe.requests().filter((r) => r.method === "POST").length;
    expect((await change(`pauseRegularGift(id: $id) { changed }`)).data.pauseRegularGift.changed).toBe(false);
    expect(h.service.stripe.requests().filter((r) => r.method === "POST").length).toBe(before);
    await change(`resumeRegularGift(id: $id) { changed }`);
    expect((await subscription()).pause_collection).toBeNull();
  });

  it("a new amount is the subscription's price from the next invoice, in cents", async () => {
    const res = await change(`changeRegularGiftAmount(id: $id, amountCents: 4000) { changed }`);
    expect(res.data.changeRegularGiftAmount.changed).toBe(true);
    const sub = await subscription();
    expect(sub.items.data[0]!.price.unit_amount).toBe(4_000);
    expect(sub.items.data).toHaveLength(1);
  });

  it("change card: someone else's token makes no SetupIntent at Stripe", async () => {
    const before = h.service.stripe.requests().filter((r) => r.path.startsWith("/v1/setup_intents")).length;
    const json = await change("changeRegularGiftCard(id: $id) { clientSecret }", other.access);
    expect(json.errors[0].extensions.code).toBe("GIFT_NOT_FOUND");
    expect(json.data).toBeNull();
    expect(h.service.stripe.requests().filter((r) => r.path.startsWith("/v1/setup_intents")).length).toBe(before);
  });

  it("change card: the new card saved through a SetupIntent becomes the subscription's, from Stripe's webhook", async () => {
    const old = (await subscription()).default_payment_method;
    const started = await change("changeRegularGiftCard(id: $id) { clientSecret url message }");
    const { clientSecret, url, message } = started.data.changeRegularGiftCard;
    expect(url).toBeNull();
    expect(message).toMatch(/^Enter the new card for your monthly gift to Sadaqah\./);
    expect(clientSecret).toMatch(/^seti_\w+_secret_\w+$/);
    // A repeat (a double click) gives the same SetupIntent.
    expect(
      (await change("changeRegularGiftCard(id: $id) { clientSecret }")).data.changeRegularGiftCard.clientSecret,
    ).toBe(clientSecret);
    // Nothing changes until the card is saved.
    expect((await subscription()).default_payment_method).toEqual(old);
    // What Stripe.js does when the donor presses Save: confirm with the publishable key.
    const setupId = clientSecret.split("_secret_")[0];
    const confirmed = await fetch(`${h.service.stripe.url}/v1/setup_intents/${setupId}/confirm`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        key: TEST_PUBLISHABLE_KEY,
        client_secret: clientSecret,
        payment_method: "pm_card_mastercard",
      }),
    });
    expect(confirmed.status).toBe(200);
    await h.service.stripe.settled();
    const saved = await stripe.setupIntents.retrieve(setupId);
    expect(saved.status).toBe("succeeded");
    const card = saved.payment_method as string;
    expect(card).not.toEqual(old);
    expect((await subscription()).default_payment_method).toBe(card);
    const row = await h.service.db
      .selectFrom("donations")
      .select("stripe_payment_method_id")
      .where("id", "=", giftId.slice(5))
      .executeTakeFirstOrThrow();
    expect(row.stripe_payment_method_id).toBe(card);
    // The gift itself is as it was: still active, never marked paid again.
    const gift = await h.gql("{ regularGifts { status paidCount } donations { id } }", {}, donor.access);
    expect(gift.json.data.regularGifts[0]).toMatchObject({ status: "ACTIVE", paidCount: 1 });
    expect(gift.json.data.donations).toHaveLength(1);
    // The next change is a new SetupIntent.
    const next = await change("changeRegularGiftCard(id: $id) { clientSecret }");
    expect(next.data.changeRegularGiftCard.clientSecret).not.toBe(clientSecret);
  });

  it("change card: a SetupIntent of another customer naming this gift changes nothing", async () => {
    const before = (await subscription()).default_payment_method;
    const stranger = await stripe.customers.create({ email: "omar@example.com" });
    const forged = await stripe.setupIntents.create({
      customer: stranger.id,
      usage: "off_session",
      metadata: { donation_id: giftId.slice(5), purpose: "card_change" },
    });
    await stripe.setupIntents.confirm(forged.id, { payment_method: "pm_card_amex" });
    await h.service.stripe.settled();
    expect((await subscription()).default_payment_method).toBe(before);
    expect(h.logged.some((l) => l.includes(`card change ${forged.id} ignored`))).toBe(true);
  });

  it("cancel ends the subscription at Stripe, after the confirmation", async () => {
    const unconfirmed = await h.gql(
      `mutation($id: ID!) { cancelRegularGift(id: $id, confirm: false) { changed } }`,
      { id: giftId },
      donor.access,
    );
    expect(unconfirmed.json.errors[0].extensions.code).toBe("CONFIRMATION_REQUIRED");
    expect((await subscription()).status).toBe("active");
    await change(`cancelRegularGift(id: $id, confirm: true) { changed }`);
    expect((await subscription()).status).toBe("canceled");
  });
});
