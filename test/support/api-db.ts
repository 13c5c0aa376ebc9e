/**
 * The payments service's database for tests. A fresh PGlite costs seconds to initialise, so the
 * global setup makes one migrated copy and dumps it (`makeMigratedDump`, cached by the migrations'
 * text in the temporary folder); each test file loads that dump into its own in-memory PGlite
 * (about a second) and `resetApiDb` empties the tables between tests. Both open PGlite themselves,
 * with the service's own dialect and migrations (the service opens it without a dump). With NZF_TEST_DATABASE_URL
 * (CI's PostgreSQL 15) the storage tests run against that server too.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, sql } from "kysely";
import { migrateToLatest } from "../../src/api/db/migrate.js";
import type { ApiDb } from "../../src/api/db/open.js";
import { PGliteDialect } from "../../src/api/db/pglite-dialect.js";
import type { ApiDatabase } from "../../src/api/db/schema.js";
import { forgetTestDatabase } from "./api-db-open.js";

const MIGRATIONS_DIR = new URL("../../src/api/db/migrations/", import.meta.url);

/** Where the dump of a freshly migrated database is kept, named by the migrations' hash. */
export function dumpPath(): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(MIGRATIONS_DIR).sort())
    hash.update(name).update(readFileSync(new URL(name, MIGRATIONS_DIR)));
  return join(tmpdir(), "nzf-build-test-pglite", `${hash.digest("hex").slice(0, 16)}.tar.gz`);
}

/** Made once by the global setup (test/support/global-setup.ts); kept across runs. */
export async function makeMigratedDump(): Promise<string> {
  const path = dumpPath();
  if (existsSync(path)) return path;
  const fresh = await PGlite.create("memory://");
  const db = new Kysely<ApiDatabase>({ dialect: new PGliteDialect(fresh) });
  await migrateToLatest(db as Kysely<unknown>);
  const blob = (await fresh.dumpDataDir("gzip")) as Blob;
  await mkdir(join(path, ".."), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
  await rename(partial, path);
  await db.destroy();
  return path;
}

/**
 * A migrated database of this test file's own: PGlite from the dump. The payments service opens it
 * when started with its `testDataDir` (api-db-open.ts).
 */
export async function openTestApiDb(): Promise<ApiDb> {
  const path = process.env.NZF_TEST_PGLITE_DUMP ?? (await makeMigratedDump());
  const dump = new Blob([await readFile(path)]);
  const db = new Kysely<ApiDatabase>({
    dialect: new PGliteDialect(await PGlite.create("memory://", { loadDataDir: dump })),
  });
  // A dump of the latest migrations: nothing to apply, but a dump older than the code would be caught up.
  await migrateToLatest(db as Kysely<unknown>);
  return {
    db,
    driver: "pglite",
    close: () => {
      forgetTestDatabase(db);
      return db.destroy();
    },
  };
}

/**
 * Lays the migrated dump into `dir` as PGlite's data folder, as a service that has run before leaves
 * it: `nzf-build api --data-dir dir` then opens it instead of making a database and migrating it
 * (about 4 of the 6 s of CPU a first start costs, most of a start's time on a loaded machine).
 */
export async function layMigratedDataDir(dir: string): Promise<string> {
  const path = process.env.NZF_TEST_PGLITE_DUMP ?? (await makeMigratedDump());
  await mkdir(dir, { recursive: true });
  // The dump is a tar.gz of the data folder (PGlite's dumpDataDir), its names rooted at "/".
  await promisify(execFile)("tar", ["-xzf", path, "-C", dir]);
  return dir;
}

/** The service's tables: every one the migrations made, read from the catalogue (so a new one is never left out). */
const serviceTables = new WeakMap<ApiDb["db"], Promise<string[]>>();
function tablesOf(db: ApiDb["db"]): Promise<string[]> {
  let tables = serviceTables.get(db);
  if (!tables) {
    tables = sql<{ name: string }>`select tablename as name from pg_tables
      where schemaname = current_schema() and tablename not like 'kysely_migration%' order by tablename`
      .execute(db)
      .then(({ rows }) => rows.map((row) => row.name));
    serviceTables.set(db, tables);
  }
  return tables;
}

/**
 * Empties every table of the service, identities from 1 again: the database is then as the migrated
 * dump made it (between tests of one file, and before the next file takes it, payments-service.ts).
 */
export async function resetApiDb(db: ApiDb["db"]): Promise<void> {
  const tables = await tablesOf(db);
  if (tables.length === 0) throw new Error("resetApiDb: no tables found (is the database migrated?)");
  await sql`truncate ${sql.join(tables.map((name) => sql.table(name)))} restart identity`.execute(db);
}

/** CI's PostgreSQL (NZF_TEST_DATABASE_URL), or null with the reason printed once. */
export function postgresUrl(): string | null {
  const url = process.env.NZF_TEST_DATABASE_URL;
  if (!url) {
    console.info(
      "PostgreSQL tests skipped: NZF_TEST_DATABASE_URL is not set (.ci/run sets it after starting PostgreSQL 15).",
    );
    return null;
  }
  return url;
}
