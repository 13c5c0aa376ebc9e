/**
 * The donation form's values exactly as typed, and how they survive: every change is kept in
 * sessionStorage under the form's path, so an error, a reload or a return from a failed payment
 * never loses what the donor typed. Values are strings and booleans only (what inputs hold).
 */
// Types only: the keys' code loads with the payment step (pay-kit.ts), not with the form.
import type { Attempt, AttemptStore } from "../../payments/idempotency.js";
import { parseAmount } from "../../payments/money.js";
import { paypalFits } from "../../payments/paypal-schedules.js";
import type { DonationForm } from "../../payments/validate.js";
import type { Frequency, Fund } from "../../payments/types.js";
import { chosenOption, type FundConfig } from "./config.js";

export interface FormValues {
  fund: Fund;
  amount: string;
  quantity: string;
  /** Index of the qurban animal option, as text. */
  option: string;
  frequency: Frequency;
  /** Monthly instalments: how many payments, as text (a select's value). */
  instalments: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  line1: string;
  line2: string;
  suburb: string;
  state: string;
  postcode: string;
  country: string;
  anonymous: boolean;
  /** "Keep me updated": a sign-up for e-mail updates sent with the gift (the box's words are the consent). */
  keepUpdated: boolean;
  dedication: string;
  coverFees: boolean;
  /** "paypal" when the donor chose PayPal (offered only when the build has a PayPal client ID). */
  paymentMethod: "card" | "paypal";
}

export const STORAGE_PREFIX = "nzf-donation:";
/** The last payment started: where to go back to if it fails. */
export const LAST_ATTEMPT_KEY = `${STORAGE_PREFIX}last`;
/**
 * A gift just made from a form (its path, reference and fund): Back to the form then says so and
 * starts clean instead of showing the filled form again, inviting a second gift by mistake.
 */
export const GIVEN_KEY = `${STORAGE_PREFIX}given`;
export const DEFAULT_INSTALMENTS = "12";

export interface GivenRecord {
  path: string;
  reference?: string;
}

/** After a successful payment: forget every saved form and remember that this form gave. */
export function markGiven(storage: Storage | undefined, record: GivenRecord): void {
  try {
    if (!storage) return;
    for (const key of Object.keys(storage)) if (key.startsWith(STORAGE_PREFIX)) storage.removeItem(key);
    storage.setItem(GIVEN_KEY, JSON.stringify(record));
  } catch {
    // storage blocked: nothing was kept, so nothing can be shown again either
  }
}

export function givenFrom(storage: Storage | undefined, formPath: string): GivenRecord | null {
  try {
    const record = JSON.parse(storage?.getItem(GIVEN_KEY) ?? "null") as GivenRecord | null;
    return record && record.path === formPath ? record : null;
  } catch {
    return null;
  }
}

/**
 * The form's last attempt to give (its idempotency key and a fingerprint of the gift), kept beside
 * its values: a donor who reloads the page at the card step, or comes back to it, and continues
 * with the same gift gets the donation already made, not a second one. Cleared with the values
 * when a payment succeeds (markGiven).
 */
export function keptAttempt(storage: Storage | undefined, formPath: string): AttemptStore {
  const key = `${STORAGE_PREFIX}attempt:${formPath}`;
  return {
    load() {
      try {
        const kept = JSON.parse(storage?.getItem(key) ?? "null") as Attempt | null;
        return kept && typeof kept.fingerprint === "string" && typeof kept.key === "string" ? kept : null;
      } catch {
        return null;
      }
    },
    save(attempt) {
      try {
        if (attempt) storage?.setItem(key, JSON.stringify(attempt));
        else storage?.removeItem(key);
      } catch {
        // storage blocked: the attempt is kept for this page only
      }
    },
  };
}

export function forgetGiven(storage: Storage | undefined): void {
  try {
    storage?.removeItem(GIVEN_KEY);
  } catch {
    // nothing to forget
  }
}

