/**
 * Opens the service's database: PostgreSQL when given a `postgres://` URL (DATABASE_URL), else
 * PGlite in a data folder (`.nzf-data/` by default; "memory://" keeps nothing: a throwaway service
 * that writes no files), and brings its schema up to date before anything is served.
 */
import { mkdir } from "node:fs/promises";
import { Kysely, PostgresDialect } from "kysely";
import { NzfError } from "../../core/errors.js";
import { migrateToLatest } from "./migrate.js";
import { PGliteDialect } from "./pglite-dialect.js";
import type { ApiDatabase } from "./schema.js";

export interface DatabaseTarget {
  /** A `postgres://` (or `postgresql://`) URL: use that server. */
  url?: string;
  /** PGlite's data folder, or "memory://" for a database that lives only in this process. */
  dataDir?: string;
}

export interface ApiDb {
  db: Kysely<ApiDatabase>;
  /** "postgres" or "pglite", for logs and the bench. */
  driver: "postgres" | "pglite";
  close(): Promise<void>;
}

export async function openDatabase(target: DatabaseTarget): Promise<ApiDb> {
  let db: Kysely<ApiDatabase>;
  let driver: ApiDb["driver"];
  if (target.url) {
    if (!/^postgres(ql)?:\/\//.test(target.url))
      throw new NzfError("API_DATABASE_FAILED", "DATABASE_URL is not a postgres:// URL.", { subject: "DATABASE_URL" });
    const { default: pg } = await import("pg");
    // Lambda runs one request at a time per instance: a small pool is enough and spares the server.
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    db = new Kysely<ApiDatabase>({ dialect: new PostgresDialect({ pool }) });
    driver = "postgres";
  } else {
    const dataDir = target.dataDir ?? ".nzf-data";
    const { PGlite } = await import("@electric-sql/pglite");
    if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
    let pglite: InstanceType<typeof PGlite>;
    try {
      pglite = await PGlite.create(dataDir);
    } catch (error) {
      throw new NzfError("API_DATABASE_FAILED", `The embedded database in ${dataDir} could not be opened.`, {
        subject: dataDir,
        cause: error,
      });
    }
    db = new Kysely<ApiDatabase>({ dialect: new PGliteDialect(pglite) });
    driver = "pglite";
  }
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    if (error instanceof NzfError) throw error;
    throw new NzfError("API_DATABASE_FAILED", "The payments database could not be reached or migrated.", {
      subject: target.url ? "DATABASE_URL" : (target.dataDir ?? ".nzf-data"),
      cause: error,
    });
  }
  return { db, driver, close: () => db.destroy() };
}
