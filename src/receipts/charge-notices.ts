/**
 * The e-mails about a scheduled gift that are not receipts: a charge the bank declined (what
 * happened, when we try again, what the donor can do), the plan paused after the last retry was
 * declined too, and dates moved because Ramadan's or Dhul Hijjah's start changed (a moon sighting).
 * Words only (pure, browser-safe): the payments service decides when, and keys each so it is sent once.
 */
import { fundName } from "../payments/fund-names.js";
import type { Notice } from "./notice.js";
import { type ReceiptIssuer, receiptMoney } from "./receipt.js";
import { formatAbn } from "./abn.js";

export interface ChargeNoticeGift {
  donationId: string;
  reference: string;
  fund: string;
  frequency: string;
  donorFirstName: string;
  donorEmail: string;
}

const GIFTS: Record<string, string> = {
  "weekly-friday": "every-Friday gift",
  "ramadan-nightly": "gift for every night of Ramadan",
  "ramadan-last-ten": "gift for the last ten nights of Ramadan",
  "dhul-hijjah-ten-days": "gift for the first ten days of Dhul Hijjah",
};
const giftName = (frequency: string) => GIFTS[frequency] ?? "regular gift";
/** "every-Friday gift to Jumu'ah giving"; "gift for every night of Ramadan" (not "… to Ramadan" again). */
const giftTo = (frequency: string, fund: string) => {
  const gift = giftName(frequency);
  return gift.includes(fund) ? gift : `${gift} to ${fund}`;
};

