/**
 * secretlint's process-wide profiler must not keep the marks of every scan: it searches all of them
 * for each new mark, so in watch mode and the webhook server every build's secret scan got slower
 * than the last (src/publish/secret-rules.ts, forgetProfile).
 */
import { describe, expect, it } from "vitest";
import { secretLintProfiler } from "@secretlint/profiler";
import { findPresetSecrets } from "../../src/publish/secret-rules.js";

const kept = () => (secretLintProfiler as unknown as { entries: unknown[] }).entries;
// The profiler's observer is told of new marks in a later task, and the scan empties it after that.
const delivered = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe("the secret scan's profile", () => {
  it("is emptied once each batch of scans is delivered, however many scans ran", async () => {
    expect(Array.isArray(kept())).toBe(true);
    await findPresetSecrets("<p>a page</p>");
    await delivered();
    for (let i = 0; i < 5; i++) await findPresetSecrets(`<p>page ${i}</p>`);
    await delivered();
    expect(kept().length).toBe(0);
    for (let i = 0; i < 40; i++) {
      await findPresetSecrets(`<p>page ${i}</p>`);
      if (i % 10 === 9) await delivered();
    }
    await delivered();
    expect(kept().length).toBe(0);
  });

  it("still finds what the preset finds", async () => {
    const found = await findPresetSecrets("postgres://admin:hunter2hunter2@db.example.com:5432/app");
    expect(found.length).toBeGreaterThan(0);
  });
});
