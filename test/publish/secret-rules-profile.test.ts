/**
 * secretlint's process-wide profiler must not keep the marks of every scan: it searches all of them
 * for each new mark, so in watch mode and the webhook server every build's secret scan got slower
 * than the last, and a 20,000-page build's render threads spent minutes there (src/publish/secret-rules.ts).
 */
import { describe, expect, it } from "vitest";
import { secretLintProfiler } from "@secretlint/profiler";
import { findPresetSecrets } from "../../src/publish/secret-rules.js";

const kept = () => (secretLintProfiler as unknown as { entries: unknown[] }).entries;
// The profiler's observer is told of new marks in a later task: waited for before counting.
const delivered = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe("the secret scan's profile", () => {
  it("keeps no mark, however many scans ran", async () => {
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

  it("leaves Node's performance timeline without secretlint's marks", async () => {
    for (let i = 0; i < 5; i++) await findPresetSecrets(`<p>page ${i}</p>`);
    await delivered();
    expect(performance.getEntriesByType("mark").length).toBe(0);
    expect(performance.getEntriesByType("measure").length).toBe(0);
  });

  it("still finds what the preset finds", async () => {
    const found = await findPresetSecrets("postgres://admin:hunter2hunter2@db.example.com:5432/app");
    expect(found.length).toBeGreaterThan(0);
  });
});
