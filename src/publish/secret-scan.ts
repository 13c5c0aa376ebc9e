/**
 * No secret key or auth token may ever ship (docs/payments-api.md, docs/accounts.md). Before a new
 * site is published, every text file that is new in it is scanned: pages while they render (their
 * HTML is in memory then), the other files at the end. Files hard-linked from the live site
 * (unchanged pages and assets of an incremental build) were scanned when they were published.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import pLimit from "p-limit";
import { NzfError } from "../core/errors.js";
import { findSecretKeys } from "../payments/config.js";
import { findAuthSecrets } from "../auth/dist-scan.js";

const TEXT_FILES = ["**/*.{html,js,mjs,json,css,txt,xml,webmanifest,map}", "_headers", "_redirects"];

export interface SecretScan {
  /** Scans one file's text (relative path inside the site). */
  scanText(file: string, text: string): void;
  /**
   * Scans the new text files not scanned yet, then fails if anything was found. `kept` lists files
   * carried over from the live site (already scanned when published). Returns how many files were scanned.
   */
  assertClean(siteDir: string, kept?: ReadonlySet<string>): Promise<number>;
}

export function createSecretScan(): SecretScan {
  const leaks: string[] = [];
  const scanned = new Set<string>();
  const scanText = (file: string, text: string) => {
    scanned.add(file);
    for (const key of findSecretKeys(text)) leaks.push(`${file}: ${key}`);
    // Auth findings name the kind only: even a prefix of a token or client secret stays out of logs.
    for (const kind of new Set(findAuthSecrets(text).map((f) => f.kind))) leaks.push(`${file}: ${kind}`);
  };
  return {
    scanText,
    async assertClean(siteDir, kept = new Set()) {
      const limit = pLimit(16);
      const files = (await fg(TEXT_FILES, { cwd: siteDir, dot: true })).sort();
      await Promise.all(
        files.map((file) =>
          limit(async () => {
            if (scanned.has(file) || kept.has(file)) return;
            const path = join(siteDir, file);
            if ((await stat(path)).nlink > 1) return;
            scanText(file, await readFile(path, "utf8"));
          }),
        ),
      );
      if (leaks.length) {
        throw new NzfError("CONFIG_INVALID", `A secret key or token would be published in dist/, so nothing was published:\n  ${leaks.sort().join("\n  ")}`, {
          hint: "Remove it from the content or configuration (only public values belong in the site: pk_ publishable keys, user pool and app client ids), then roll the leaked key, token or client secret.",
        });
      }
      return scanned.size;
    },
  };
}
