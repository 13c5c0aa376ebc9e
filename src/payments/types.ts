/**
 * The payments API contract as TypeScript types (docs/payments-api.md is the prose version).
 * Shared by the browser client, the donation island and the local dev server, so the three cannot
 * drift. Browser-safe: nothing here imports from Node.
 */

/**
 * The funds a donor can give to (the `/pay/<fund>/` pages), in the order a donor sees them on /pay,
 * each with the Prismic type of its page: the one list both spellings come from.
 */
export const FUND_TYPES = {
  zakat: "zakat",
  fitr: "fitr",
  fidyah: "fidyah",
  sadaqah: "sadaqah",
  qurban: "qurban",
  ramadan: "ramadan",
  "dhul-hijjah": "dhul_hijjah",
  "tainted-wealth": "tainted_wealth",
  "jumuah-giving": "jumuah_giving",
} as const;
export type Fund = keyof typeof FUND_TYPES;
export const FUNDS = Object.keys(FUND_TYPES) as Fund[];

/** The fund whose donation page a document of this Prismic type is. */
export function fundOfType(type: string): Fund | undefined {
  return FUNDS.find((fund) => FUND_TYPES[fund] === type);
}

export const FREQUENCIES = [
  "once",
  "monthly",
  "monthly-instalments",
  "weekly-friday",
  "ramadan-nightly",
  "ramadan-last-ten",
  "dhul-hijjah-ten-days",
] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** Frequencies tied to an Islamic season whose Gregorian dates the editors enter (moon sighting). */
export const SEASONAL_FREQUENCIES = ["ramadan-nightly", "ramadan-last-ten", "dhul-hijjah-ten-days"] as const;

export type Currency = "AUD";

/** A calendar date, `YYYY-MM-DD`, with no time of day or time zone. */
export type IsoDate = string;

/** The Gregorian dates of a season: its first night/day and how many nights/days it has. */
export interface Season {
  start: IsoDate;
  /** Ramadan: 29 or 30 nights. Dhul Hijjah ten days: 10. */
  length: number;
}

export interface DonorAddress {
  line1: string;
  line2?: string;
  suburb: string;
  state?: string;
  postcode: string;
  /** ISO 3166-1 alpha-2, e.g. "AU". */
  country: string;
}

export interface Donor {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address?: DonorAddress;
}

/**
 * Fitr (people), fidyah (days) and qurban (animals): the gift is count × unit price. `unitCents` is
 * the price the donor was shown; the backend charges only its own price and refuses a different
 * one (`price_changed`). Qurban is option-priced: `optionId` names the animal by its `code`.
 */
export interface Quantity {
  count: number;
  unitCents: number;
  /** Option-priced funds only (qurban): the chosen option's code, e.g. "lamb-australia". */
  optionId?: string;
}

/** `POST /donations` request body. */
export interface DonationRequest {
  fund: Fund;
  /** The gift for one charge, in cents, before any fees. For quantity funds: count × unitCents. */
  amountCents: number;
  currency: Currency;
  frequency: Frequency;
  quantity?: Quantity;
  /** Required for the seasonal frequencies. */
  season?: Season;
  donor: Donor;
  /** Keep the donor's name off public acknowledgements; the receipt still carries it. */
  anonymous: boolean;
  dedication?: string;
  coverFees: boolean;
  /**
   * Frequency `monthly-instalments` only (and then required): the gift is `amountCents` in total
   * (a year's zakat), paid in `count` monthly payments that stop when it is paid.
   */
  instalments?: { count: number };
  /** "paypal" for a gift paid through PayPal (src/payments/paypal.ts); absent for a card. */
  paymentMethod?: "card" | "paypal";
}

/** A finite monthly plan: the whole gift, how many payments, the last date. */
export interface InstalmentPlan {
  count: number;
  /** The whole gift before fees (the request's amountCents). */
  giftCents: number;
  /** The date of the last payment. */
  endDate: IsoDate;
}

export interface ScheduledCharge {
  date: IsoDate;
  amountCents: number;
}

/** What a donation charges, as both responses report it. */
export interface DonationCharges {
  donationId: string;
  reference: string;
  currency: Currency;
  frequency: Frequency;
  /**
   * Per charge: the gift, the covered fee (0 without coverFees) and what the card is charged. For
   * instalments these are the first (regular) payment's; the last one carries any cents left over,
   * and `schedule` has each payment's own amount.
   */
  amountCents: number;
  feeCents: number;
  totalCents: number;
  /** Every charge of a finite schedule; the first charges of an open-ended one (monthly, weekly). */
  schedule: ScheduledCharge[];
  /** True for monthly and weekly: charges continue until the donor cancels. */
  openEnded: boolean;
  /** The sum of all charges of a finite schedule; null when open-ended. */
  scheduleTotalCents: number | null;
  /** Frequency `monthly-instalments` only. */
  instalments?: InstalmentPlan;
}

/** `POST /donations` 201 response body. */
export interface DonationCreated extends DonationCharges {
  /** The Stripe intent's client secret; "" for a PayPal gift (no Stripe intent is made). */
  clientSecret: string;
  /** "paypal" when the request asked for PayPal: pay with the PayPal calls, not the Payment Element. */
  paymentMethod?: "paypal";
  /** "payment": the first charge is today (PaymentIntent). "setup": the first charge is later (SetupIntent). */
  intentType: "payment" | "setup";
}

/**
 * Where a donation stands, as the signed Stripe (or PayPal) events left it: `refunded` and
 * `disputed` follow a `succeeded` one when the money went back or the donor's bank contested it.
 */
export const DONATION_STATUSES = [
  "succeeded",
  "processing",
  "requires_payment_method",
  "failed",
  "refunded",
  "disputed",
] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];

/** `GET /donations/{id}` 200 response body: what the thank-you page shows. No donor details. */
export interface DonationState extends DonationCharges {
  status: DonationStatus;
  /** "paypal" for a gift paid through PayPal. */
  paymentMethod?: "paypal";
  fund: Fund;
  createdAt: string;
}

/** One problem with one field; `field` is a dotted path into the request (e.g. "donor.email"). */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** Every error response: `{ "error": { ... } }`. */
export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    /** The first field at fault, when there is one. */
    field?: string;
    /** Every field at fault (400 validation_failed). */
    fields?: FieldError[];
  };
}
