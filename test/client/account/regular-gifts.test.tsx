/**
 * A regular gift's buttons as the account page draws them: a card gift offers "Skip next payment";
 * a PayPal gift, which PayPal cannot skip one payment of, has no such button and says to pause it
 * instead, with the Pause button there. Both say how they are paid.
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { GiftData } from "../../../src/client/account/giving-queries.js";
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
