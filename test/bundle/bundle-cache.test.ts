/**
 * The bundle cache records what each bundle was compiled from. A file saved while the bundler runs
 * must not be recorded with its new content (the bundle may hold the old one), or every later build
 * would reuse a stale bundle: this is how a template fix once went unseen under watch mode.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import {
  CHANGED_DURING_BUILD,
  hashInputsAfterBuild,
  startBundle,
  writeBundleRecord,
} from "../../src/bundle/bundle-cache.js";

let root: string;
const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
const anHourAgo = () => new Date(Date.now() - 3_600_000);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nzf-bundle-cache-"));
  for (const [name, text] of [
    ["package-lock.json", "{}"],
    ["a.ts", "export const a = 1;"],
    ["b.ts", "export const b = 2;"],
  ]) {
    await writeFile(join(root, name), text);
    await utimes(join(root, name), anHourAgo(), anHourAgo());
  }
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("bundle records", () => {
  it("reuses a bundle whose inputs did not change, and recompiles after an edit", async () => {
    const record = join(root, "record.json");
    const first = await startBundle<string>(record, root);
    expect(first.reusable).toBeNull();
    const inputs = await hashInputsAfterBuild(root, ["a.ts", "b.ts"], first);
    expect(inputs["a.ts"]).toBe(sha1("export const a = 1;"));
    await writeBundleRecord(record, { inputs, result: "bundle-1" });

    expect((await startBundle<string>(record, root)).reusable?.result).toBe("bundle-1");
    await writeFile(join(root, "b.ts"), "export const b = 3; // edited");
    expect((await startBundle<string>(record, root)).reusable).toBeNull();
  });

  it("does not reuse a bundle whose output file was truncated, overwritten or whose record was edited", async () => {
    const record = join(root, "record.json");
    const output = join(root, "out.js");
    await writeFile(output, "console.log('the bundle');");
    const inputs = await hashInputsAfterBuild(root, ["a.ts"], await startBundle(record, root));
    await writeBundleRecord(record, { inputs, result: "bundle-1" }, [output]);
    expect((await startBundle<string>(record, root)).reusable?.result).toBe("bundle-1");

    await writeFile(output, "console.log('the bun"); // truncated
    expect((await startBundle<string>(record, root)).reusable).toBeNull();
    await writeFile(output, "console.log('the bundle');");
    expect((await startBundle<string>(record, root)).reusable?.result).toBe("bundle-1");
    // The record's own bytes no longer match its header: a miss, whatever it says.
    const text = await readFile(record, "utf8");
    await writeFile(record, text.replace("bundle-1", "bundle-2"));
    expect((await startBundle<string>(record, root)).reusable).toBeNull();
    await writeFile(record, "garbage");
    expect((await startBundle<string>(record, root)).reusable).toBeNull();
  });

  it("does not record the new content of a file saved while the bundler ran", async () => {
    const record = join(root, "record.json");
    await writeBundleRecord(record, {
      inputs: await hashInputsAfterBuild(root, ["a.ts", "b.ts"], await startBundle(record, root)),
      result: "bundle-1",
    });
    await writeFile(join(root, "b.ts"), ""); // an editor truncates the file...
    const start = await startBundle<string>(record, root);
    // ...the bundler reads the empty file here; then the editor writes the content.
    await writeFile(join(root, "b.ts"), "export const b = 4;");
    const inputs = await hashInputsAfterBuild(root, ["a.ts", "b.ts"], start);
    expect(inputs["b.ts"]).toBe(CHANGED_DURING_BUILD);
    expect(inputs["a.ts"]).toBe(sha1("export const a = 1;"));
    await writeBundleRecord(record, { inputs, result: "bundle-from-the-empty-file" });
    expect((await startBundle<string>(record, root)).reusable).toBeNull();
  });

  it("distrusts a new input modified as the build started, and trusts one untouched for long", async () => {
    const record = join(root, "record.json");
    await writeBundleRecord(record, {
      inputs: await hashInputsAfterBuild(root, ["a.ts"], await startBundle(record, root)),
      result: "only-a",
    });
    const start = await startBundle<string>(record, root);
    await writeFile(join(root, "c.ts"), "export const c = 5;"); // imported for the first time, saved just now
    const inputs = await hashInputsAfterBuild(root, ["a.ts", "b.ts", "c.ts"], start);
    expect(inputs["b.ts"]).toBe(sha1("export const b = 2;"));
    expect(inputs["c.ts"]).toBe(CHANGED_DURING_BUILD);
  });
});
