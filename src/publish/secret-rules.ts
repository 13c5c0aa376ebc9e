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
  forgetProfile();
  return [
    ...new Set(result.messages.map((m) => `${m.ruleId.replace("@secretlint/secretlint-rule-", "")} ${m.messageId}`)),
  ];
}

/**
 * secretlint's profiler (one for the process, always on) keeps every timing mark of every scan and
 * searches all of them for each new one. In a process that builds again and again (watch mode, the
 * webhook server) each build's scan was slower than the last: a shared-layout edit in watch mode
 * went from 3.6 s to 59 s over ten edits, most of it in that search. Nothing reads the profile, so
 * it is emptied after the scans of each task, once the marks have been delivered.
 */
let forgetting = false;
function forgetProfile(): void {
  if (forgetting) return;
  forgetting = true;
  // The profiler hears of marks in a later task (a PerformanceObserver): emptied after that.
  setImmediate(() => {
    forgetting = false;
    // Private in its types; a later secretlint without them is left alone (test/publish/secret-rules-profile.test.ts notices).
    const kept = secretLintProfiler as unknown as { entries?: unknown[]; measures?: unknown[] };
    if (Array.isArray(kept.entries)) kept.entries.length = 0;
    if (Array.isArray(kept.measures)) kept.measures.length = 0;
  });
}

/** A Google API key: AIza and 35 more characters of its alphabet (Google's documented form). */
const GOOGLE_API_KEY = /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/;

export function hasGoogleApiKey(text: string): boolean {
  return text.includes("AIza") && GOOGLE_API_KEY.test(text);
}
