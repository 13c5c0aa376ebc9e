/**
 * What a value the templates publish must look like, for fields whose text becomes a link or a
 * fact: the global document's e-mail address (a `mailto:` on every page), phone number (a `tel:`)
 * and ABN. Pure and browser-safe: the content checks name a bad value (content-checks.ts) and the
 * templates leave it out (templates/components/fields.ts, `contactField`), so a donor never gets
 * `mailto:Nisl pretium fusce`.
 */
import { isValidAbn } from "../receipts/abn.js";

/** An address as people write them: one @, a dotted domain, no spaces or brackets. */
const EMAIL =
  /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

/** A phone number: digits with the usual separators, 6 to 15 digits (E.164's most), an optional leading +. */
export function isPhoneNumber(value: string): boolean {
  if (!/^\+?[\d\s().-]+$/.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 6 && digits <= 15;
}

/**
 * An Australian Business Number as written: 11 digits, spaces allowed, whose check digits add up
 * (the Australian Business Register's rule, src/receipts/abn.ts). A typo would print a wrong ABN in
 * every page's footer and on the receipts the account prints.
 */
export function isAbn(value: string): boolean {
  return /^[\d\s]+$/.test(value) && isValidAbn(value);
}

/** The global document's fields the site publishes as contact facts, with what each must be. */
export const CONTACT_FIELDS = {
  contact_email: { valid: isEmailAddress, what: "an e-mail address" },
  contact_phone: { valid: isPhoneNumber, what: "a phone number (6 to 15 digits)" },
  abn: {
    valid: isAbn,
    what: "an ABN: 11 digits whose check digits add up (copy it from abr.business.gov.au, e.g. 51 824 753 556)",
  },
} as const;

export type ContactField = keyof typeof CONTACT_FIELDS;
