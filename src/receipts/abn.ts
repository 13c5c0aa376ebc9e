/**
 * The Australian Business Number a charity's receipt must carry: 11 digits whose weighted sum
 * (after taking 1 from the first digit) is a multiple of 89, as the Australian Business Register
 * defines it. A typo in the setting would print a wrong ABN on every receipt, so it is checked at
 * start. Browser-safe.
 */

const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19] as const;

/** The 11 digits of an ABN as written with or without spaces ("51 824 753 556"), or null. */
export function abnDigits(text: string): string | null {
  const digits = text.replace(/[\s\u00a0]/g, "");
  return /^\d{11}$/.test(digits) ? digits : null;
}

/** Whether `text` is a valid ABN (shape and check digits). */
export function isValidAbn(text: string): boolean {
  const digits = abnDigits(text);
  if (digits === null || digits[0] === "0") return false;
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += (Number(digits[i]) - (i === 0 ? 1 : 0)) * WEIGHTS[i]!;
  return sum % 89 === 0;
}

/** "51 824 753 556": how the ABN is printed on a receipt. */
export function formatAbn(text: string): string {
  const digits = abnDigits(text);
  if (digits === null) throw new RangeError(`"${text}" is not an ABN of 11 digits.`);
  return `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}`;
}