const LONG_DATE = new Intl.DateTimeFormat("en-AU", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
/** "11 December 2026" from `2026-12-11` (a calendar date: no time zone may shift it). */
export const longDate = (date: string) => LONG_DATE.format(new Date(`${date}T00:00:00Z`));

/** "12, 14 and 18 December 2026"-like lists kept simple: each date in full. */
const dateList = (dates: string[]) => {
  const long = dates.map(longDate);
  return long.length <= 1 ? (long[0] ?? "") : `${long.slice(0, -1).join(", ")} and ${long.at(-1)}`;
};

/** What the bank's decline code means for the donor, in plain words. */
export function declineReason(code: string | null | undefined): string {
  switch (code) {
    case "insufficient_funds":
      return "The bank said there were not enough funds on the card.";
    case "expired_card":
      return "The card has expired.";
    case "authentication_required":
      return "The bank asked you to confirm the payment, which cannot be done while you are away.";
    case "incorrect_cvc":
    case "incorrect_number":
      return "The bank did not accept the card's details.";
    case "lost_card":
    case "stolen_card":
    case "pickup_card":
      return "The bank no longer accepts this card.";
    default:
      return "The bank declined the payment without giving a reason.";
  }
}

function footer(issuer: ReceiptIssuer): string {
  const contact = issuer.contactEmail ? ` Questions: reply to this e-mail or write to ${issuer.contactEmail}.` : "";
  return `${issuer.name} (ABN ${formatAbn(issuer.abn)}). You receive this because you set up a regular gift with us.${contact}`;
}

function whatToDo(accountUrl: string | undefined): string {
  return accountUrl
    ? "To use another card, sign in to your account and choose Change card for this gift. If the card is fine, your bank can tell you why it declined the payment."
    : "To use another card, sign in to your account on our website and choose Change card for this gift. If the card is fine, your bank can tell you why it declined the payment.";
}

export interface DeclinedNotice {
  gift: ChargeNoticeGift;
  chargeDate: string;
  amountCents: number;
  declineCode: string | null;
  /** The dates still to try; empty when this was the last try. */
  retryDates: string[];
  issuer: ReceiptIssuer;
  accountUrl?: string;
}

/** The first decline of a charge: what happened, when we try again, what to do. */
export function declinedChargeNotice(n: DeclinedNotice): Notice {
  const fund = fundName(n.gift.fund);
  const amount = receiptMoney(n.amountCents);
  return {
    key: `declined:${n.gift.donationId}/${n.chargeDate}`,
    to: n.gift.donorEmail,
    subject: `Your ${amount} gift to ${fund} did not go through`,
    heading: "Your gift did not go through",
    paragraphs: [
      `Assalamu alaikum ${n.gift.donorFirstName}. On ${longDate(n.chargeDate)} we tried to charge ${amount} for your ${giftTo(n.gift.frequency, fund)}, and your bank declined it. ${declineReason(n.declineCode)} Nothing was taken from your card.`,
      `We will try again on ${dateList(n.retryDates)}. If the last try is declined too, we will pause your gift: nothing more is charged until you resume it in your account.`,
      whatToDo(n.accountUrl),
    ],
    rows: [
      { label: "Amount", value: amount },
      { label: "Fund", value: fund },
      { label: "Charge date", value: longDate(n.chargeDate) },
      { label: "Next try", value: longDate(n.retryDates[0] ?? n.chargeDate) },
      { label: "Donation reference", value: n.gift.reference },
    ],
    ...(n.accountUrl ? { action: { label: "Change the card in your account", url: n.accountUrl } } : {}),
    footer: footer(n.issuer),
  };
}

export interface PausedNotice {
  gift: ChargeNoticeGift;
  chargeDate: string;
  amountCents: number;
  declineCode: string | null;
  /** Every try of that charge, the first included. */
  triedOn: string[];
  issuer: ReceiptIssuer;
  accountUrl?: string;
}

/** The last retry was declined: the plan is paused, not cancelled. */
export function pausedPlanNotice(n: PausedNotice): Notice {
  const fund = fundName(n.gift.fund);
  const amount = receiptMoney(n.amountCents);
  return {
    key: `paused:${n.gift.donationId}/${n.chargeDate}`,
    to: n.gift.donorEmail,
    subject: `We have paused your gift to ${fund}`,
    heading: "Your gift is paused",
    paragraphs: [
      `Assalamu alaikum ${n.gift.donorFirstName}. Your bank declined the ${amount} charge of ${longDate(n.chargeDate)} for your ${giftTo(n.gift.frequency, fund)} each time we tried (${dateList(n.triedOn)}). ${declineReason(n.declineCode)}`,
      "So we have paused your gift rather than keep trying: nothing more will be charged, and it is not cancelled. That charge was not taken.",
      `${whatToDo(n.accountUrl)} Then resume the gift in your account: the next charge is taken on its usual date.`,
    ],
    rows: [
      { label: "Amount not charged", value: amount },
      { label: "Fund", value: fund },
      { label: "Charge date", value: longDate(n.chargeDate) },
      { label: "Donation reference", value: n.gift.reference },
    ],
    ...(n.accountUrl ? { action: { label: "Go to your account", url: n.accountUrl } } : {}),
    footer: footer(n.issuer),
  };
}

export interface MovedNotice {
  gift: ChargeNoticeGift;
  /** The season's new first night or day, and the dates now charged (those still to come). */
  seasonStart: string;
  seasonLength: number;
  before: string[];
  after: string[];
  amountCents: number;
  issuer: ReceiptIssuer;
  accountUrl?: string;
}

/** The season's dates changed (a moon sighting): the gift's remaining charges moved with them. */
export function movedDatesNotice(n: MovedNotice): Notice {
  const fund = fundName(n.gift.fund);
  const ramadan = n.gift.frequency.startsWith("ramadan");
  const season = ramadan ? "Ramadan" : "Dhul Hijjah";
  const first = n.after[0];
  return {
    key: `moved:${n.gift.donationId}/${n.seasonStart}/${n.seasonLength}`,
    to: n.gift.donorEmail,
    subject: `New dates for your ${season} gift to ${fund}`,
    heading: `${season}'s dates have changed`,
    paragraphs: [
      `Assalamu alaikum ${n.gift.donorFirstName}. ${season} now begins on ${longDate(n.seasonStart)}, so your ${giftTo(n.gift.frequency, fund)} moves with it: ${n.after.length} charge${n.after.length === 1 ? "" : "s"} of ${receiptMoney(n.amountCents)}${first ? `, from ${longDate(first)} to ${longDate(n.after.at(-1)!)}` : ""}.`,
      "You do not need to do anything. You can pause or cancel the gift in your account at any time.",
    ],
    rows: [
      {
        label: "Dates before",
        value: n.before.length ? `${longDate(n.before[0]!)} to ${longDate(n.before.at(-1)!)}` : "none",
      },
      { label: "Dates now", value: first ? `${longDate(first)} to ${longDate(n.after.at(-1)!)}` : "none" },
      { label: "Each charge", value: receiptMoney(n.amountCents) },
      { label: "Donation reference", value: n.gift.reference },
    ],
    ...(n.accountUrl ? { action: { label: "See the gift in your account", url: n.accountUrl } } : {}),
    footer: footer(n.issuer),
  };
}
