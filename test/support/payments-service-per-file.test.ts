/**
 * Test files that change no shared state share their worker's modules (vitest.config.ts), so the
 * payments service's test database is kept per test file: a file never reads what an earlier file
 * in the same worker stored. Seen before: a receipt numbered 000002 where 000001 was due, because
 * an earlier file in the worker had issued one.
 */
import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { startTestPaymentsService } from "./payments-service.js";

const thisFile = expect.getState().testPath;
afterEach(() => expect.setState({ testPath: thisFile }));

async function counters(testPath: string, leave: boolean): Promise<unknown[]> {
  expect.setState({ testPath });
  const service = await startTestPaymentsService();
  try {
    const { rows } = await sql`select financial_year, last_number from receipt_counters`.execute(service.db);
    if (leave) await sql`insert into receipt_counters values ('2026-27', 1)`.execute(service.db);
    return rows;
  } finally {
    await service.stop();
  }
}

it("gives the next test file a database of its own, and one file the same database throughout", async () => {
  // (The next file's is the earlier one's emptied, the migrated dump again: payments-service.ts.)
  expect(await counters("/earlier-file.test.ts", true)).toEqual([]);
  // The same file again (a second service, as files that restart one do) sees what it stored.
  expect(await counters("/earlier-file.test.ts", false)).toEqual([{ financial_year: "2026-27", last_number: 1 }]);
  // The next file in the worker starts empty.
  expect(await counters("/next-file.test.ts", false)).toEqual([]);
});

it("gives the next file a new database when the earlier one left a service running", async () => {
  expect.setState({ testPath: "/file-that-failed-to-stop.test.ts" });
  const left = await startTestPaymentsService();
  expect.setState({ testPath: "/file-after-it.test.ts" });
  const next = await startTestPaymentsService();
  try {
    // Not the earlier file's database emptied: that one is closed, so what the service left running
    // still tries to write fails there, and never lands in the next file's data.
    expect(next.db).not.toBe(left.db);
    await expect(sql`insert into receipt_counters values ('2026-27', 7)`.execute(left.db)).rejects.toThrow();
    expect((await sql`select last_number from receipt_counters`.execute(next.db)).rows).toEqual([]);
  } finally {
    await next.stop();
    await left.stop();
  }
});
