/**
 * Watch mode's payments service charges the content's prices (issue 37): the snapshot the build
 * uses, read again after a build, not the code's defaults. Here the content says Zakat al-Fitr is
 * $17 a person, which no default has.
 */
import { randomUUID } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotLoader } from "../../src/api/fund-rules-source.js";
import type { Logger } from "../../src/core/logger.js";
import { DEFAULT_FUND_RULES } from "../../src/payments/fund-rules.js";
import { type LocalApis, startLocalApis } from "../../src/watch/local-apis.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { donationRequest } from "../support/donation-request.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
let dir: string;
let apis: LocalApis;

/** The sample, with Zakat al-Fitr's price per person set to `dollars` in every language. */
async function writeSnapshot(name: string, dollars: number) {
  const snapshot = JSON.parse(await readFile(join(PROJECT_ROOT, "content-cache", "sample", "snapshot.json"), "utf8"));
  for (const doc of snapshot.documents) if (doc.type === "fitr") doc.data.unit_amount = dollars;
  await writeFile(join(dir, name, "snapshot.json"), JSON.stringify(snapshot));
}

const fitr = (unitCents: number) =>
  donationRequest({ fund: "fitr", amountCents: 2 * unitCents, quantity: { count: 2, unitCents } });
async function post(body: unknown): Promise<number> {
  const response = await fetch(`${apis.payments!.url}/donations`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify(body),
  });
  await response.body?.cancel();
  return response.status;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-watch-prices-"));
  await cp(join(PROJECT_ROOT, "content-cache", "sample"), join(dir, "sample"), { recursive: true });
  await writeSnapshot("sample", 17);
  // In memory: nothing to clean, and no disk.
  apis = await startLocalApis(quiet, {}, 0, "memory://", { dir, repository: "nzf2020", sample: false });
}, 120_000);
afterAll(async () => {
  await apis?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("watch mode's payments service", { timeout: 60_000 }, () => {
  it("charges the content's price, refuses the code's default, and reads a new snapshot after a build", async () => {
    expect(DEFAULT_FUND_RULES.fitr.quantity!.unitCents).not.toBe(1700);
    expect(await post(fitr(1700))).toBe(201);
    expect(await post(fitr(DEFAULT_FUND_RULES.fitr.quantity!.unitCents))).toBe(400);
    // A build fetched live content (--fetch): its price, once the service reads it again.
    await cp(join(dir, "sample"), join(dir, "nzf2020"), { recursive: true });
    await writeSnapshot("nzf2020", 19);
    expect(await post(fitr(1900))).toBe(400);
    await apis.payments!.refreshPrices();
    expect(await post(fitr(1900))).toBe(201);
  });

  it("reads the sample when the build was asked for it, even beside a fetched snapshot", async () => {
    const fitrOf = async (sample: boolean) =>
      (await snapshotLoader(dir, "nzf2020", sample)()).find((d) => d.type === "fitr")!.data.unit_amount;
    expect(await fitrOf(true)).toBe(17);
    expect(await fitrOf(false)).toBe(19);
  });
});
