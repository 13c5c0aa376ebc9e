/**
 * The maintained half of the secret scan: secretlint's recommended preset (GitHub, Slack, npm,
 * OpenAI, Anthropic, SendGrid, Shopify, Linear, 1Password tokens, private keys, GCP service account
 * keys, database connection strings, basic-auth URLs, AWS), kept up to date by its maintainers, so
 * the project's own checks (secret-scan.ts) need only cover what it misses: Stripe and webhook
 * secrets, auth tokens, AWS keys split or near their id, and Google API keys (`AIza…`, which the
 * preset's GCP rule does not look for).
 *
 * secretlint 11 (Node 20 or newer; 12 and 13 need Node 22). Its `filter-comments` rule is
 * left out: it honours `secretlint-disable` comments, and a comment is something the content can write.
 */
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { rules as recommended } from "@secretlint/secretlint-rule-preset-recommend";

// The preset's rules one by one (as the preset registers them, with their own defaults), but the
// comment filter: secretlint 11 does not honour `disabled` for a rule inside a preset.
const CONFIG = {
  rules: recommended
    .filter((rule) => rule.meta.id !== "@secretlint/secretlint-rule-filter-comments")
    .map((rule) => ({ id: rule.meta.id, rule })),
};

/** What the preset finds in `text`, each as `<rule> <message id>` (the rule's name and the kind, never the value). */
export async function findPresetSecrets(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { content: text, filePath: "site-file.txt", ext: ".txt", contentType: "text" },
    options: { config: CONFIG },
  });
  return [
    ...new Set(result.messages.map((m) => `${m.ruleId.replace("@secretlint/secretlint-rule-", "")} ${m.messageId}`)),
  ];
}

/**
 * secretlint's profiler (one for the process, always on) makes performance marks for every rule of
 * every scan; it keeps each mark, searches all of them for each new one, and keeps a promise per
 * mark, and Node's performance timeline keeps every mark and measure too. Nothing reads the
 * profile. Emptying its lists after each task still left a 20,000-page build's render threads
 * spending minutes in that search and hundreds of MB on the marks (a page is scanned where it is
 * rendered: src/render/worker/render-worker.ts). So no mark is made at all.
 */
secretLintProfiler.mark = () => undefined;

/** A Google API key: AIza and 35 more characters of its alphabet (Google's documented form). */
const GOOGLE_API_KEY = /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/;

export function hasGoogleApiKey(text: string): boolean {
  return text.includes("AIza") && GOOGLE_API_KEY.test(text);
}
