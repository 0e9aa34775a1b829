import { randomUUID } from "node:crypto";
import type { SessionLock } from "../../stores/session-store.js";
import type { PgQueryable } from "./pg-types.js";

/** The server's clock in ms since the epoch (lease expiries use one clock, whatever the clients' clocks say). */
export const SERVER_NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/** Options of {@link takePostgresLease}. */
export interface TakePostgresLeaseOptions {
  /** Where the lease queries run (a pool: no connection is held between them). */
  pool: PgQueryable;
  /**
   * The quoted lease table, `(<keyColumn> text PRIMARY KEY, token text NOT NULL, expires_at bigint NOT NULL)`.
   * Identifiers cannot be parameters: pass only validated, quoted names.
   */
  table: string;
  /** The table's key column (a trusted identifier). */
  keyColumn: string;
  /** The leased resource (a run id, a session id). */
  key: string;
  /** How long the lease lives without renewal. */
  ttlMs: number;
  /** Runs each lease query (the caller's error mapping and lazy schema creation), named by its operation. */
  run: <T>(operation: "lock" | "release" | "renew", task: () => Promise<T>) => Promise<T>;
}

/**
 * Takes a lease row: an upsert that takes the row when it is absent or expired (by the server's clock), with a
 * random token. Resolves `undefined` while another holder has it. `renew` moves the expiry while the token
 * matches and the lease has not expired (`false` once it was lost or released); `release` deletes the row
 * while the token matches (an expired holder's release leaves its successor alone) and is idempotent. No
 * connection is held between queries; a holder that dies frees the lease after `ttlMs`.
 */
export async function takePostgresLease(
  options: TakePostgresLeaseOptions,
): Promise<Required<SessionLock> | undefined> {
  const { pool, table, keyColumn, key, run } = options;
  const token = randomUUID();
  const ttl = Math.max(1, Math.ceil(options.ttlMs));
  const taken = await run("lock", async () => {
    const { rows } = await pool.query<{ token: string }>(
      `INSERT INTO ${table} AS l (${keyColumn}, token, expires_at) VALUES ($1, $2, ${SERVER_NOW_MS} + $3)
       ON CONFLICT (${keyColumn}) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
         WHERE l.expires_at <= ${SERVER_NOW_MS}
       RETURNING token`,
      [key, token, ttl],
    );
    return rows[0]?.token === token;
  });
  if (!taken) return undefined;
  let released: Promise<void> | undefined;
  return {
    release: () => {
      released ??= run("release", async () => {
        await pool.query(`DELETE FROM ${table} WHERE ${keyColumn} = $1 AND token = $2`, [key, token]);
      });
      return released;
    },
    renew: async () => {
      if (released !== undefined) return false;
      return run("renew", async () => {
        const result = await pool.query(
          `UPDATE ${table} SET expires_at = ${SERVER_NOW_MS} + $3
           WHERE ${keyColumn} = $1 AND token = $2 AND expires_at > ${SERVER_NOW_MS}`,
          [key, token, ttl],
        );
        return result.rowCount === 1;
      });
    },
  };
}
