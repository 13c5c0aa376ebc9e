/**
 * No secret key or auth token may ever ship (docs/payments-api.md, docs/accounts.md). Every text
 * file that is new in a build is scanned before anything is published: pages while they render
 * (their HTML is in memory then), the other files as they are added to the new site
 * (src/publish/site-output.ts). Files kept from the live site were scanned when they were published.
 *
 * Besides the text as it is, the scan reads a second version with markup removed and encodings
 * undone (HTML entities, percent-encoding, \u/\x escapes, zero-width characters), so a key an
 * editor's formatting split (`sk_live_51H<strong>…`) or a link encoded (`sk%5Flive…`) is found too.
 * AWS secret access keys (40 characters of base64 with no fixed prefix) count when they are
 * labelled as one or stand near an access key id (AKIA…/ASIA…): alone they look like any other
 * random string. On top of these, secretlint's maintained preset (secret-rules.ts) reads both
 * versions too: GitHub, Slack, npm and other tokens, private keys, connection strings.
 */
import { createHash } from "node:crypto";
import { NzfError } from "../core/errors.js";
import { findSecretKeys } from "../payments/config.js";
import { findAuthSecrets } from "../auth/dist-scan.js";
import { findPresetSecrets, hasGoogleApiKey } from "./secret-rules.js";

export interface SecretScan {
  /** Scans one file's text (relative path inside the site); the preset's part finishes by assertClean. */
  scanText(file: string, text: string): void;
  /** Takes what a scan elsewhere (a render worker's, with findAllSecrets) found in one file. */
  addFindings(file: string, findings: string[]): void;
  /** Fails if anything scanned holds a secret. Returns how many files were scanned. */
  assertClean(): Promise<number>;
}

export function createSecretScan(): SecretScan {
  const leaks: string[] = [];
  const pending: Promise<void>[] = [];
  let scanned = 0;
  const addFindings = (file: string, findings: string[]) => {
    scanned++;
    for (const finding of findings) leaks.push(`${file}: ${finding}`);
  };
  return {
    scanText: (file, text) => {
      pending.push(findAllSecrets(text).then((findings) => addFindings(file, findings)));
    },
    addFindings,
    async assertClean() {
      await Promise.all(pending);
      if (leaks.length) {
        throw new NzfError(
          "CONFIG_INVALID",
          `A secret key or token would be published in dist/, so nothing was published:\n  ${leaks.sort().join("\n  ")}`,
          {
            hint: "Remove it from the content or configuration (only public values belong in the site: pk_ publishable keys, user pool and app client ids), then roll the leaked key, token or client secret.",
          },
        );
      }
      return scanned;
    },
  };
}

/**
 * findSecrets and secretlint's preset (secret-rules.ts), on the text as it is and, when something
 * could have split or encoded a token (splitOrEncoded), with markup removed. The preset costs about
 * 3 ms a page a pass, so the second pass runs only where it can find more.
 */
export function findAllSecrets(text: string): Promise<string[]> {
  // A pure function of the text: the same text (a frame shared by many pages, a file kept from the
  // last build of this process) is scanned once. Keyed by the text's hash, bounded.
  const key = createHash("sha1").update(text).digest("base64");
  let found = scannedTexts.get(key);
  if (found) {
    // Most recently used last, so the oldest is dropped first.
    scannedTexts.delete(key);
  } else {
    found = scanAll(text);
    // A failure is not kept: the next scan of the same text tries again.
    found.catch(() => scannedTexts.delete(key));
  }
  scannedTexts.set(key, found);
  if (scannedTexts.size > SCANNED_TEXTS_KEPT) scannedTexts.delete(scannedTexts.keys().next().value!);
  return found.then((findings) => [...findings]);
}

/** Texts scanned by this process (findAllSecrets): about 10,000 pages' worth of findings, a few MB at most. */
const SCANNED_TEXTS_KEPT = 10_000;
const scannedTexts = new Map<string, Promise<string[]>>();

