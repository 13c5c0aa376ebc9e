/**
 * Kysely on PGlite (PostgreSQL compiled to WebAssembly, in a data folder): the embedded database of
 * `nzf-build api`, watch mode and the tests. Written here rather than taken from
 * `kysely-pglite-dialect`, whose peer range stops at PGlite 0.4. PGlite is one connection, so the
 * driver hands it out to one holder at a time: a transaction keeps it from BEGIN to COMMIT and other
 * queries wait their turn, as they would for a pool of one.
 */
import type { PGlite } from "@electric-sql/pglite";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pg.query<R>(compiled.sql, compiled.parameters as unknown[]);
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursors to stream from; Kysely requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("PGlite does not stream query results.");
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  /** The tail of the queue of holders: each acquire waits for the one before it to release. */
  private tail: Promise<void> = Promise.resolve();
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();

  constructor(private readonly pg: PGlite) {
    this.connection = new PGliteConnection(pg);
  }

  async init(): Promise<void> {
    await this.pg.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await before;
    // One object per holder, so a release cannot free another holder's turn.
    const held = Object.create(this.connection) as DatabaseConnection;
    this.releases.set(held, release);
    return held;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : "";
    await connection.executeQuery(CompiledQuery.raw(`begin${level}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.releases.get(connection)?.();
    this.releases.delete(connection);
  }

  async destroy(): Promise<void> {
    await this.tail;
    await this.pg.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
