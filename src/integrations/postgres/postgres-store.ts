import { randomUUID } from "node:crypto";
import type { Message } from "../../models/message.js";
import { checkLockTtl } from "../../stores/check-lock-ttl.js";
import { compactSessionRecords } from "../../stores/compact-session-records.js";
import { foldSessionRecords } from "../../stores/fold-session-records.js";
import { parseSessionRecord } from "../../stores/parse-session-record.js";
import {
  type AppendOptions,
  type JsonValue,
  SESSION_RECORD_VERSION,
  type SessionData,
  type SessionInfo,
  type SessionLock,
  type SessionRecord,
  type SessionStore,
} from "../../stores/session-store.js";
import { toStoreError } from "../../stores/to-store-error.js";
import { withSessionLock } from "../../stores/with-session-lock.js";
import { createSchema } from "./create-schema.js";
import { decodeJsonb, encodeJsonb } from "./jsonb-codec.js";
import type { PgPoolClient, PgQueryable } from "./pg-types.js";
import { PostgresConnection, type PostgresConnectionOptions } from "./postgres-connection.js";
import { quoteTableName } from "./quote-table-name.js";

/** Options of {@link PostgresStore}. */
export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /** The records table, `name` or `schema.name` (default `"agentloop_session_records"`), created if missing. */
  table?: string;
  /** How long a session lock lives without renewal (default 60 s; see `SessionStore.lockTtlMs`). */
  lockTtlMs?: number;
}

type RecordRow = {
  v: number;
  type: string;
  at: string;
  body: unknown;
  append_id: string | null;
};

/** The server's clock in ms since the epoch (lock expiries use one clock, whatever the clients' clocks say). */
const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/**
 * A {@link SessionStore} on PostgreSQL 11+ (`agentloop/postgres`, needs the `pg` peer dependency). One table,
 * created lazily (`CREATE TABLE IF NOT EXISTS`, once per store) before the first operation:
 * `(id bigserial, session_id text, v int, type text, at bigint, body jsonb, append_id text)`, one row per
 * record in `id` order; `body` holds the record's payload (`{ message }`, `{ messages }` or `{ state }`). A
 * second table, `<table>_locks (session_id text PRIMARY KEY, token text, expires_at bigint)`, holds the
 * session locks.
 *
 * - `append` inserts all rows of a call with one INSERT in a transaction; `replace` deletes the history rows and
 *   inserts a snapshot, `saveState` deletes the state row and inserts the new one, each in one transaction.
 *   Writes of one session are serialised by a transaction-level advisory lock, so the rows of concurrent
 *   appends never interleave. An append whose `appendId` is that of the session's last history row inserts
 *   nothing (a query retried after its reply was lost is applied once).
 * - `lock` is a lease row: an upsert that takes the row when it is absent or expired (by the server's clock),
 *   with a random token; `renew` moves its expiry while the token matches; `release` deletes it while the
 *   token matches. No connection is held between queries, so any number of held locks share the pool (the
 *   default pool of 10 serves hundreds of concurrent sessions); a holder that dies frees the lock after
 *   `ttlMs`.
 * - Queries are parameterised; the table name is validated and quoted. Strings `jsonb` cannot hold (NUL,
 *   unpaired surrogates) are stored losslessly (see `JSONB_WRAPPER_KEY`); session ids must not contain NUL.
 */
export class PostgresStore implements SessionStore {
  /** The table name as given. */
  readonly table: string;
  private readonly quoted: string;
  private readonly locks: string;
  private readonly index: string;
  private readonly connection: PostgresConnection;
  private schema: Promise<void> | undefined;
  private readonly held = new Set<SessionLock>();
  /** How long a session lock lives without renewal (see `SessionStore.lockTtlMs`). */
  readonly lockTtlMs: number | undefined;

  constructor(options: PostgresStoreOptions = {}) {
    this.table = options.table ?? "agentloop_session_records";
    const { quoted, base } = quoteTableName({ name: this.table, argument: "table" });
    this.quoted = quoted;
    this.locks = `${quoted.slice(0, -(base.length + 2))}"${base.slice(0, 57)}_locks"`;
    this.index = `"${base.slice(0, 50)}_session_idx"`;
    this.lockTtlMs = checkLockTtl(options.lockTtlMs);
    this.connection = new PostgresConnection(options);
  }

  /** Loads a session, or `undefined` when it has no rows. */
  async load(sessionId: string): Promise<SessionData | undefined> {
    return this.run("load", sessionId, async () => {
      const records = await this.readRecords(this.connection.pool, sessionId, "load");
      return foldSessionRecords({ sessionId, records });
    });
  }

