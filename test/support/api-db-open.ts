/**
 * src/api/db/open.ts as tests have it: the payments service opens its database the way production
 * does (startApiServer reads DATABASE_URL, else its data folder, and calls openDatabase), and a data
 * folder named by `testDataDir` is a database the test support already holds, the migrated PGlite of
 * the test file (api-db.ts, payments-service.ts), which a worker reuses from file to file instead of
 * starting PGlite again. Any other target is opened by the real openDatabase.
 *
 * Every test file runs with open.ts replaced by this module (test/support/api-db-setup.ts,
 * vitest.config.ts); the payments service's worker thread is bundled with it in open.ts's place
 * (payments-service-thread.ts).
 */
import type { ApiDb, DatabaseTarget } from "../../src/api/db/open.js";

type Open = (target: DatabaseTarget) => Promise<ApiDb>;

/** The real openDatabase, given by the module mock (api-db-setup.ts); none in the worker thread's bundle. */
let realOpen: Open | undefined;
export function useRealOpen(open: Open): void {
  realOpen = open;
}

const PREFIX = "memory://nzf-test-db-";
const held = new Map<string, ApiDb>();
const named = new WeakMap<ApiDb["db"], string>();
let count = 0;

/** What the replaced src/api/db/open.ts answers. */
export async function openDatabase(target: DatabaseTarget): Promise<ApiDb> {
  const dir = target.dataDir;
  if (!target.url && dir?.startsWith(PREFIX)) {
    const database = held.get(dir);
    if (!database) throw new Error(`${dir}: no test database by that name (closed, or named in another worker)`);
    // Its owner (the test support) closes it, not the service's stop.
    return { db: database.db, driver: database.driver, close: async () => undefined };
  }
  if (!realOpen) throw new Error(`openDatabase(${JSON.stringify(target)}): only test databases are opened here`);
  return realOpen(target);
}

/**
 * The data folder to start the payments service with (its `dataDir`) so that it opens `database`.
 * Fails when src/api/db/open.ts is not replaced by this module: the service would open an empty
 * database of its own, and the test would read another than the service writes.
 */
export async function testDataDir(database: ApiDb): Promise<string> {
  const served = await servedOpener();
  if (served.openDatabase !== openDatabase)
    throw new Error(
      "the payments database is not mocked: vitest.config.ts must list test/support/api-db-setup.ts in setupFiles",
    );
  let dir = named.get(database.db);
  if (!dir) {
    dir = `${PREFIX}${++count}`;
    named.set(database.db, dir);
    held.set(dir, database);
  }
  return dir;
}

/**
 * src/api/db/open.js as the service imports it, one import for callers at the same moment
 * (`Promise.all` of two testDataDir). Vitest's mocker cannot answer two imports of a mocked module
 * started together from one module: both share this module's import call stack, the first puts the
 * mock on it while its factory or cached exports are awaited, and the second, finding the mock
 * there, is taken for the factory's own importOriginal and given the real open.js, so the check
 * above failed now and then, depending on how close the two calls fell (test/api/paypal/
 * without-settings.test.ts, whose two databases open together).
 */
let serving: Promise<typeof import("../../src/api/db/open.js")> | undefined;
function servedOpener(): Promise<typeof import("../../src/api/db/open.js")> {
  serving ??= import("../../src/api/db/open.js").finally(() => {
    serving = undefined;
  });
  return serving;
}

/** `db` is closed (api-db.ts): its name opens nothing any more, and it is not kept alive by it. */
export function forgetTestDatabase(db: ApiDb["db"]): void {
  const dir = named.get(db);
  if (dir) held.delete(dir);
}
