/**
 * No secret key or auth token may ever ship (docs/payments-api.md, docs/accounts.md). Every text
 * file that is new in a build is scanned before anything is published: pages while they render
 * (their HTML is in memory then), the other files as they are added to the new site
 * (src/publish/site-output.ts). Files kept from the live site were scanned when they were published.
 */
import { NzfError } from "../core/errors.js";
import { findSecretKeys } from "../payments/config.js";
import { findAuthSecrets } from "../auth/dist-scan.js";

export interface SecretScan {
  /** Scans one file's text (relative path inside the site). */
  scanText(file: string, text: string): void;
  /** Fails if anything scanned holds a secret. Returns how many files were scanned. */
  assertClean(): number;
}

export function createSecretScan(): SecretScan {
  const leaks: string[] = [];
  let scanned = 0;
  const scanText = (file: string, text: string) => {
    scanned++;
    for (const key of findSecretKeys(text)) leaks.push(`${file}: ${key}`);
    // Auth findings name the kind only: even a prefix of a token or client secret stays out of logs.
    for (const kind of new Set(findAuthSecrets(text).map((f) => f.kind))) leaks.push(`${file}: ${kind}`);
  };
  return {
    scanText,
    assertClean() {
      if (leaks.length) {
        throw new NzfError("CONFIG_INVALID", `A secret key or token would be published in dist/, so nothing was published:\n  ${leaks.sort().join("\n  ")}`, {
          hint: "Remove it from the content or configuration (only public values belong in the site: pk_ publishable keys, user pool and app client ids), then roll the leaked key, token or client secret.",
        });
      }
      return scanned;
    },
  };
}