  /**
   * Inserts one message row per message, with one INSERT (an empty list writes nothing; an append repeating
   * the `appendId` of the session's last history row neither).
   */
  async append(sessionId: string, messages: readonly Message[], options?: AppendOptions): Promise<void> {
    if (messages.length === 0) return;
    const appendId = options?.appendId ?? null;
    await this.run("append", sessionId, async () => {
      const bodies = `[${messages.map((message) => encodeJsonb({ message })).join(",")}]`;
      await this.write(sessionId, async (client) => {
        await client.query(
          `INSERT INTO ${this.quoted} (session_id, v, type, at, body, append_id)
           SELECT $1, $2, 'message', $3, e.body, $5 FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(body, n)
           WHERE $5::text IS NULL OR NOT EXISTS (
             SELECT 1 FROM (
               SELECT append_id FROM ${this.quoted} WHERE session_id = $1 AND type <> 'state' ORDER BY id DESC LIMIT 1
             ) AS last WHERE last.append_id = $5::text
           )
           ORDER BY e.n`,
          [sessionId, SESSION_RECORD_VERSION, Date.now(), bodies, appendId],
        );
      });
    });
  }

  /** Deletes the history rows and inserts a snapshot, in one transaction (the state row is kept). */
  async replace(sessionId: string, messages: readonly Message[]): Promise<void> {
    await this.run("replace", sessionId, async () => {
      const body = encodeJsonb({ messages: [...messages] });
      await this.write(sessionId, async (client) => {
        await client.query(`DELETE FROM ${this.quoted} WHERE session_id = $1 AND type <> 'state'`, [
          sessionId,
        ]);
        await this.insert(client, sessionId, "snapshot", body);
      });
    });
  }

  /** Replaces the session's state row, in one transaction. */
  async saveState(sessionId: string, state: { [key: string]: JsonValue }): Promise<void> {
    await this.run("saveState", sessionId, async () => {
      const body = encodeJsonb({ state });
      await this.write(sessionId, async (client) => {
        await client.query(`DELETE FROM ${this.quoted} WHERE session_id = $1 AND type = 'state'`, [
          sessionId,
        ]);
        await this.insert(client, sessionId, "state", body);
      });
    });
  }

