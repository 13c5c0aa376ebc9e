/** Donation ids (96 random bits) and references (`NZF-XXXX-XXXX`, Crockford base 32: no I, L, O, U). */
import { randomBytes } from "node:crypto";

const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export const newDonationId = () => `don_${randomBytes(12).toString("hex")}`;

export function newReference(): string {
  const chars = Array.from(randomBytes(8), (b) => REFERENCE_ALPHABET[b % 32]).join("");
  return `NZF-${chars.slice(0, 4)}-${chars.slice(4)}`;
}
