/**
 * The publish-time secret scan (src/publish/secret-scan.ts): AWS secret access keys, and keys split
 * by markup or encoded, are found; look-alikes that every site has (hashes, SRI digests,
 * publishable keys, prose about keys) are not.
 */
import { describe, expect, it } from "vitest";
import {
  createSecretScan,
  findAwsSecretKeys,
  findSecrets,
  hasFragment,
  plainText,
} from "../../src/publish/secret-scan.js";

// AWS's documented example pair (not a real key).
const AWS_ID = "AKIAIOSFODNN7EXAMPLE";
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const STRIPE = "sk_live_51HabcdEFGH12345678";

describe("secret scan", () => {
  it("finds an AWS secret access key when labelled or next to an access key id, naming the kind only", () => {
    expect(findSecrets(`aws_secret_access_key = ${AWS_SECRET}`)).toEqual(["aws-secret-access-key"]);
    expect(findSecrets(`{"SecretAccessKey": "${AWS_SECRET}"}`)).toEqual(["aws-secret-access-key"]);
    expect(findSecrets(`const c = { secretAccessKey: '${AWS_SECRET}' }`)).toEqual(["aws-secret-access-key"]);
    expect(findSecrets(`{"id":"${AWS_ID}","s":"${AWS_SECRET}"}`).sort()).toEqual([
      "aws-access-key",
      "aws-secret-access-key",
    ]);
    expect(findSecrets(`{"id":"${AWS_ID}","s":"${AWS_SECRET}"}`).join()).not.toContain("wJalr");
  });

  it("finds a Stripe key split by markup, entity-, percent- or escape-encoded, or with invisible characters", () => {
    const cases = {
      markup: `<p>Key: sk_live_51H<strong>abcdEFGH</strong>12345678</p>`,
      nested: `s<em>k</em>_<span class="x">live</span>_51HabcdEFGH12345678`,
      entityDecimal: "sk&#95;live&#95;51HabcdEFGH12345678",
      entityHex: "sk&#x5F;live&#x5f;51HabcdEFGH12345678",
      entityNamed: "sk&lowbar;live&lowbar;51HabcdEFGH12345678",
      percent: `<a href="https://example.org/?k=sk%5Flive%5F51HabcdEFGH12345678">x</a>`,
      jsonEscape: '{"k":"sk\\u005flive\\u005f51HabcdEFGH12345678"}',
      zeroWidth: "sk_live_\u200b51Habcd\u00adEFGH12345678",
    };
    for (const [name, text] of Object.entries(cases)) {
      expect(findSecrets(text), name).toEqual(["sk_live_51Ha… (split by markup or encoded)"]);
    }
    expect(findSecrets(`<p>${STRIPE}</p>`)).toEqual(["sk_live_51Ha…"]);
    expect(
      findSecrets(
        `<p>sk_live_51Hab<b>cdEFGH</b>12345678 and aws_secret_access_key=${AWS_SECRET.slice(0, 20)}<i>${AWS_SECRET.slice(20)}</i></p>`,
      ).sort(),
    ).toEqual(["aws-secret-access-key (split by markup or encoded)", "sk_live_51Ha… (split by markup or encoded)"]);
  });

  it("does not flag what ordinary pages hold", () => {
    const ordinary = [
      // A publishable key, an SRI digest, a git/sha1 hex digest next to an access-key-looking id in docs, prose.
      `<script>window.pk="pk_live_51HabcdEFGH12345678"</script>`,
      `<link integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC" href="/a.css">`,
      `<img src="/_images/3f786850e387550fdab836ed7e6dc881de23001b-640.webp"> ${AWS_ID.replace("AKIA", "AKIB")}`,
      `<p>Never share your secret access key or your <strong>live</strong> keys.</p>`,
      `<p>Ask&#95;us about sk&#95;ills and r&amp;k_live_events</p>`,
      `<p>${"A1b2C3d4E5f6G7h8I9j0".repeat(2)} is a random string with no key id near it.</p>`,
    ];
    for (const text of ordinary) expect(findSecrets(text), text).toEqual([]);
    expect(findAwsSecretKeys(`${AWS_ID} ${"a".repeat(40)}`)).toBe(false);
  });

  it("sees every piece a split or encoded secret keeps, wherever it sits in a page", () => {
    // Each piece after which the scan reads the text with markup and encodings undone.
    const pieces = ["k_", ">_", "_<", "_live", "live_", "_test", "test_", "whsec", "%5F", "%5f", "&#95", "&#x5f"];
    pieces.push("&#x5F", "&#X5F", "&lowbar", "&UnderBar", "\\u005", "\\x5", "ecret", "ECRET", "AKIA", "ASIA");
    pieces.push("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad");
    const page = `<main class="page_body"><p>Zakat — العطاء</p>${"<p>Text with a_b and 50% & more.</p>".repeat(20)}</main>`;
    expect(hasFragment(page)).toBe(false);
    for (const piece of pieces)
      for (const at of [0, page.length >> 1, page.length])
        expect(hasFragment(page.slice(0, at) + piece + page.slice(at)), `${JSON.stringify(piece)} at ${at}`).toBe(true);
    // Underscores and words near, but not forming, a piece.
    expect(hasFragment("a_b live test k-_ _ <_ _>")).toBe(false);
  });

  it("undoes markup and encodings only where a page has them", () => {
    expect(plainText("plain text")).toBe("plain text");
    expect(plainText("a<b>b</b>&#99;%64\\u0065")).toBe("abcde");
  });

  it("stops the publish naming the file, and counts the files scanned", () => {
    const scan = createSecretScan();
    scan.scanText("index.html", "<p>fine</p>");
    scan.scanText("give/index.html", `<p>sk_live_51H<strong>abcdEFGH</strong>12345678</p>`);
    expect(() => scan.assertClean()).toThrow(/give\/index\.html: sk_live_51Ha… \(split by markup or encoded\)/);
    const clean = createSecretScan();
    clean.scanText("index.html", "<p>fine</p>");
    expect(clean.assertClean()).toBe(1);
  });
});