  /**
   * Rewrites the session as its compact form (see `SessionStore.compact`) in one transaction holding the
   * session's write lock, under the session lock (`SessionBusyError` while a run holds it). The snapshot row
   * keeps the `append_id` of the last history row, so a retry of the last append is still dropped.
   */
  async compact(sessionId: string): Promise<boolean> {
    return withSessionLock({
      store: this,
      sessionId,
      task: () =>
        this.run("compact", sessionId, () =>
          this.write(sessionId, async (client) => {
            const records = await this.readRecords(client, sessionId, "compact");
            const compacted = compactSessionRecords({ sessionId, records });
            if (compacted === undefined) return false;
            await client.query(`DELETE FROM ${this.quoted} WHERE session_id = $1`, [sessionId]);
            for (const record of compacted.records) {
              const body =
                record.type === "snapshot"
                  ? encodeJsonb({ messages: record.messages })
                  : encodeJsonb({ state: record.type === "state" ? record.state : {} });
              const appendId = record.type === "snapshot" ? (compacted.lastAppendId ?? null) : null;
              await client.query(
                `INSERT INTO ${this.quoted} (session_id, v, type, at, body, append_id)
                 VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
                [sessionId, SESSION_RECORD_VERSION, record.type, record.at, body, appendId],
              );
            }
            return true;
          }),
        ),
    });
  }

  /** Lists the sessions (GROUP BY session), most recently updated first. */
  async list(): Promise<SessionInfo[]> {
    return this.run("list", undefined, async () => {
      const { rows } = await this.connection.pool.query<{ session_id: string; updated_at: string }>(
        `SELECT session_id, max(at) AS updated_at FROM ${this.quoted} GROUP BY session_id ORDER BY updated_at DESC`,
      );
      return rows.map((row) => ({ sessionId: row.session_id, updatedAt: Number(row.updated_at) }));
    });
  }

  /** Deletes every row of the session (its lock, if held, stays). */
  async delete(sessionId: string): Promise<void> {
    await this.run("delete", sessionId, async () => {
      await this.connection.pool.query(`DELETE FROM ${this.quoted} WHERE session_id = $1`, [sessionId]);
    });
  }

  /** Takes the session's lease row (see the class description), or resolves `undefined` while it is held. */
  async lock(sessionId: string, options: { ttlMs: number }): Promise<SessionLock | undefined> {
    return this.run("lock", sessionId, async () => {
      const token = randomUUID();
      const ttl = Math.max(1, Math.ceil(options.ttlMs));
      const { rows } = await this.connection.pool.query<{ token: string }>(
        `INSERT INTO ${this.locks} AS l (session_id, token, expires_at) VALUES ($1, $2, ${NOW_MS} + $3)
         ON CONFLICT (session_id) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
           WHERE l.expires_at <= ${NOW_MS}
         RETURNING token`,
        [sessionId, token, ttl],
      );
      if (rows[0]?.token !== token) return undefined;
      let released: Promise<void> | undefined;
      const lock: SessionLock = {
        release: () => {
          released ??= this.run("release", sessionId, async () => {
            this.held.delete(lock);
            await this.connection.pool.query(
              `DELETE FROM ${this.locks} WHERE session_id = $1 AND token = $2`,
              [sessionId, token],
            );
          });
          return released;
        },
        renew: async () => {
          if (released !== undefined) return false;
          return this.run("renew", sessionId, async () => {
            const result = await this.connection.pool.query(
              `UPDATE ${this.locks} SET expires_at = ${NOW_MS} + $3
               WHERE session_id = $1 AND token = $2 AND expires_at > ${NOW_MS}`,
              [sessionId, token, ttl],
            );
            return result.rowCount === 1;
          });
        },
      };
      this.held.add(lock);
      return lock;
    });
  }

  /** Releases held locks, then ends the pool if the store created it (one passed in stays open). */
  async close(): Promise<void> {
    await Promise.all([...this.held].map((lock) => lock.release().catch(() => undefined)));
    await this.connection.close();
  }

  private async insert(client: PgPoolClient, sessionId: string, type: string, body: string): Promise<void> {
    await client.query(
      `INSERT INTO ${this.quoted} (session_id, v, type, at, body) VALUES ($1, $2, $3, $4, $5::jsonb)`,
      [sessionId, SESSION_RECORD_VERSION, type, Date.now(), body],
    );
  }

  /** Reads and checks a session's rows as records, in `id` order. */
  private async readRecords(
    queryable: PgQueryable,
    sessionId: string,
    operation: string,
  ): Promise<SessionRecord[]> {
    const { rows } = await queryable.query<RecordRow>(
      `SELECT v, type, at, body, append_id FROM ${this.quoted} WHERE session_id = $1 ORDER BY id`,
      [sessionId],
    );
    return rows.map((row, index) =>
      parseSessionRecord({
        value: {
          ...(decodeJsonb(row.body) as object),
          v: row.v,
          type: row.type,
          at: Number(row.at),
          ...(row.append_id !== null && row.type === "message" && { appendId: row.append_id }),
        },
        sessionId,
        where: `table ${this.table} row ${index + 1} of the session`,
        operation,
      }),
    );
  }

  /** Runs `task` in a transaction holding the session's write lock (transaction-level, one-bigint key space). */
  private write<T>(sessionId: string, task: (client: PgPoolClient) => Promise<T>): Promise<T> {
    return this.connection.transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
        `${this.table}\n${sessionId}`,
      ]);
      return task(client);
    });
  }

  private ensureSchema(): Promise<void> {
    this.schema ??= createSchema({
      connection: this.connection,
      table: this.table,
      statements: [
        `CREATE TABLE IF NOT EXISTS ${this.quoted} (
             id bigserial PRIMARY KEY,
             session_id text NOT NULL,
             v integer NOT NULL,
             type text NOT NULL,
             at bigint NOT NULL,
             body jsonb NOT NULL,
             append_id text
           )`,
        `CREATE INDEX IF NOT EXISTS ${this.index} ON ${this.quoted} (session_id, id)`,
        // Tables created by agentloop versions without idempotent appends get the column here.
        `ALTER TABLE ${this.quoted} ADD COLUMN IF NOT EXISTS append_id text`,
        `CREATE TABLE IF NOT EXISTS ${this.locks} (
             session_id text PRIMARY KEY,
             token text NOT NULL,
             expires_at bigint NOT NULL
           )`,
      ],
    }).catch((error: unknown) => {
      this.schema = undefined; // try again on the next operation
      throw error;
    });
    return this.schema;
  }

  private async run<T>(operation: string, sessionId: string | undefined, task: () => Promise<T>): Promise<T> {
    try {
      await this.ensureSchema();
      return await task();
    } catch (error) {
      throw toStoreError({ error, store: "PostgresStore", operation, sessionId });
    }
  }
}
