/**
 * The donation form's own words in English (the fund's text and titles come from the content). The
 * template picks the page language's dictionary (index.ts) and hands it to the island as a prop, so
 * the island's code carries no dictionary and the server and the browser render the same words.
 * `{name}` marks a value filled in (fill() in format.ts). Validation messages: English uses the
 * shared validator's own (src/payments/validate.ts), so `errors` is empty here and another language
 * gives one per error code.
 */
import type { Frequency, Fund } from "../../../payments/types.js";
import type { Plural } from "../format.js";

export const en = {
  /** BCP 47 tag for dates and amounts; Latin digits in every language (as the donor types them). */
  locale: "en-AU",
  /** False: amounts as the validator writes them ("$1,250.00"); true: Intl's currency format for `locale`. */
  intlMoney: false,
  giveNow: "Give now",
  /** Under the form, from the fund's one tax-deductibility setting (src/payments/fund-rules.ts). */
  taxDeductible: "Gifts to this fund are tax-deductible; your receipt says so.",
  notTaxDeductible: "Gifts to this fund are not tax-deductible; your receipt is for your records.",
  formLabel: "Donation form",
  noScript: "Our secure card form needs JavaScript. To give another way, ",
  noScriptLink: "contact our donor care team",
  /** Said after a link to a page only in English (src/client/link-lang.tsx); never shown on English pages. */
  inEnglish: "in English",
  noScriptAfter: " by phone or e-mail.",
  unavailableTitle: "Online card payments are not available on this copy of the site.",
  unavailableBefore: "To give today, ",
  unavailableLink: "contact our donor care team",
  unavailableAfter:
    " by phone or e-mail: they can take your gift over the phone or send you our bank details with a reference for your receipt.",
  givenTitle: "You have already given — give again?",
  givenText: "Your gift went through and your receipt is on its way by e-mail. To make another gift, start a new one.",
  givenTextWithReference:
    "Your gift (reference {reference}) went through and your receipt is on its way by e-mail. To make another gift, start a new one.",
  giveAgain: "Give again",
  // The gift
  yourGift: "Your gift",
  whereItGoes: "Where your gift goes",
  pleaseNote: "Please note: ",
  taintedNote:
    "This is purification, not zakat or sadaqah: give it away without expecting reward. It is not counted as your zakat and is not tax-deductible.",
  chooseUnit: "Choose your {unit}",
  numberOf: "Number of {units}",
  perUnit: "{price} per {unit}, from {min} to {max}.",
  suggestedAmounts: "Suggested amounts",
  amountLabel: "Amount (AUD)",
  amountHint: "Choose an amount above or enter your own, from {min}.",
  amountHintInstalments: "Your whole zakat for the year: we split it into the monthly payments you choose below.",
  howOften: "How often",
  frequencies: {
    once: "One-off",
    monthly: "Monthly, until you cancel",
    "monthly-instalments": "In monthly instalments",
    "weekly-friday": "Every Friday",
    "ramadan-nightly": "Every night of Ramadan",
    "ramadan-last-ten": "The last ten nights of Ramadan",
    "dhul-hijjah-ten-days": "Each of the ten days of Dhul Hijjah",
  } satisfies Record<Frequency, string>,
  splitInto: "Split into",
  splitHint: "Payments stop when your whole gift is paid. The first is today, then one each month.",
  monthlyPayments: { one: "{n} monthly payment", other: "{n} monthly payments" } as Plural,
  /** Singular and plural of what fitr, fidyah and qurban count, when the content names none. */
  units: {
    fitr: ["person", "people"],
    fidyah: ["day", "days"],
    qurban: ["animal", "animals"],
  } satisfies Partial<Record<Fund, [string, string]>>,
  // The donor
  yourDetails: "Your details",
  detailsHint: "We send your receipt by e-mail. All fields are required unless marked optional.",
  firstName: "First name",
  lastName: "Last name",
  email: "E-mail address",
  phone: "Phone number",
  anonymous: "Give anonymously",
  anonymousHint: "We will keep your name off any public acknowledgement. Your receipt still has it.",
  /** The consent a donor gives by ticking the box: sent with the sign-up and kept with it (issue 39). */
  keepUpdated: "Keep me updated: send me the foundation's news and appeals by e-mail. I can unsubscribe at any time.",
  updatesConfirm: "To start your e-mail updates, follow the link we have sent to {email}.",
  updatesFailed: "We could not sign you up for e-mail updates ({detail}). Your gift is not affected.",
  dedication: "Dedication",
  dedicationHint: 'For example "On behalf of my late father". Up to {max} characters.',
  /** The dedication's hint while the donor nears the limit: counted as they type. */
  charactersUsed: "{n} of {max} characters.",
  optional: "(optional)",
  addressLegend: "Postal address for the receipt",
  line1: "Street address",
  line2: "Unit, building or floor",
  suburb: "Suburb or town",
  state: "State or territory",
  stateElsewhere: "State, province or region",
  choose: "Choose…",
  postcode: "Postcode",
  country: "Country",
  australia: "Australia",
  /** Names of the Australian states by code; empty in English (states.ts has them). */
  stateNames: {} as Record<string, string>,
  // Fee, summary, actions
  cardFee: "Payment fee",
  coverFee: "Add {fee} to cover the payment fee",
  /** A gift charged more than once: the fee on each charge, which the summary charges. */
  coverFeeEach: "Add {fee} to each payment to cover the payment fee",
  /** …and, for a schedule with an end, the fees in all. */
  coverFeeEachTotal: "Add {fee} to each payment to cover the payment fee, {total} in all",
  /** Instalments whose last payment is larger, so its fee may be a cent more. */
  coverFeeUneven: "Add {fee} to each payment ({last} to the last) to cover the payment fee, {total} in all",
  coverFeeUnknown: "Cover the payment fee",
  coverFeeHint: "So that we receive your whole gift. Payment fees are 1.7% + 30c.",
  coverFeeHintInstalments: "So that we receive your whole gift: added to each payment. Payment fees are 1.7% + 30c.",
  summary: "Summary",
  planStop: ". They stop when your {gift} is paid.",
  wholeGift: "Your whole gift",
  giftOnce: "Your gift",
  giftEachMonth: "Your gift each month",
  giftEachTime: "Your gift each time",
  feeCovered: "Payment fee you are covering",
  totalCharged: "Total charged",
  chargedEachTime: "Charged each time",
  totalOver: { one: "Total over {n} charge", other: "Total over {n} charges" } as Plural,
  chargedOn: "Charged on",
  today: "Today",
  /**
   * Today when the donor's own date is not Sydney's, the date the payments backend charges on (a
   * donor in Perth late in the evening): the date itself, said to be Sydney's.
   */
  todayDated: "{date} (today in Sydney)",
  chargedOnThenUntilCancel: "Charged on these dates, then on until you cancel",
  andSoOn: "and so on, until you cancel",
  instalmentsEqual: { other: "{n} payments of {amount}, from {from} to {to}" } as Plural,
  instalmentsUneven: {
    other: "{n} payments, from {from} to {to}: {rest} of {amount} and a last one of {last}",
  } as Plural,
  continue: "Continue to payment",
  preparing: "Preparing secure payment…",
  tryAgain: "Try again",
  nothingYet: "Nothing is charged until you confirm on the next step.",
  somethingWrong: "Something went wrong ({detail}). Nothing was charged. Please try again.",
  // How to pay (PayPal offered only when the build has a PayPal client ID)
  howToPay: "How to pay",
  payByCard: "Card",
  payByPayPal: "PayPal",
  paypalCardsOnly: "{schedule}: paid by card only. PayPal takes one-off, monthly and instalment gifts.",
  paypalHeading: "Pay with PayPal",
  paypalHintOnce: "PayPal opens in its own window; nothing is charged until you approve the payment there.",
  paypalHintMonthly:
    "PayPal opens in its own window to set up the monthly payments; nothing is charged until you approve them there.",
  loadingPayPal: "Loading PayPal…",
  loadPayPalAgain: "Load PayPal again",
  payByCardInstead: "Pay by card instead",
  // The card step
  checkAndPay: "Check your gift and pay",
  /** Under the summary at the card step: a mistyped address shows here, before paying. */
  receiptTo: "We will e-mail your receipt to {email}.",
  cardDetails: "Card details",
  referenceBefore: "Reference ",
  referenceAfter: ". Your card is handled by Stripe; we never see its number.",
  loadingCard: "Loading the secure card form…",
  checkCard: "Please check your card details.",
  notThrough: "Your payment did not go through.",
  notSaved: "Your card could not be saved.",
  declinedAdvice: "{reason} Nothing was charged. Check the details or use another card, then try again.",
  notCompleted: "Your payment could not be completed ({detail}). Nothing was charged. Please try again.",
  saveCard: "Save card for {amount} from {date}",
  firstDate: "the first date",
  giveNowOf: "Give {amount} now, payment 1 of {count}",
  giveAmount: "Give {amount}",
  processing: "Processing…",
  changeGift: "Change my gift or details",
  /**
   * Messages for the validator's error codes, by "field:code" or by code alone; values as {min},
   * {max}, {units}. Empty in English: the validator's own messages are English.
   */
  errors: {} as Record<string, string>,
  /** The payments API client's and Stripe loader's messages, by kind; empty in English (theirs are). */
  failures: {} as Partial<Record<FailureKind, string>>,
};

/** What can go wrong before the card step, as the donor is told it. */
export type FailureKind =
  | "network"
  | "timeout"
  | "server"
  | "unavailable"
  | "rateLimited"
  | "badResponse"
  | "stripeFailedToLoad"
  | "stripeNotAvailable";

export type DonationWords = typeof en;
