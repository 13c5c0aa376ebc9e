/**
 * When a guest gift's e-mail and an account's verified e-mail name the same mailbox, so the donor
 * may ask for the gift to join the account (claimGuestGifts). Never used to decide who may read:
 * identity is the token's `sub` (tokens.ts).
 *
 * The rule, and why no more folding than this:
 * - Unicode NFC on both sides. RFC 6532 §3.1 asks mail software to use NFC, so canonically
 *   equivalent spellings are one address. NFC is not case folding: the Kelvin sign (U+212A)
 *   becomes "K" (its canonical equivalent), never "k"; `toLowerCase()` would fold it to "k" and
 *   hand kelvin@…'s gifts to whoever registered "\u212Aelvin@…".
 * - The domain compared without regard to ASCII case: domain names are case-insensitive
 *   (RFC 4343), so Example.COM and example.com are one host. Only A-Z are folded, nothing else.
 * - The local part (before the last "@") compared exactly: RFC 5321 §2.4 says it MUST be treated
 *   as case-sensitive, and only the receiving host knows whether Amina and amina are one mailbox.
 *   A donor whose guest gift was given as "Amina@…" while the account is "amina@…" asks the
 *   office, which can see both.
 * The account's e-mail must also be verified by the pool (the caller checks it): proof that the
 * donor controls that mailbox, which is what the match is standing in for.
 */
export function canonicalMailbox(email: string): string {
  const normal = email.trim().normalize("NFC");
  const at = normal.lastIndexOf("@");
  if (at <= 0) return normal;
  return normal.slice(0, at + 1) + normal.slice(at + 1).replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

export function sameMailbox(a: string, b: string): boolean {
  return canonicalMailbox(a) === canonicalMailbox(b);
}