async function scanAll(text: string): Promise<string[]> {
  const found = new Set(findSecrets(text));
  for (const finding of await findPresetSecrets(text)) found.add(finding);
  const plain = splitOrEncoded(text) ? plainText(text) : text;
  if (plain !== text)
    for (const finding of await findPresetSecrets(plain))
      if (!found.has(finding)) found.add(`${finding} (split by markup or encoded)`);
  return [...found];
}

/** What the project's own checks find in one text: masked Stripe keys and the kinds of other secrets, each once. */
export function findSecrets(text: string): string[] {
  const found = secretsIn(text);
  const plain = hasFragment(text) ? plainText(text) : text;
  if (plain !== text)
    for (const finding of secretsIn(plain))
      if (!found.has(finding)) found.add(`${finding} (split by markup or encoded)`);
  return [...found];
}

function secretsIn(text: string): Set<string> {
  const found = new Set(findSecretKeys(text));
  // Auth and AWS findings name the kind only: even a prefix of a token or secret stays out of logs.
  for (const f of findAuthSecrets(text)) found.add(f.kind);
  if (findAwsSecretKeys(text)) found.add("aws-secret-access-key");
  if (hasGoogleApiKey(text)) found.add("google-api-key");
  return found;
}

// An inline tag inside a word (tok<strong>en), or a token character written another way.
const SPLIT_WORD =
  /[\w-](?:<\/?(?:strong|em|b|i|u|s|span|a|small|sub|sup|mark|code|kbd|wbr|font|del|ins)\b[^>]*>)+[\w-]/i;
const ESCAPE = /&#x?[0-9a-f]{1,7};?|&lowbar;|&UnderBar;|%[0-9a-f]{2}|\\u[0-9a-f]{4}|\\x[0-9a-f]{2}/gi;

/**
 * Whether markup or an encoding could hide a token from the preset: an inline tag inside a word,
 * an invisible character, a private key (its lines may be broken by markup), or a letter, digit, `_` or `-` written as an entity or escape (React's
 * `&#x27;` for an apostrophe, a `%20` in a URL do not count).
 */
export function splitOrEncoded(text: string): boolean {
  if (INVISIBLE.test(text) || (text.includes("<") && SPLIT_WORD.test(text))) return true;
  // A key's lines broken by <br> or paragraphs: the preset reads it only without the markup.
  if (text.includes("PRIVATE KEY")) return true;
  if (!/[&%\\]/.test(text)) return false;
  for (const m of text.matchAll(ESCAPE)) {
    const decoded = plainText(m[0]);
    if (/^[\w-]$/.test(decoded)) return true;
  }
  return false;
}

/** Only worth undoing when one of these occurs: markup, an entity, a percent or backslash escape, an invisible character. */
const ENCODED = /[<&%\\\u200b-\u200d\u2060\ufeff\u00ad]/;
/**
 * ...and when a piece of a secret does: a key's prefix or an underscore next to live/test (a Stripe
 * key split by markup keeps one of them, or an underscore touching a tag), an encoded underscore,
 * an AWS label or key id, an invisible character. Most pages have none and skip the rewrite. Every
 * page is checked, so the check reads the text as few times as it can: once for underscores (a page
 * has a handful), once for invisible characters, and the rarer pieces only when their first
 * character occurs at all.
 */
export function hasFragment(text: string): boolean {
  return underscoreFragment(text) || INVISIBLE.test(text) || encodedFragment(text) || wordFragment(text);
}

const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u00ad]/;
const LT = 60;
const GT = 62;
const K = 107;

/** k_, >_, _<, _live, live_, _test, test_. */
function underscoreFragment(text: string): boolean {
  for (let i = text.indexOf("_"); i !== -1; i = text.indexOf("_", i + 1)) {
    const before = text.charCodeAt(i - 1);
    if (before === K || before === GT || text.charCodeAt(i + 1) === LT) return true;
    for (const word of ["live", "test"]) if (text.startsWith(word, i + 1) || text.startsWith(word, i - 4)) return true;
  }
  return false;
}

