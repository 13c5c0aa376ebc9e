/**
 * The publish-time secret scan (src/publish/secret-scan.ts): AWS secret access keys, and keys split
 * by markup or encoded, are found; look-alikes that every site has (hashes, SRI digests,
 * publishable keys, prose about keys) are not.
 */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createSecretScan,
  findAllSecrets,
  findAwsSecretKeys,
  findSecrets,
  hasFragment,
  plainText,
  splitOrEncoded,
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

  it("stops the publish naming the file, and counts the files scanned", async () => {
    const scan = createSecretScan();
    scan.scanText("index.html", "<p>fine</p>");
    scan.scanText("give/index.html", `<p>sk_live_51H<strong>abcdEFGH</strong>12345678</p>`);
    await expect(scan.assertClean()).rejects.toThrow(/give\/index\.html: sk_live_51Ha… \(split by markup or encoded\)/);
    const clean = createSecretScan();
    clean.scanText("index.html", "<p>fine</p>");
    await expect(clean.assertClean()).resolves.toBe(1);
  });
});

// Made at run time, so this file holds no token a scanner of the repository would flag.
const GITHUB = ["ghp", "_", "R8mKq2Xv7LbN4sTc9WdE1fYh6JpA3uZg0QoV"].join("");
const GITHUB_FINE = [
  "github_pat",
  "_",
  "11ABCDEFG0abcdefghijkl",
  "_",
  "A".repeat(20),
  "b".repeat(20),
  "0123456789abcdefghi",
].join("");
const GOOGLE = ["AI", "za", "SyD4k9Lm2Qx8Vb7Nc3Wf6Hj1Tp5Rs0Ue-Yg"].join("");
const SLACK = ["xo", "xb-", "263984702123-1946825738241-Xk4qP9vL2mN7bR3tW8cY6dF1"].join("");
const PEM = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({
  type: "pkcs1",
  format: "pem",
}) as string;

describe("the maintained rules (secretlint's recommended preset) and Google API keys", () => {
  it.each([
    ["a GitHub token", GITHUB, "github GITHUB_TOKEN"],
    ["a fine-grained GitHub token", GITHUB_FINE, "github GITHUB_TOKEN"],
    ["a Google API key", GOOGLE, "google-api-key"],
    ["a Slack token", SLACK, "slack SLACK_TOKEN"],
    ["a PEM private key", PEM, "privatekey PrivateKey"],
  ])("finds %s in a page, naming the kind only", async (_, secret, kind) => {
    const found = await findAllSecrets(`<main><p>Our key: ${secret}</p></main>`);
    expect(found).toContain(kind);
    expect(found.join()).not.toContain(secret.slice(6, 20));
  });

  it("finds them split by markup or encoded", async () => {
    const split = (s: string) => `${s.slice(0, 8)}<strong>${s.slice(8, 16)}</strong>${s.slice(16)}`;
    expect(await findAllSecrets(`<p>${split(GITHUB)}</p>`)).toContain(
      "github GITHUB_TOKEN (split by markup or encoded)",
    );
    expect(await findAllSecrets(`<p>${split(SLACK)}</p>`)).toContain("slack SLACK_TOKEN (split by markup or encoded)");
    expect(await findAllSecrets(`<p>${split(GOOGLE)}</p>`)).toContain("google-api-key (split by markup or encoded)");
    expect(await findAllSecrets(`<pre>${PEM.replaceAll("\n", "<br>\n")}</pre>`)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^privatekey PrivateKey/)]),
    );
  });

  it("finds the same secrets in a text scanned again (each scan is kept by the text), whatever a caller did with the first list", async () => {
    const page = `<main><p>Ours: ${GITHUB}</p><p>${GOOGLE}</p></main>`;
    const first = await findAllSecrets(page);
    expect(first).toEqual(expect.arrayContaining(["github GITHUB_TOKEN", "google-api-key"]));
    first.length = 0;
    expect(await findAllSecrets(page)).toEqual(expect.arrayContaining(["github GITHUB_TOKEN", "google-api-key"]));
    // One character more is another text, scanned for itself.
    expect(await findAllSecrets(`${page} `)).toEqual(expect.arrayContaining(["github GITHUB_TOKEN"]));
    expect(await findAllSecrets(page.replace(GITHUB, "a token"))).not.toContain("github GITHUB_TOKEN");
  });

  it("is not turned off by a secretlint-disable comment the content writes", async () => {
    const page = `<!-- secretlint-disable --><p>${GITHUB}</p><!-- secretlint-enable -->`;
    expect(await findAllSecrets(page)).toContain("github GITHUB_TOKEN");
  });

  it("does not flag what ordinary pages hold", async () => {
    const ordinary = [
      '<img src="https://images.prismic.io/nzf/hero.jpg?auto=format" alt="">',
      '<a href="mailto:info@nzf.org.au">info@nzf.org.au</a> <a href="tel:+61299999999">call</a>',
      '<script integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"></script>',
      "<p>Keep your API key and private key secret; never share a token.</p>",
      '<meta name="google-site-verification" content="AbCdEfGh12345">',
    ];
    for (const text of ordinary) expect(await findAllSecrets(text), text).toEqual([]);
  });
});

describe("splitOrEncoded", () => {
  it.each([
    ["a word split by a tag", "<p>tok<strong>en</strong></p>"],
    ["an entity for a letter", "tok&#101;n"],
    ["an underscore in hex", "ghp&#x5F;x"],
    ["a percent-encoded letter", "tok%65n"],
    ["an invisible character", "tok\u200ben"],
  ])("is true for %s", (_, text) => expect(splitOrEncoded(text)).toBe(true));

  it.each([
    ["paragraphs", "<p>One.</p><p>Two <strong>bold</strong> words.</p>"],
    ["React's apostrophe", "<p>It&#x27;s fine &amp; good</p>"],
    ["a URL with a space", '<a href="/a%20b">x</a>'],
  ])("is false for %s", (_, text) => expect(splitOrEncoded(text)).toBe(false));
});
