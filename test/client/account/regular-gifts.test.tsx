/**
 * A regular gift's buttons as the account page draws them: a card gift offers "Skip next payment";
 * a PayPal gift, which PayPal cannot skip one payment of, has no such button and says to pause it
 * instead, with the Pause button there. Both say how they are paid.
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { GiftData } from "../../../src/client/account/giving-queries.js";
import { PAYPAL_AGREED, PAYPAL_CANCELLED, paypalReturnOf } from "../../../src/client/account/paypal-return.js";
import { PAYPAL_NO_SKIP, RegularGifts } from "../../../src/client/account/regular-gifts.js";

const gift = (over: Partial<GiftData>): GiftData => ({
  id: "gift_a",
  reference: "NZF-AAAA-BBBB",
  fund: "sadaqah",
  schedule: "monthly",
  openEnded: true,
  amountCents: 2_500,
  feeCents: 0,
  totalCents: 2_500,
  coversFees: false,
  status: "ACTIVE",
  nextChargeDate: "2026-12-28",
  endDate: null,
  startDate: "2026-11-28",
  paidCount: 1,
  chargeCount: null,
  scheduleTotalCents: null,
  pendingAmountCents: null,
  canSkip: true,
  canPause: true,
  afterSkip: { nextChargeDate: "2027-01-28", endDate: null },
  paymentMethod: "card",
  paidWith: "Visa ending 4242, expires 12/2030",
  ...over,
});
const changeGift = async () => ({ message: "" });
const html = (g: GiftData) => renderToString(<RegularGifts gifts={[g]} changeGift={changeGift} />);

describe("a regular gift's actions", () => {
  it("a card gift offers to skip its next payment and says which card pays it", () => {
    const page = html(gift({}));
    expect(page).toContain("Skip next payment");
    expect(page).not.toContain(PAYPAL_NO_SKIP);
    expect(page).toContain("Visa ending 4242, expires 12/2030");
  });

  it("a PayPal gift has no skip: it says PayPal cannot, and offers Pause", () => {
    const page = html(gift({ paymentMethod: "paypal", canSkip: false, afterSkip: null, paidWith: "PayPal" }));
    expect(page).not.toContain("Skip next payment");
    expect(page).toContain(PAYPAL_NO_SKIP);
    expect(page).toMatch(/<button[^>]*>Pause<\/button>/);
    expect(page).toMatch(/Paid with<\/dt><dd>PayPal<\/dd>/);
  });

  it("a paused PayPal gift offers Resume, without the note", () => {
    const page = html(gift({ paymentMethod: "paypal", canSkip: false, status: "PAUSED", paidWith: "PayPal" }));
    expect(page).not.toContain(PAYPAL_NO_SKIP);
    expect(page).toMatch(/<button[^>]*>Resume<\/button>/);
  });
});

describe("back from PayPal's window about a new amount", () => {
  it("reads only its own two answers and a gift id of the expected shape; shows nothing from the address", () => {
    expect(paypalReturnOf("?paypal=agreed&gift=gift_abc-123")).toEqual({
      giftId: "gift_abc-123",
      message: PAYPAL_AGREED,
    });
    expect(paypalReturnOf("?paypal=cancelled&gift=gift_abc")).toEqual({
      giftId: "gift_abc",
      message: PAYPAL_CANCELLED,
    });
    expect(paypalReturnOf("?paypal=agreed&gift=<script>alert(1)</script>")).toBeNull();
    expect(paypalReturnOf("?paypal=hacked&gift=gift_abc")).toBeNull();
    expect(paypalReturnOf(`?paypal=agreed&gift=gift_${"a".repeat(500)}`)).toBeNull();
    expect(paypalReturnOf("")).toBeNull();
  });

  it("the gift it names says what happened; the others say nothing", () => {
    const paypal = gift({
      id: "gift_pp",
      paymentMethod: "paypal",
      canSkip: false,
      afterSkip: null,
      paidWith: "PayPal",
    });
    const card = gift({ id: "gift_card" });
    const page = renderToString(
      <RegularGifts
        gifts={[paypal, card]}
        changeGift={changeGift}
        returned={{ giftId: "gift_pp", message: PAYPAL_AGREED }}
      />,
    );
    // The sentence as rendered (its apostrophe escaped): once, in the PayPal gift, before the card gift.
    const shown = PAYPAL_AGREED.replaceAll("'", "&#x27;");
    expect(page.split(shown)).toHaveLength(2);
    expect(page.indexOf(shown)).toBeLessThan(page.indexOf("Visa ending 4242"));
  });

  it("card instalments without a Stripe schedule yet offer no Pause, and say when they can", () => {
    const page = html(
      gift({ schedule: "monthly-instalments", openEnded: false, canPause: false, nextChargeDate: "2027-01-15" }),
    );
    expect(page).not.toMatch(/<button[^>]*>Pause<\/button>/);
    expect(page).toContain("This plan can be paused once its first payment is made. To stop the plan, cancel it.");
    expect(page).toContain("Skip next payment");
    // A plan that bills offers it.
    expect(html(gift({}))).toMatch(/<button[^>]*>Pause<\/button>/);
  });
});
