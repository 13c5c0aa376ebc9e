/**
 * The capture lease (src/api/paypal/capture-lease.ts): one holder per donation at a time, given
 * back when the call ends, and lapsed after a minute when its holder crashed, so a donor's retry
 * is never locked out.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiDb } from "../../../src/api/db/open.js";
import { CAPTURE_LEASE_MS, giveBackCaptureLease, takeCaptureLease } from "../../../src/api/paypal/capture-lease.js";
import { openTestApiDb } from "../../support/api-db.js";

let database: ApiDb;
beforeAll(async () => {
  database = await openTestApiDb();
});
afterAll(() => database?.close());

describe("the PayPal capture lease", () => {
  it("has one holder per donation, is given back, and lapses when its holder crashed", async () => {
    const db = database.db;
    const [gift, other] = [`don_${randomUUID()}`, `don_${randomUUID()}`];
    const at = new Date("2026-11-28T02:00:00Z");
    const later = (ms: number) => new Date(at.getTime() + ms);
    const both = await Promise.all([takeCaptureLease(db, gift, at), takeCaptureLease(db, gift, at)]);
    expect(both.sort()).toEqual([false, true]);
    expect(await takeCaptureLease(db, other, at)).toBe(true);
    expect(await takeCaptureLease(db, gift, later(CAPTURE_LEASE_MS - 1))).toBe(false);
    await giveBackCaptureLease(db, gift);
    expect(await takeCaptureLease(db, gift, later(1_000))).toBe(true);
    // Its holder never gives it back (a crash): a minute on, the next request takes it.
    expect(await takeCaptureLease(db, gift, later(1_000 + CAPTURE_LEASE_MS))).toBe(true);
    expect(await takeCaptureLease(db, gift, later(2_000 + CAPTURE_LEASE_MS))).toBe(false);
  });
});
