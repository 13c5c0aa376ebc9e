/**
 * The attacker's tests, over HTTP: the account API must answer only to the token's `sub`. An
 * e-mail, whatever its spelling and whether or not the pool verified it, reads nothing and changes
 * nothing; a guest gift joins an account only when that account's donor, with the same e-mail
 * verified, asks for it. Everything the attackers try is checked again from the victim's side
 * afterwards: nothing moved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, type Harness, startAccountHarness } from "../support/account-api-harness.js";

let h: Harness;
let victim: Account;
let giftId: string;
const VICTIM = "kelvin@example.com";
const HISTORY = `{
  me { id email emailVerified }
  donations { id fund totalCents receipt { number donorName } }
  receipts { number }
  regularGifts { id status }
  taxSummary(financialYear: 2026) { deductibleTotalCents nonDeductibleTotalCents }
  claimableGuestGifts
}`;
const pause = `mutation($id: ID!) { pauseRegularGift(id: $id) { changed } }`;
const cancel = `mutation($id: ID!) { cancelRegularGift(id: $id, confirm: true) { changed } }`;
const change = `mutation($id: ID!) { changeRegularGiftAmount(id: $id, amountCents: 1000) { changed } }`;
const claim = `mutation($c: Boolean!) { claimGuestGifts(confirm: $c) { claimed message } }`;

/** Everything the attacker may try with one token; returns the answers for the test to judge. */
async function tryEverything(token: string) {
  const read = await h.gql(HISTORY, {}, token);
  const writes = [];
  for (const m of [pause, change, cancel]) writes.push(await h.gql(m, { id: giftId }, token));
  const claimed = await h.gql(claim, { c: true }, token);
  return { read, writes, claimed };
}

async function victimSeesEverything() {
  const res = await h.gql(HISTORY, {}, victim.access);
  expect(res.status, res.text).toBe(200);
  const data = res.json.data;
  expect(data.regularGifts).toEqual([{ id: giftId, status: "ACTIVE" }]);
  return data;
}

beforeAll(async () => {
  h = await startAccountHarness();
  victim = await h.signUp(VICTIM);
  // Signed in: a monthly sadaqah gift, filed under the victim's sub.
  await h.donate({ fund: "sadaqah", amountCents: 2_500, frequency: "monthly" }, "succeeded", victim.access);
  // As a guest, with the victim's e-mail: a zakat gift that belongs to nobody until claimed.
  await h.donate(
    {
      fund: "zakat",
      amountCents: 50_000,
      donor: { firstName: "Kelvin", lastName: "Aziz", email: VICTIM, phone: "0412 345 678" },
    },
    "succeeded",
  );
  giftId = (await h.gql("{ regularGifts { id } }", {}, victim.access)).json.data.regularGifts[0].id;
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

describe("the account API answers to the token's sub only", () => {
  it("a new user who typed the victim's e-mail and left it unverified reads nothing and changes nothing", async () => {
    const mallory = await h.signUp("mallory@example.com");
    await h.cognito.call("UpdateUserAttributes", {
      AccessToken: mallory.access,
      UserAttributes: [{ Name: "email", Value: VICTIM }],
    });
    // Her access token stays good; the pool now holds the victim's e-mail for her, not verified.
    const { read, writes, claimed } = await tryEverything(mallory.access);
    expect(read.status, read.text).toBe(200);
    expect(read.json.data).toEqual({
      me: { id: mallory.sub, email: VICTIM, emailVerified: false },
      donations: [],
      receipts: [],
      regularGifts: [],
      taxSummary: { deductibleTotalCents: 0, nonDeductibleTotalCents: 0 },
      claimableGuestGifts: 0,
    });
    for (const w of writes) expect(w.json.errors[0].extensions.code).toBe("GIFT_NOT_FOUND");
    expect(claimed.json.errors[0].extensions.code).toBe("EMAIL_NOT_VERIFIED");

    // An ID token, which carries an e-mail, is not accepted at all.
    const withId = await h.gql(HISTORY, {}, mallory.id);
    expect(withId.status).toBe(401);
    expect(withId.json.data).toBeUndefined();

    const victimData = await victimSeesEverything();
    expect(victimData.donations.map((d: { fund: string }) => d.fund)).toEqual(["sadaqah"]);
    expect(victimData.claimableGuestGifts).toBe(1);
  });

  it("a verified Kelvin-sign (U+212A) e-mail is another mailbox: it reads nothing and claims nothing", async () => {
    const kelvinSign = await h.signUp("\u212Aelvin@example.com");
    // Verified, as if the attacker could read mail sent to that address.
    await h.cognito.call("AdminUpdateUserAttributes", {
      UserPoolId: h.cognito.userPoolId,
      Username: kelvinSign.sub,
      UserAttributes: [
        { Name: "email", Value: "\u212Aelvin@example.com" },
        { Name: "email_verified", Value: "true" },
      ],
    });
    const { read, writes, claimed } = await tryEverything(kelvinSign.access);
    expect(read.status, read.text).toBe(200);
    expect(read.json.data.me).toEqual({ id: kelvinSign.sub, email: "\u212Aelvin@example.com", emailVerified: true });
    expect(read.json.data.donations).toEqual([]);
    expect(read.json.data.regularGifts).toEqual([]);
    expect(read.json.data.claimableGuestGifts).toBe(0);
    for (const w of writes) expect(w.json.errors[0].extensions.code).toBe("GIFT_NOT_FOUND");
    expect(claimed.json.data.claimGuestGifts.claimed).toBe(0);

    const victimData = await victimSeesEverything();
    expect(victimData.claimableGuestGifts).toBe(1);
  });

  it("the victim, signed in with the verified e-mail, adds the guest gift only when asking, and once", async () => {
    const unconfirmed = await h.gql(claim, { c: false }, victim.access);
    expect(unconfirmed.json.errors[0].extensions.code).toBe("CONFIRMATION_REQUIRED");
    expect((await victimSeesEverything()).donations).toHaveLength(1);

    const yes = await h.gql(claim, { c: true }, victim.access);
    expect(yes.status, yes.text).toBe(200);
    expect(yes.json.data.claimGuestGifts).toEqual({
      claimed: 1,
      message: `1 gift given with ${VICTIM} is now in your account.`,
    });
    const data = await victimSeesEverything();
    expect(data.donations.map((d: { fund: string }) => d.fund)).toEqual(["zakat", "sadaqah"]);
    // Made out to the name given with the gift.
    expect(data.donations[0].receipt.donorName).toBe("Kelvin Aziz");
    expect(data.claimableGuestGifts).toBe(0);
    expect((await h.gql(claim, { c: true }, victim.access)).json.data.claimGuestGifts.claimed).toBe(0);
  });

  it("a token of a signed-out session is refused, and the victim's other session still works", async () => {
    const other = await h.signIn(VICTIM);
    await h.cognito.call("GlobalSignOut", { AccessToken: other.access });
    const refused = await h.gql("{ donations { id } }", {}, other.access);
    expect(refused.status).toBe(401);
    expect(refused.json.errors[0].message).toMatch(/^The user is not authenticated/);
    const fresh = await h.signIn(VICTIM);
    expect((await h.gql("{ regularGifts { status } }", {}, fresh.access)).json.data.regularGifts).toEqual([
      { status: "ACTIVE" },
    ]);
  });

  it("a gift's id cannot be guessed from another", async () => {
    expect(giftId).toMatch(/^gift_don_[0-9a-f]{16,}$/);
    expect(h.logged.filter((l) => l.startsWith("error"))).toEqual([]);
  });
});