const dollarsText = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/** What the form starts with for a fund, before anything saved or carried in the URL. */
export function fundDefaults(
  config: FundConfig,
): Pick<FormValues, "fund" | "amount" | "quantity" | "option" | "frequency" | "instalments"> {
  return {
    fund: config.fund,
    amount: config.defaultAmountCents ? dollarsText(config.defaultAmountCents) : "",
    quantity: config.quantity ? "1" : "",
    option: String(config.quantity?.defaultOption ?? 0),
    frequency: config.frequencies[0] ?? "once",
    instalments: DEFAULT_INSTALMENTS,
  };
}

export function initialValues(config: FundConfig): FormValues {
  return {
    ...fundDefaults(config),
    firstName: "",
    lastName: "",
    email: "",
    phone: "",
    line1: "",
    line2: "",
    suburb: "",
    state: "",
    postcode: "",
    country: "AU",
    anonymous: false,
    keepUpdated: false,
    dedication: "",
    coverFees: false,
    paymentMethod: "card",
  };
}

/** Saved values, if any, kept only where they still fit the page (a fund or schedule it offers). */
export function loadSaved(storage: Storage | undefined, formPath: string, funds: FundConfig[]): FormValues | null {
  try {
    const raw = storage?.getItem(STORAGE_PREFIX + formPath);
    if (!raw) return null;
    const saved = JSON.parse(raw) as Partial<FormValues>;
    const config = funds.find((f) => f.fund === saved.fund) ?? funds[0]!;
    const base = initialValues(config);
    const merged: FormValues = { ...base };
    for (const key of Object.keys(base) as (keyof FormValues)[]) {
      if (typeof saved[key] === typeof base[key]) (merged as unknown as Record<string, unknown>)[key] = saved[key];
    }
    merged.fund = config.fund;
    if (!config.frequencies.includes(merged.frequency)) merged.frequency = base.frequency;
    return merged;
  } catch {
    return null; // storage blocked or a corrupt entry: start afresh rather than fail
  }
}

export function save(storage: Storage | undefined, formPath: string, values: FormValues): void {
  try {
    storage?.setItem(STORAGE_PREFIX + formPath, JSON.stringify(values));
  } catch {
    // Private mode or a full quota: the form still works, it just is not kept.
  }
}

/** `?amount=123.45` from the calculator: the text to put in the amount field, or null. */
export function amountFromQuery(search: string): string | null {
  const value = new URLSearchParams(search).get("amount");
  if (value === null || value.trim() === "") return null;
  const parsed = parseAmount(value);
  // A well-formed amount is shown as cents-exact text; anything else is shown as it came, and
  // validation explains what is wrong with it rather than silently dropping it.
  return parsed.ok ? dollarsText(parsed.cents) : value.slice(0, 20);
}

/** PayPal when the donor chose it, the build offers it and the schedule is one PayPal takes; else a card. */
export function paysWithPayPal(values: FormValues, paypalOffered: boolean): boolean {
  return paypalOffered && values.paymentMethod === "paypal" && paypalFits(values.frequency);
}

/** The values as the shared validator takes them (`paypal`: paysWithPayPal). */
export function toDonationForm(values: FormValues, config: FundConfig, paypal = false): DonationForm {
  const address = {
    line1: values.line1,
    line2: values.line2,
    suburb: values.suburb,
    state: values.state,
    postcode: values.postcode,
  };
  const hasAddress = Object.values(address).some((v) => v.trim() !== "");
  return {
    fund: config.fund,
    amount: config.quantity ? undefined : values.amount,
    quantity: config.quantity ? values.quantity : undefined,
    // Option-priced funds (qurban) name the option by its code; the API prices it.
    option: config.quantity?.options?.length ? chosenOption(config, values.option)?.code : undefined,
    frequency: values.frequency,
    season: config.season,
    instalments: values.frequency === "monthly-instalments" ? values.instalments : undefined,
    donor: {
      firstName: values.firstName,
      lastName: values.lastName,
      email: values.email,
      phone: values.phone,
      ...(hasAddress ? { address: { ...address, country: values.country } } : {}),
    },
    anonymous: values.anonymous,
    dedication: values.dedication,
    coverFees: values.coverFees,
    ...(paypal ? { paymentMethod: "paypal" as const } : {}),
  };
}
