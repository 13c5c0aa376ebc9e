/** Money as PayPal writes it ("10.00" and a currency code) ↔ integer cents, never through floating point. */
import { invalid } from "./errors.js";

export interface Money {
  currency_code: string;
  value: string;
}

const VALUE = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** Cents of a PayPal amount at `field`, refusing what PayPal refuses. */
export function centsOf(amount: unknown, field: string): { cents: number; currency: string } {
  const a = amount as Partial<Money> | undefined;
  if (!a || typeof a !== "object")
    throw invalid(field, "MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.");
  if (typeof a.currency_code !== "string" || !/^[A-Z]{3}$/.test(a.currency_code))
    throw invalid(
      `${field}/currency_code`,
      "INVALID_PARAMETER_VALUE",
      "The value of a field is invalid.",
      String(a.currency_code),
    );
  if (typeof a.value !== "string")
    throw invalid(`${field}/value`, "MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.");
  if (/^\d+\.\d{3,}$/.test(a.value))
    throw invalid(
      `${field}/value`,
      "DECIMAL_PRECISION",
      "If the currency supports decimals, only two decimal place precision is supported.",
      a.value,
    );
  const match = VALUE.exec(a.value);
  if (!match)
    throw invalid(
      `${field}/value`,
      "INVALID_PARAMETER_SYNTAX",
      "The value of a field does not conform to the expected format.",
      a.value,
    );
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (cents <= 0) throw invalid(`${field}/value`, "CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.", a.value);
  return { cents, currency: a.currency_code };
}

export function money(cents: number, currency: string): Money {
  return { currency_code: currency, value: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}` };
}

/**
 * What PayPal keeps of a payment in the stand-in: the Australian rate for registered charities,
 * 1.1% + 30 cents, rounded to the cent (the real fee depends on the account).
 */
export function paypalFeeCents(cents: number): number {
  return Math.round(cents * 0.011) + 30;
}