/** %5F, &#95, &#x5F, &lowbar, &UnderBar, \u005…, \x5…: an underscore written another way. */
function encodedFragment(text: string): boolean {
  return (
    (text.includes("%") && /%5f/i.test(text)) ||
    (text.includes("&") && /&#(?:95|x5f)|&lowbar|&UnderBar/i.test(text)) ||
    (text.includes("\\") && /\\u005|\\x5/.test(text))
  );
}

/** whsec, (s)ecret, (S)ECRET, AKIA, ASIA, AIza. */
function wordFragment(text: string): boolean {
  return ["whsec", "ecret", "ECRET", "AKIA", "ASIA", "AIza"].some((word) => text.includes(word));
}

/** The text with tags removed and encodings undone, so a secret split by markup or encoded reads as one string. */
export function plainText(text: string): string {
  if (!ENCODED.test(text)) return text;
  // Inline tags go (a key split by <strong> joins up); a block's tags end a line, so a key at the
  // end of a paragraph does not join the next one's first word. Quoted attribute values (a key may
  // sit in an href) are kept at the end, one a line, so they join nothing.
  const values: string[] = [];
  const stripped = text.replace(/<[^>]*>/g, (tag) => {
    for (const m of tag.matchAll(/=\s*(?:"([^"]*)"|'([^']*)')/g)) values.push(m[1] ?? m[2]!);
    return BLOCK_TAG.test(tag) ? "\n" : "";
  });
  return [stripped, ...values]
    .join("\n")
    .replace(/[\u200b-\u200d\u2060\ufeff\u00ad]/g, "")
    .replace(/&#x([0-9a-f]{1,6});?/gi, (_, hex: string) => fromCode(parseInt(hex, 16)))
    .replace(/&#(\d{1,7});?/g, (_, dec: string) => fromCode(Number(dec)))
    .replace(
      /&(lowbar|UnderBar|amp|quot|apos|lt|gt|sol|plus|equals|colon|period|hyphen|dash);/g,
      (_, name: string) => NAMED[name] ?? "",
    )
    .replace(/\\u([0-9a-f]{4})|\\x([0-9a-f]{2})/gi, (_, u: string | undefined, x: string | undefined) =>
      fromCode(parseInt(u ?? x!, 16)),
    )
    .replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => fromCode(parseInt(hex, 16)));
}

/** Tags that end a line of text as a browser shows it. */
const BLOCK_TAG =
  /^<\/?(?:p|div|br|li|ul|ol|dl|dt|dd|h[1-6]|pre|table|tr|td|th|section|article|aside|header|footer|main|nav|figure|figcaption|blockquote|hr|head|body|html|title|script|style|meta|link|form|fieldset|details|summary|option|button|label)\b/i;

const NAMED: Record<string, string> = {
  lowbar: "_",
  UnderBar: "_",
  amp: "&",
  quot: '"',
  apos: "'",
  lt: "<",
  gt: ">",
  sol: "/",
  plus: "+",
  equals: "=",
  colon: ":",
  period: ".",
  hyphen: "-",
  dash: "-",
};

function fromCode(code: number): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
}

// A labelled secret: aws_secret_access_key = "…", "secretAccessKey": "…", SecretAccessKey: … (40 base64 characters).
const AWS_SECRET_LABELLED = /(?:secret_?access_?key|secretkey)["'\s]*[:=]\s*["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/i;
const AWS_KEY_ID = /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g;
const BASE64_40 = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;

/** True when the text holds an AWS secret access key: labelled as one, or a 40-character mixed base64 string near an access key id. */
export function findAwsSecretKeys(text: string): boolean {
  if ((text.includes("ecret") || text.includes("ECRET")) && AWS_SECRET_LABELLED.test(text)) return true;
  if (!text.includes("AKIA") && !text.includes("ASIA")) return false;
  for (const id of text.matchAll(AWS_KEY_ID)) {
    const near = text.slice(Math.max(0, id.index - 300), id.index + id[0].length + 300);
    for (const candidate of near.matchAll(BASE64_40)) {
      const value = candidate[0];
      // Random keys mix cases and digits; a hex digest or a word run does not.
      if (/[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) && !/^(?:AKIA|ASIA)/.test(value)) return true;
    }
  }
  return false;
}
