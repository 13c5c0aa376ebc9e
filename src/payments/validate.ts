/**
 * Donation validation, the same rules in the browser (beside each field, before any request) and in
 * the backend (which trusts nothing). `validateDonation` takes the form as the donor typed it;
 * `validateDonationRequest` takes a `POST /donations` body. Both end in the same checks, so a
 * message the server returns reads exactly like the one the page would have shown.
 */
import type { FundRules } from "./fund-rules.js";
import { formatDollars, parseAmount, toAsciiDigits } from "./money.js";
import { checkSeason, MAX_INSTALMENTS, MIN_INSTALMENTS } from "./schedules.js";
import { PRICE_MESSAGES, priceFor, quantityOf } from "./pricing.js";
import type { PaymentMethod } from "./paypal.js";
import { PAYPAL_CARDS_ONLY, paypalFits } from "./paypal-schedules.js";
import { FREQUENCIES, FUNDS, SEASONAL_FREQUENCIES } from "./types.js";
import type { DonationRequest, Donor, DonorAddress, FieldError, Frequency, Fund, Season } from "./types.js";

import { MAX_DEDICATION_LENGTH, MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from "./field-limits.js";

export { MAX_DEDICATION_LENGTH, MAX_EMAIL_LENGTH, MAX_NAME_LENGTH };

export const MESSAGES = {
  amountRequired: "Enter an amount.",
  amountNotANumber: "Enter the amount as a number, like 50 or 50.25.",
  amountTooManyDecimals: "Enter the amount in dollars and cents, with no more than two decimal places.",
  amountNotAboveZero: "Enter an amount above $0, without a minus sign, like 50.",
  amountCommaGrouping:
    "Check the comma: put cents after a decimal point, like 1.20, and group thousands in threes, like 1,200.",
  instalmentsCount: `Choose from ${MIN_INSTALMENTS} to ${MAX_INSTALMENTS} monthly payments.`,
  instalmentTooSmall: (cents: number) =>
    `Each monthly payment must be at least ${formatDollars(cents)}: choose fewer payments.`,
  instalmentsNotAllowed: "Send instalments only with the monthly-instalments frequency.",
  belowMinimum: (cents: number) => `The minimum gift is ${formatDollars(cents)}.`,
  aboveMaximum: (cents: number) =>
    `The maximum gift online is ${formatDollars(cents)}. For a larger gift, please contact us.`,
  emailInvalid: "Enter an e-mail address, like name@example.com.",
  phoneInvalid: "Enter a phone number, like 0412 345 678.",
  postcodeInvalid: "Enter a 4-digit postcode.",
  frequencyNotAllowed: "Choose how often to give from the options shown.",
  dedicationTooLong: `Keep the dedication to ${MAX_DEDICATION_LENGTH} characters or fewer.`,
  tooLong: (what: string, max: number) => `Keep the ${what} to ${max} characters or fewer.`,
} as const;

const REQUIRED: Record<string, string> = {
  "donor.firstName": "Enter your first name.",
  "donor.lastName": "Enter your last name.",
  "donor.email": "Enter your e-mail address.",
  "donor.phone": "Enter your phone number.",
  "donor.address.line1": "Enter the street address.",
  "donor.address.suburb": "Enter the suburb or town.",
  "donor.address.postcode": "Enter the postcode.",
  "donor.address.country": "Choose the country.",
};

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE_DIGITS = /^\+?\d{8,15}$/;

/** The form as the donor filled it in: text as typed, before any conversion. */
export interface DonationForm {
  fund: Fund;
  /** Dollars as typed; ignored for quantity funds (fitr, fidyah, qurban). */
  amount?: string | number;
  /** For quantity funds: how many people / days / animals, as typed. */
  quantity?: string | number;
  /** For option-priced funds (qurban): the chosen option's code. */
  option?: string;
  frequency: Frequency;
  season?: Season;
  donor: Partial<Omit<Donor, "address">> & { address?: Partial<DonorAddress> };
  anonymous?: boolean;
  dedication?: string;
  coverFees?: boolean;
  /** Frequency monthly-instalments: how many payments, as chosen. */
  instalments?: string | number;
  /** "paypal" to pay through PayPal (one-off, monthly and instalment gifts only). */
  paymentMethod?: PaymentMethod;
}

export type ValidationResult = { ok: true; request: DonationRequest } | { ok: false; errors: FieldError[] };

const err = (field: string, code: string, message: string): FieldError => ({ field, code, message });
const text = (v: unknown): string => (typeof v === "string" ? v.trim() : "");

/** Amount range: the one check every path ends in. */
export function checkAmountCents(cents: number, rules: FundRules, field = "amount"): FieldError | null {
  if (cents < rules.minimumCents) return err(field, "below_minimum", MESSAGES.belowMinimum(rules.minimumCents));
  if (cents > rules.maximumCents) return err(field, "above_maximum", MESSAGES.aboveMaximum(rules.maximumCents));
  return null;
}

function checkDonor(donor: unknown): { donor: Donor; errors: FieldError[] } {
  const d = (donor && typeof donor === "object" ? donor : {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  const required = (field: string, value: unknown, max: number, what: string): string => {
    const v = text(value);
    if (v === "") errors.push(err(field, "required", REQUIRED[field]!));
    else if (v.length > max) errors.push(err(field, "too_long", MESSAGES.tooLong(what, max)));
    return v;
  };
  const firstName = required("donor.firstName", d.firstName, MAX_NAME_LENGTH, "first name");
  const lastName = required("donor.lastName", d.lastName, MAX_NAME_LENGTH, "last name");
  const email = required("donor.email", d.email, MAX_EMAIL_LENGTH, "e-mail address");
  if (email !== "" && email.length <= MAX_EMAIL_LENGTH && !EMAIL.test(email))
    errors.push(err("donor.email", "invalid_email", MESSAGES.emailInvalid));
  // Digits as an Arabic keyboard types them are the same number: kept (and sent to Stripe) in ASCII.
  const phone = toAsciiDigits(required("donor.phone", d.phone, 30, "phone number"));
  if (phone !== "" && phone.length <= 30 && !PHONE_DIGITS.test(phone.replace(/[\s().-]/g, ""))) {
    errors.push(err("donor.phone", "invalid_phone", MESSAGES.phoneInvalid));
  }
  const result: Donor = { firstName, lastName, email, phone };
  const a = d.address && typeof d.address === "object" ? (d.address as Record<string, unknown>) : undefined;
  // An address is optional, but one started must be complete enough to post a receipt to.
  if (a && Object.values(a).some((v) => text(v) !== "")) {
    const address: DonorAddress = {
      line1: required("donor.address.line1", a.line1, 200, "street address"),
      suburb: required("donor.address.suburb", a.suburb, 100, "suburb"),
      postcode: toAsciiDigits(required("donor.address.postcode", a.postcode, 10, "postcode")),
      country: required("donor.address.country", a.country || "AU", 2, "country code").toUpperCase(),
    };
    if (text(a.line2)) address.line2 = text(a.line2);
    if (text(a.state)) address.state = text(a.state);
    if (address.country === "AU" && address.postcode !== "" && !/^\d{4}$/.test(address.postcode)) {
      errors.push(err("donor.address.postcode", "invalid_postcode", MESSAGES.postcodeInvalid));
    }
    result.address = address;
  }
  return { donor: result, errors };
}

/** Frequency, season, quantity, dedication: the checks after the amount is known in cents. */
function checkRest(
  fields: { fund: Fund; frequency: unknown; season: unknown; dedication: unknown; donor: unknown },
  rules: FundRules,
  errors: FieldError[],
): Omit<DonationRequest, "amountCents" | "quantity" | "anonymous" | "coverFees" | "currency"> {
  const frequency = fields.frequency as Frequency;
  if (!FREQUENCIES.includes(frequency) || !rules.frequencies.includes(frequency)) {
    errors.push(err("frequency", "not_allowed", MESSAGES.frequencyNotAllowed));
  }
  let season: Season | undefined;
  if ((SEASONAL_FREQUENCIES as readonly string[]).includes(frequency)) {
    const problem = checkSeason(frequency, fields.season as Season | undefined);
    if (problem) errors.push(err("season", problem.code, problem.message));
    else season = { start: (fields.season as Season).start, length: (fields.season as Season).length };
  }
  const dedication = text(fields.dedication);
  if (dedication.length > MAX_DEDICATION_LENGTH) errors.push(err("dedication", "too_long", MESSAGES.dedicationTooLong));
  const { donor, errors: donorErrors } = checkDonor(fields.donor);
  errors.push(...donorErrors);
  return { fund: fields.fund, frequency, donor, ...(season ? { season } : {}), ...(dedication ? { dedication } : {}) };
}

function amountMessage(
  reason: "required" | "not_a_number" | "too_many_decimals" | "negative" | "comma_grouping",
): string {
  return {
    required: MESSAGES.amountRequired,
    not_a_number: MESSAGES.amountNotANumber,
    too_many_decimals: MESSAGES.amountTooManyDecimals,
    negative: MESSAGES.amountNotAboveZero,
    comma_grouping: MESSAGES.amountCommaGrouping,
  }[reason];
}

/**
 * Monthly instalments: a whole number of payments in range, each at least the fund's minimum.
 * Any other frequency must not carry a plan. `amountCents` is the whole gift (0 when unknown).
 */
function checkInstalments(
  frequency: unknown,
  count: unknown,
  amountCents: number,
  rules: FundRules,
  errors: FieldError[],
): { count: number } | undefined {
  const given = count !== undefined && count !== null && count !== "";
  if (frequency !== "monthly-instalments") {
    if (given) errors.push(err("instalments", "not_allowed", MESSAGES.instalmentsNotAllowed));
    return undefined;
  }
  const n =
    typeof count === "number"
      ? count
      : typeof count === "string" && /^\d+$/.test(count.trim())
        ? Number(count.trim())
        : NaN;
  if (!Number.isInteger(n) || n < MIN_INSTALMENTS || n > MAX_INSTALMENTS) {
    errors.push(err("instalments.count", "out_of_range", MESSAGES.instalmentsCount));
    return undefined;
  }
  if (amountCents > 0 && Math.floor(amountCents / n) < rules.minimumCents && amountCents >= rules.minimumCents) {
    errors.push(err("instalments.count", "below_minimum", MESSAGES.instalmentTooSmall(rules.minimumCents)));
    return undefined;
  }
  return { count: n };
}

/** "paypal" only for a schedule PayPal takes; "card" or nothing means a card. */
function checkPaymentMethod(method: unknown, frequency: unknown, errors: FieldError[]): "paypal" | undefined {
  if (method === undefined || method === null || method === "card") return undefined;
  if (method !== "paypal") {
    errors.push(err("paymentMethod", "not_allowed", 'paymentMethod must be "card" or "paypal".'));
    return undefined;
  }
  if (!paypalFits(frequency as Frequency)) {
    errors.push(err("paymentMethod", "not_allowed", PAYPAL_CARDS_ONLY));
    return undefined;
  }
  return "paypal";
}

function quantityMessage(rules: FundRules): string {
  const q = rules.quantity!;
  return `Enter how many ${q.label}, from ${q.min} to ${q.max}.`;
}

/** Validates the form as typed; on success returns the request body to send. */
export function validateDonation(form: DonationForm, rules: FundRules): ValidationResult {
  const errors: FieldError[] = [];
  let amountCents = 0;
  let quantity: DonationRequest["quantity"];
  if (rules.quantity) {
    const raw = typeof form.quantity === "number" ? String(form.quantity) : text(form.quantity);
    const count = /^\d+$/.test(raw) ? Number(raw) : NaN;
    const price = priceFor(rules.quantity, form.option, errors);
    if (raw === "") errors.push(err("quantity", "required", `Enter how many ${rules.quantity.label}.`));
    else if (!(count >= rules.quantity.min && count <= rules.quantity.max))
      errors.push(err("quantity", "out_of_range", quantityMessage(rules)));
    else if (price) {
      quantity = quantityOf(count, price);
      amountCents = count * price.unitCents;
      const range = checkAmountCents(amountCents, rules, "quantity");
      if (range) errors.push(range);
    }
  } else {
    const parsed = parseAmount(form.amount);
    if (!parsed.ok) {
      errors.push(err("amount", parsed.reason, amountMessage(parsed.reason)));
    } else {
      // 0 is below the minimum, and the minimum's message says what to give ("The minimum gift is $10.").
      amountCents = parsed.cents;
      const range = checkAmountCents(amountCents, rules);
      if (range) errors.push(range);
    }
  }
  const instalments = checkInstalments(form.frequency, form.instalments, amountCents, rules, errors);
  const paymentMethod = checkPaymentMethod(form.paymentMethod, form.frequency, errors);
  const rest = checkRest(
    { fund: form.fund, frequency: form.frequency, season: form.season, dedication: form.dedication, donor: form.donor },
    rules,
    errors,
  );
  if (errors.length > 0) return { ok: false, errors };
  const request: DonationRequest = {
    ...rest,
    amountCents,
    currency: "AUD",
    anonymous: form.anonymous === true,
    coverFees: form.coverFees === true,
  };
  if (quantity) request.quantity = quantity;
  if (instalments) request.instalments = instalments;
  if (paymentMethod) request.paymentMethod = paymentMethod;
  return { ok: true, request };
}

/** Validates a `POST /donations` body from the network. `rulesFor` gives the backend's rules per fund. */
export function validateDonationRequest(body: unknown, rulesFor: (fund: Fund) => FundRules): ValidationResult {
  const b = (body && typeof body === "object" && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const fund = b.fund as Fund;
  if (!FUNDS.includes(fund))
    return { ok: false, errors: [err("fund", "not_allowed", `Unknown fund. Choose one of: ${FUNDS.join(", ")}.`)] };
  const rules = rulesFor(fund);
  const errors: FieldError[] = [];
  if (b.currency !== "AUD")
    errors.push(err("currency", "not_allowed", 'Gifts are in Australian dollars: currency must be "AUD".'));
  for (const flag of ["anonymous", "coverFees"] as const) {
    if (b[flag] !== undefined && typeof b[flag] !== "boolean")
      errors.push(err(flag, "invalid", `${flag} must be true or false.`));
  }
  const amountCents = b.amountCents;
  let quantity: DonationRequest["quantity"];
  if (typeof amountCents !== "number" || !Number.isSafeInteger(amountCents)) {
    errors.push(
      err(
        "amount",
        amountCents === undefined ? "required" : "not_a_number",
        amountCents === undefined ? MESSAGES.amountRequired : "amountCents must be a whole number of cents.",
      ),
    );
  } else if (rules.quantity) {
    // The backend's own price list decides; the request's unitCents is what the page showed.
    const q = (b.quantity && typeof b.quantity === "object" ? b.quantity : {}) as Record<string, unknown>;
    const count = q.count;
    const price = priceFor(rules.quantity, q.optionId, errors);
    if (
      typeof count !== "number" ||
      !Number.isInteger(count) ||
      count < rules.quantity.min ||
      count > rules.quantity.max
    ) {
      errors.push(err("quantity", "out_of_range", quantityMessage(rules)));
    } else if (price && (typeof q.unitCents !== "number" || !Number.isSafeInteger(q.unitCents))) {
      errors.push(
        err(
          "quantity.unitCents",
          q.unitCents === undefined ? "required" : "invalid",
          "quantity.unitCents must be the price shown, in whole cents.",
        ),
      );
    } else if (price && q.unitCents !== price.unitCents) {
      errors.push(
        err(
          "quantity.unitCents",
          "price_changed",
          PRICE_MESSAGES.priceChanged(price.option, price.unitCents, q.unitCents as number),
        ),
      );
    } else if (price && amountCents !== count * price.unitCents) {
      errors.push(err("amount", "invalid", PRICE_MESSAGES.amountNotCountTimesPrice(count, price.unitCents)));
    } else if (price) {
      quantity = quantityOf(count, price);
      const range = checkAmountCents(amountCents, rules, "quantity");
      if (range) errors.push(range);
    }
  } else {
    const range = checkAmountCents(amountCents, rules);
    if (range) errors.push(range);
  }
  const plan =
    b.instalments && typeof b.instalments === "object"
      ? (b.instalments as Record<string, unknown>).count
      : b.instalments;
  const instalments = checkInstalments(
    b.frequency,
    plan,
    typeof amountCents === "number" ? amountCents : 0,
    rules,
    errors,
  );
  const paymentMethod = checkPaymentMethod(b.paymentMethod, b.frequency, errors);
  const rest = checkRest(
    { fund, frequency: b.frequency, season: b.season, dedication: b.dedication, donor: b.donor },
    rules,
    errors,
  );
  if (errors.length > 0) return { ok: false, errors };
  const request: DonationRequest = {
    ...rest,
    amountCents: amountCents as number,
    currency: "AUD",
    anonymous: b.anonymous === true,
    coverFees: b.coverFees === true,
  };
  if (quantity) request.quantity = quantity;
  if (instalments) request.instalments = instalments;
  if (paymentMethod) request.paymentMethod = paymentMethod;
  return { ok: true, request };
}
