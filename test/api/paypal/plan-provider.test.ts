/**
 * A PayPal monthly gift's changes from the account page act on its PayPal subscription: the
 * account API (the payments service's /graphql) asks PayPal, through its official SDK pointed at
 * the local PayPal stand-in, to suspend, activate, revise and cancel it. Read back from PayPal, not
 * from our tables. A new amount needs the payer's consent at PayPal: until PayPal's signed
 * BILLING.SUBSCRIPTION.UPDATED arrives the gift stays as it was, and PayPal bills the old price.
 * The attacker's tests come first: another donor's token and another donor's plan id ask PayPal
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayPalApi, type PayPalApi } from "../../../src/api/paypal/sdk.js";
import { createSdkPayPal } from "../../../src/api/paypal/sdk-provider.js";
import { type PayPalStandIn, startPayPalStandIn } from "../../../src/stand-ins/paypal/server.js";
import { type Account, type Harness, raw, startAccountHarness } from "../../support/account-api-harness.js";
import { givePayPalMonthly } from "../../support/paypal-gifts.js";

let h: Harness;
let paypal: PayPalStandIn;
let api: PayPalApi;
let donor: Account;
let other: Account;
let giftId: string;
let otherGiftId: string;
let subscriptionId: string;

const FIELDS = "changed message url gift { status amountCents totalCents pendingAmountCents }";
const change = async (mutation: string, token = donor.access, id = giftId) =>
  (await h.gql(`mutation($id: ID!) { ${mutation} }`, { id }, token)).json;
const subscription = async () =>
  (await api.subscriptions.getSubscription({ id: subscriptionId, fields: "plan" })).result;
/** The PayPal calls that change something (the stand-in's own record of deliveries shows their events). */
const events = () => paypal.deliveries().map((d) => d.event.event_type);

const paypalMonthly = (account: Account, amountCents: number) =>
  givePayPalMonthly(h.service.url, paypal, account, amountCents);

beforeAll(async () => {
  h = await startAccountHarness();
  paypal = await startPayPalStandIn({ webhookUrl: `${h.service.url}/paypal/webhook`, webhookRetryDelaysMs: [20] });
  api = createPayPalApi({
    clientId: paypal.clientId,
    clientSecret: paypal.clientSecret,
    environment: "sandbox",
    webhookId: paypal.webhookId,
    apiBase: paypal.url,
  });
  h.service.deps.paypal = createSdkPayPal(api);
  h.service.deps.paypalApi = api;
  // SITE_URL: PayPal returns the donor to the site's account page after the revise window.
  h.service.deps.siteUrl = "https://site.example";
  donor = await h.signUp("sara@example.com");
  other = await h.signUp("omar@example.com");
  const mine = await paypalMonthly(donor, 2_500);
  giftId = `gift_${mine.donationId}`;
  subscriptionId = mine.subId;
  otherGiftId = `gift_${(await paypalMonthly(other, 1_000)).donationId}`;
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await paypal?.stop();
});

