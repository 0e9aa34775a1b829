import pg from "pg";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { PgPool, PgPoolClient } from "./pg-types.js";

/** How the Postgres stores reach PostgreSQL: a pool of yours, or a connection string. */
export interface PostgresConnectionOptions {
  /** A `pg` pool. The store uses it as it is and never ends it. */
  pool?: PgPool;
  /**
   * Where to connect when no `pool` is given; without it, `pg` reads the usual `PG*` environment variables.
   * The store's own pool has at most 10 connections and a 2 s connect timeout, so an unreachable server
   * surfaces as an error quickly.
   */
  connectionString?: string;
  /**
   * The store's own pool: a query with no answer within this many milliseconds fails (the store reports a
   * `StoreError`), so a server that stops answering after the connection was made does not hang a run.
   * Default 10 000. (With a `pool` of yours, set `query_timeout` on it.)
   */
  queryTimeoutMs?: number;
}

/** The default {@link PostgresConnectionOptions.queryTimeoutMs}. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

/** A `pg` pool shared by a store's operations, ended only when the store created it. */
export class PostgresConnection {
  /** The pool. */
  readonly pool: PgPool;
  private readonly owned: boolean;
  private ended = false;

  constructor(options: PostgresConnectionOptions) {
    if (options.pool !== undefined) {
      this.pool = options.pool;
      this.owned = false;
    } else {
      const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
      if (!Number.isFinite(queryTimeoutMs) || queryTimeoutMs <= 0) {
        throw new InvalidArgumentError({
          argument: "queryTimeoutMs",
          message: `expected a positive number of milliseconds, got ${String(queryTimeoutMs)}`,
        });
      }
      this.pool = new pg.Pool({
        connectionString: options.connectionString,
        max: 10,
        connectionTimeoutMillis: 2_000,
        query_timeout: queryTimeoutMs,
      });
      // An idle connection that breaks is dropped by the pool; without a listener it would crash the process.
      this.pool.on("error", () => undefined);
      this.owned = true;
    }
  }

  /**
   * Runs `task` on one client inside BEGIN ... COMMIT (ROLLBACK when it throws). After a query timeout the
   * connection is discarded instead: a ROLLBACK on a server that stopped answering would wait as long again,
   * and the server rolls the transaction back when the connection closes.
   */
  async transaction<T>(task: (client: PgPoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const result = await task(client);
      await client.query("COMMIT");
      client.release();
      return result;
    } catch (error) {
      if (isQueryTimeout(error)) {
        client.release(true);
        throw error;
      }
      try {
        await client.query("ROLLBACK");
        client.release();
      } catch {
        client.release(true); // the connection is broken: discard it
      }
      throw error;
    }
  }

  /** Ends the pool if the store created it (a pool passed in is left open). Idempotent. */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    if (this.owned) await this.pool.end();
  }
}

/** node-postgres's error for a query that got no answer within `query_timeout`. */
function isQueryTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === "Query read timeout";
}
