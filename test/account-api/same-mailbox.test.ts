/** Which e-mail spellings name one mailbox for the guest-gift claim (src/account-api/same-mailbox.ts). */
import { describe, expect, it } from "vitest";
import { canonicalMailbox, sameMailbox } from "../../src/account-api/same-mailbox.js";

describe("same mailbox", () => {
  it.each([
    ["amina@example.com", "amina@example.com"],
    ["amina@example.com", "amina@EXAMPLE.com"],
    ["  amina@example.com ", "amina@example.com"],
    // é precomposed (U+00E9) and e + combining acute (U+0065 U+0301): one text under NFC.
    ["ren\u00e9@example.com", "rene\u0301@example.com"],
    // The Kelvin sign's canonical equivalent is the capital K, so NFC maps one onto the other.
    ["\u212Aelvin@example.com", "Kelvin@example.com"],
  ])("%s and %s are one", (a, b) => {
    expect(sameMailbox(a, b)).toBe(true);
  });

  it.each([
    // The attack of issue 38: toLowerCase() folds U+212A to "k"; NFC does not.
    ["\u212Aelvin@example.com", "kelvin@example.com"],
    // The part before @ is case-sensitive (RFC 5321 section 2.4).
    ["Amina@example.com", "amina@example.com"],
    // Compatibility forms are not folded: fullwidth "ａ" (U+FF41) is not "a".
    ["\uff41mina@example.com", "amina@example.com"],
    // Only A-Z in the domain: the Turkish dotted capital I is not folded to "i".
    ["amina@\u0130stanbul.example", "amina@istanbul.example"],
    ["amina@example.com", "amina@example.co"],
  ])("%s and %s are not", (a, b) => {
    expect(sameMailbox(a, b)).toBe(false);
  });

  it("folds the domain's A-Z only, after the last @", () => {
    expect(canonicalMailbox('"a@B"@Example.COM')).toBe('"a@B"@example.com');
  });
});