describe("a PayPal monthly gift's changes act on its PayPal subscription", () => {
  it("is the donor's plan, paid by PayPal's signed webhook", async () => {
    const res = await h.gql("{ regularGifts { id status amountCents paidCount } }", {}, donor.access);
    expect(res.json.data.regularGifts).toEqual([{ id: giftId, status: "ACTIVE", amountCents: 2_500, paidCount: 1 }]);
    expect((await subscription()).status).toBe("ACTIVE");
  });

  it("someone else's token, or another donor's plan id, asks PayPal nothing", async () => {
    const before = events().length;
    for (const json of [
      await change("pauseRegularGift(id: $id) { changed }", other.access),
      await change("cancelRegularGift(id: $id, confirm: true) { changed }", other.access),
      await change("changeRegularGiftAmount(id: $id, amountCents: 100) { changed }", other.access),
      await change("pauseRegularGift(id: $id) { changed }", donor.access, otherGiftId),
    ])
      expect(json.errors[0].extensions.code).toBe("GIFT_NOT_FOUND");
    await paypal.settled();
    expect(events().length).toBe(before);
    expect((await subscription()).status).toBe("ACTIVE");
  });

  it("pause suspends the subscription at PayPal; a repeat asks nothing; resume activates it", async () => {
    const paused = await change(`pauseRegularGift(id: $id) { ${FIELDS} }`);
    expect(paused.data.pauseRegularGift).toMatchObject({ changed: true, gift: { status: "PAUSED" } });
    expect((await subscription()).status).toBe("SUSPENDED");
    // PayPal bills only an active subscription.
    expect(() => paypal.chargeSubscriptionCycle(subscriptionId)).toThrow(/SUSPENDED/);
    await paypal.settled();
    const before = events().length;
    expect((await change("pauseRegularGift(id: $id) { changed }")).data.pauseRegularGift.changed).toBe(false);
    await paypal.settled();
    expect(events().length).toBe(before);
    const resumed = await change(`resumeRegularGift(id: $id) { ${FIELDS} }`);
    expect(resumed.data.resumeRegularGift).toMatchObject({ changed: true, gift: { status: "ACTIVE" } });
    expect((await subscription()).status).toBe("ACTIVE");
  });

  it("a new amount waits for the payer's consent at PayPal, then PayPal bills it from the next cycle", async () => {
    const asked = await change(`changeRegularGiftAmount(id: $id, amountCents: 4000) { ${FIELDS} }`);
    const answer = asked.data.changeRegularGiftAmount;
    expect(answer.url).toMatch(new RegExp(`^${paypal.url}/webapps/billing/subscriptions/update\\?ba_token=BA-`));
    expect(answer.message).toMatch(/^PayPal asks you to agree to \$40 each time\./);
    expect(answer.message).toMatch(/stays \$25\.$/);
    // Not yet the plan's amount: PayPal still bills $25.00.
    expect(answer.gift).toMatchObject({ amountCents: 2_500, pendingAmountCents: 4_000 });
    paypal.chargeSubscriptionCycle(subscriptionId);
    await paypal.settled();
    let history = await h.gql("{ donations { totalCents chargeNumber } }", {}, donor.access);
    expect(history.json.data.donations[0]).toEqual({ totalCents: 2_500, chargeNumber: 2 });

    // The donor agrees in PayPal's window (the approve link's page); PayPal's signed event settles it.
    const page = await fetch(answer.url, { method: "POST", redirect: "manual" });
    // PayPal sends the donor back to the account page, which says they agreed to which gift.
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe(`https://site.example/account/?paypal=agreed&gift=${giftId}`);
    await paypal.settled();
    expect(events()).toContain("BILLING.SUBSCRIPTION.UPDATED");
    const plan = (await h.gql("{ regularGifts { amountCents pendingAmountCents } }", {}, donor.access)).json.data;
    expect(plan.regularGifts[0]).toEqual({ amountCents: 4_000, pendingAmountCents: null });
    const sub = await subscription();
    expect(sub.planOverridden).toBe(true);
    expect(sub.plan?.billingCycles?.[0]?.pricingScheme?.fixedPrice?.value).toBe("40.00");
    paypal.chargeSubscriptionCycle(subscriptionId);
    await paypal.settled();
    history = await h.gql("{ donations { totalCents chargeNumber } }", {}, donor.access);
    expect(history.json.data.donations[0]).toEqual({ totalCents: 4_000, chargeNumber: 3 });
  });

  it("a forged BILLING.SUBSCRIPTION.UPDATED settles nothing", async () => {
    await change("changeRegularGiftAmount(id: $id, amountCents: 9000) { changed }");
    const body = JSON.stringify({
      id: "WH-FORGED",
      event_type: "BILLING.SUBSCRIPTION.UPDATED",
      resource: { id: subscriptionId },
    });
    const forged = await raw(
      `${h.service.url}/paypal/webhook`,
      "POST",
      {
        "content-type": "application/json",
        "paypal-transmission-id": "x",
        "paypal-transmission-time": new Date().toISOString(),
        "paypal-transmission-sig": "AAAA",
        "paypal-cert-url": `${paypal.url}/v1/notifications/certs/CERT-forged`,
        "paypal-auth-algo": "SHA256withRSA",
      },
      body,
    );
    expect(forged.status).toBe(400);
    const plan = (await h.gql("{ regularGifts { amountCents pendingAmountCents } }", {}, donor.access)).json.data;
    expect(plan.regularGifts[0]).toEqual({ amountCents: 4_000, pendingAmountCents: 9_000 });
  });

  it("offers no card change or skip for PayPal, and says where to change how the donor pays", async () => {
    const res = await h.gql("{ regularGifts { paymentMethod canSkip nextChargeDate } }", {}, donor.access);
    const [gift] = res.json.data.regularGifts;
    expect(gift).toMatchObject({ paymentMethod: "paypal", canSkip: false });
    const card = await change("changeRegularGiftCard(id: $id) { clientSecret }");
    expect(card.errors[0].extensions.code).toBe("CARD_CHANGE_UNAVAILABLE");
    expect(card.errors[0].message).toMatch(/in your PayPal account/);
    const skipped = await h.gql(
      "mutation($id: ID!, $date: String!) { skipRegularGiftCharge(id: $id, date: $date) { changed } }",
      { id: giftId, date: gift.nextChargeDate },
      donor.access,
    );
    expect(skipped.json.errors[0].extensions.code).toBe("SKIP_NOT_AVAILABLE");
    expect((await subscription()).status).toBe("ACTIVE");
  });

  it("cancel ends the subscription at PayPal, after the confirmation", async () => {
    const unconfirmed = await change("cancelRegularGift(id: $id, confirm: false) { changed }");
    expect(unconfirmed.errors[0].extensions.code).toBe("CONFIRMATION_REQUIRED");
    expect((await subscription()).status).toBe("ACTIVE");
    const cancelled = await change(`cancelRegularGift(id: $id, confirm: true) { ${FIELDS} }`);
    expect(cancelled.data.cancelRegularGift).toMatchObject({ changed: true, gift: { status: "CANCELLED" } });
    expect((await subscription()).status).toBe("CANCELLED");
  });

  it("PayPal down: nothing changes, and the donor is told", async () => {
    const res = await h.gql("{ regularGifts { id status } }", {}, other.access);
    expect(res.json.data.regularGifts[0].status).toBe("ACTIVE");
    await paypal.stop();
    const json = await change("pauseRegularGift(id: $id) { changed }", other.access, otherGiftId);
    expect(json.errors[0].extensions.code).toBe("PROVIDER_UNAVAILABLE");
    const after = await h.gql("{ regularGifts { status } }", {}, other.access);
    expect(after.json.data.regularGifts[0].status).toBe("ACTIVE");
  });
});
