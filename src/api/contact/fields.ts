/**
 * Checking the contact and updates forms' fields: bounded lengths, one-line names and addresses,
 * a real-looking e-mail address, a topic from the list. Each problem is the contract's field error.
 */
import type { FieldError } from "../../payments/types.js";

const EMAIL = /^[^\s@<>"(),;:\\[\]]+@[^\s@<>"(),;:\\[\]]+\.[^\s@<>"(),;:\\[\]]+$/;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u2028\u2029]/;
const LINE_BREAK = /[\r\n]/;

export function text(
  body: Record<string, unknown>,
  field: string,
  label: string,
  max: number,
  errors: FieldError[],
  { multiline = false } = {},
): string {
  const value = body[field];
  if (typeof value !== "string" || value.trim() === "") {
    errors.push({ field, code: "required", message: `Please enter ${label}.` });
    return "";
  }
  const trimmed = value.trim();
  if (trimmed.length > max)
    errors.push({ field, code: "too_long", message: `Please keep ${label} under ${max} characters.` });
  else if (CONTROL.test(trimmed) || (!multiline && LINE_BREAK.test(trimmed)))
    errors.push({ field, code: "invalid", message: `Please enter ${label} without special characters.` });
  return trimmed;
}

export function email(body: Record<string, unknown>, field: string, errors: FieldError[]): string {
  const value = text(body, field, "your e-mail address", 254, errors);
  if (value && !EMAIL.test(value))
    errors.push({ field, code: "invalid", message: "Please enter an e-mail address such as name@example.com." });
  return value.toLowerCase();
}

/** The honeypot: a field people do not see (and leave empty); a bot fills it. */
export const filledHoneypot = (body: Record<string, unknown>) =>
  typeof body.website === "string" && body.website.trim() !== "";
