/**
 * The account page as PayPal's window leaves it: after a donor was asked to agree to a new amount
 * of a PayPal gift, PayPal sends them back to `/account/?paypal=agreed&gift=<id>` (or `cancelled`;
 * the service sets both from SITE_URL, src/api/paypal/plan-provider.ts). This says what happened
 * and what comes next, beside that gift. Nothing from the address is shown: only a gift id of the
 * expected shape picks the gift, and the words are ours. The amount itself changes only when
 * PayPal's signed webhook says so.
 */
export interface PayPalReturn {
  giftId: string;
  message: string;
}

const GIFT_ID = /^gift_[A-Za-z0-9_-]{1,100}$/;

export const PAYPAL_AGREED =
  "Thank you: you agreed to the new amount on PayPal. It shows here as your gift's amount once PayPal confirms it to us, usually within a few minutes.";
export const PAYPAL_CANCELLED =
  "You did not agree to the new amount on PayPal, so nothing has changed: your gift stays as it was.";

export function paypalReturnOf(search: string): PayPalReturn | null {
  const params = new URLSearchParams(search);
  const result = params.get("paypal");
  const giftId = params.get("gift") ?? "";
  if (!GIFT_ID.test(giftId)) return null;
  if (result === "agreed") return { giftId, message: PAYPAL_AGREED };
  if (result === "cancelled") return { giftId, message: PAYPAL_CANCELLED };
  return null;
}

/** Reads it once from the page's address and takes it out, so a reload does not say it again. */
export function takePayPalReturn(): PayPalReturn | null {
  if (typeof window === "undefined") return null;
  const found = paypalReturnOf(window.location.search);
  if (found) {
    const url = new URL(window.location.href);
    url.searchParams.delete("paypal");
    url.searchParams.delete("gift");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }
  return found;
}
