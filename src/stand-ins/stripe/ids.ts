/**
 * Ids as Stripe writes them: a prefix naming the object (`pi_`, `cus_`, `evt_`, ...) and random
 * characters. Random from the CSPRNG (24 base-62 characters, about 143 bits), so no id or client
 * secret can be guessed from another.
 */
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomToken(length = 24): string {
  // Rejection sampling keeps every character equally likely (248 = 4 × 62).
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export const newId = (prefix: string) => `${prefix}_${randomToken()}`;

/** `<intent id>_secret_<random>`, the form Stripe.js checks before it calls the API. */
export const clientSecretFor = (intentId: string) => `${intentId}_secret_${randomToken(25)}`;
