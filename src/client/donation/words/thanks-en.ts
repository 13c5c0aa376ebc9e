/**
 * The thank-you page's words in English (see en.ts for how dictionaries are used). Words agree with
 * the fund: tainted wealth is purification, so it is thanked without any mention of reward or sadaqah.
 */
import type { Fund } from "../../../payments/types.js";
import type { Plural } from "../format.js";
import { en } from "./en.js";

export const thanksEn = {
  locale: en.locale,
  intlMoney: en.intlMoney,
  instalmentsEqual: en.instalmentsEqual,
  instalmentsUneven: en.instalmentsUneven,
  yourGift: "Your gift",
  checking: "Checking your payment…",
  noGiftHeading: "No recent gift to show",
  noGiftText: "There is no gift made from this browser just now to confirm here.",
  noGiftReceipt: "If you gave earlier, your receipt was sent to the e-mail address you gave. For a copy, ",
  contactLink: "contact our donor care team",
  /** Said after a link to a page only in English (src/client/link-lang.tsx); never shown on English pages. */
  inEnglish: "in English",
  giveNow: "Give now",
  errorHeading: "We could not check your payment",
  /** Shown instead of the payments client's English message when set (another language). */
  errorText: "",
  stripeSaysPaid: "Stripe reported your payment as successful; your receipt will arrive by e-mail with your reference.",
  mayHavePaid: "If your payment went through, your receipt will arrive by e-mail.",
  checkAgain: "Check again",
  /** Stripe said paid, the payments API does not show it yet (its record of the payment is late). */
  confirmingHeading: "We are confirming your payment",
  confirmingText:
    "Stripe reported your payment as successful, but our records do not show it yet. Please do not pay again: check again in a minute, or ",
  confirmingAfter: " with your reference {reference}.",
  thankYou: "Thank you",
  saved: "Your card is saved and your gift is set up.",
  received: "Your gift is received.",
  processing: "Your payment is being processed.",
  givenTo: "Given to",
  schedule: "Schedule",
  payment: "Payment",
  feeIncluded: ", including {fee} to cover the payment fee",
  feeIncludedEach: ", including {fee} each time to cover the payment fee",
  yourReference: "Your reference",
  receiptHeading: "Your receipt",
  receiptPending: "We will e-mail your receipt as soon as the payment has gone through.",
  receiptLater: "We e-mail a receipt after each payment is taken, the first on {date}.",
  receiptRecurring:
    "Your receipt for today's payment is on its way to your e-mail, and a receipt follows each later payment.",
  receiptOnce: "Your receipt is on its way to your e-mail. It has your reference number.",
  changeHeadingRecurring: "Changing or cancelling",
  changeHeadingOnce: "Need to change something?",
  manageBefore: "Pause it, change the amount or the card, or cancel it yourself under ",
  manageLink: "Regular gifts on your account page",
  manageAfter: " (sign in with the e-mail address you gave).",
  changeRemaining: "To change or cancel the remaining payments, ",
  changePayments: "To change or cancel the payments, ",
  changeRecurringAfter: " with your reference {reference}. We stop or change them before the next date.",
  changeOnce: "If anything is wrong, ",
  changeOnceAfter: " with your reference {reference}.",
  failedHeading: "Your payment did not go through",
  failedCancelled: "The payment was cancelled.",
  failedNotCharged: "Your card was not charged.",
  failedReference: " Reference {reference}.",
  goBack: "Go back to your gift and try again",
  goBackAfter: ": everything you entered is still there.",
  inAll: "{schedule}, {total} in all",
  everyFriday: "{amount} every Friday, from {from} until you cancel",
  eachMonth: "{amount} each month, from {from} until you cancel",
  onePayment: "One payment of {amount}, on {date}",
  severalPayments: { other: "{n} payments of {amount}, from {from} to {to}, {total} in all" } as Plural,
  fundNames: {
    zakat: "Zakat",
    fitr: "Zakat al-Fitr",
    fidyah: "Fidyah",
    sadaqah: "Sadaqah",
    qurban: "Qurban",
    ramadan: "Ramadan giving",
    "dhul-hijjah": "Dhul Hijjah giving",
    "tainted-wealth": "Disposal of tainted wealth (purification)",
    "jumuah-giving": "Jumuah giving",
  } satisfies Record<Fund, string> as Record<Fund, string>,
  /** The closing words: a prayer fitting the gift, or for tainted wealth a plain statement of use. */
  blessings: {
    zakat: "May Allah accept your zakat and bless the wealth that remains with you.",
    fitr: "May Allah accept your Zakat al-Fitr and your fasting.",
    fidyah: "May Allah accept your fidyah.",
    sadaqah: "May Allah accept your sadaqah and reward you for it.",
    qurban: "May Allah accept your qurban.",
    ramadan: "May Allah accept your giving this Ramadan and reward you for it.",
    "dhul-hijjah": "May Allah accept your giving in these blessed days and reward you for it.",
    "tainted-wealth":
      "Your wealth is purified of this amount. We use it only for public-benefit costs, never as zakat.",
    "jumuah-giving": "May Allah accept your Friday giving and reward you for it.",
  } satisfies Record<Fund, string> as Record<Fund, string>,
};

export type ThankYouWords = typeof thanksEn;
