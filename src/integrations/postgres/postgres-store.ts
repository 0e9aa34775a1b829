import type { PoolClient } from "pg";
import type { Message } from "../../models/message.js";
import { foldSessionRecords } from "../../stores/fold-session-records.js";
import { parseSessionRecord } from "../../stores/parse-session-record.js";
import {
  type JsonValue,
  SESSION_RECORD_VERSION,
  type SessionData,
  type SessionInfo,
  type SessionLock,
  type SessionStore,
} from "../../stores/session-store.js";
import { toStoreError } from "../../stores/to-store-error.js";
import { decodeJsonb, encodeJsonb } from "./jsonb-codec.js";
import { PostgresConnection, type PostgresConnectionOptions } from "./postgres-connection.js";
import { quoteTableName } from "./quote-table-name.js";

/** Options of {@link PostgresStore}. */
export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /** The records table, `name` or `schema.name` (default `"agentloop_session_records"`), created if missing. */
  table?: string;
}

interface RecordRow {
  v: number;
  type: string;
  at: string;
  body: unknown;
}

/**
 * A {@link SessionStore} on PostgreSQL 11+ (`agentloop/postgres`, needs the `pg` peer dependency). One table,
 * created lazily (`CREATE TABLE IF NOT EXISTS`, once per store) before the first operation:
 * `(id bigserial, session_id text, v int, type text, at bigint, body jsonb)`, one row per record in `id` order;
 * `body` holds the record's payload (`{ message }`, `{ messages }` or `{ state }`).
 *
 * - `append` inserts all rows of a call with one INSERT in a transaction; `replace` deletes the history rows and
 *   inserts a snapshot, `saveState` deletes the state row and inserts the new one, each in one transaction.
 *   Writes of one session are serialised by a transaction-level advisory lock, so the rows of concurrent
 *   appends never interleave.
 * - `lock` takes `pg_try_advisory_lock(hashtext(table), hashtext(sessionId))` on a dedicated pooled
 *   connection held until `release`. TTL semantics: the lock ends when it is released, when `ttlMs` has passed
 *   (a timer in the holder releases it), or when the holder's connection closes (the holder died, or the
 *   server dropped the connection). Each held lock occupies one pool connection. Two session ids whose hashes
 *   collide share a lock (a spurious "busy", never a missed exclusion).
 * - Queries are parameterised; the table name is validated and quoted. Strings `jsonb` cannot hold (NUL,
 *   unpaired surrogates) are stored losslessly (see `JSONB_WRAPPER_KEY`); session ids must not contain NUL.
 */
export class PostgresStore implements SessionStore {
  /** The table name as given. */
  readonly table: string;
  private readonly quoted: string;
  private readonly index: string;
  private readonly connection: PostgresConnection;
  private schema: Promise<void> | undefined;
  private readonly held = new Set<SessionLock>();

  constructor(options: PostgresStoreOptions = {}) {
    this.table = options.table ?? "agentloop_session_records";
    const { quoted, base } = quoteTableName({ name: this.table, argument: "table" });
    this.quoted = quoted;
    this.index = `"${base.slice(0, 50)}_session_idx"`;
    this.connection = new PostgresConnection(options);
  }

  /** Loads a session, or `undefined` when it has no rows. */
  async load(sessionId: string): Promise<SessionData | undefined> {
    return this.run("load", sessionId, async () => {
      const { rows } = await this.connection.pool.query<RecordRow>(
        `SELECT v, type, at, body FROM ${this.quoted} WHERE session_id = $1 ORDER BY id`,
        [sessionId],
      );
      const records = rows.map((row, index) =>
        parseSessionRecord({
          value: { ...(decodeJsonb(row.body) as object), v: row.v, type: row.type, at: Number(row.at) },
          sessionId,
          where: `table ${this.table} row ${index + 1} of the session`,
        }),
      );
      return foldSessionRecords({ sessionId, records });
    });
  }

  /** Inserts one message row per message, with one INSERT (an empty list writes nothing). */
  async append(sessionId: string, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    await this.run("append", sessionId, async () => {
      const bodies = `[${messages.map((message) => encodeJsonb({ message })).join(",")}]`;
      await this.write(sessionId, async (client) => {
        await client.query(
          `INSERT INTO ${this.quoted} (session_id, v, type, at, body)
           SELECT $1, $2, 'message', $3, e.body FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(body, n)
           ORDER BY e.n`,
          [sessionId, SESSION_RECORD_VERSION, Date.now(), bodies],
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

  /** Takes the session's advisory lock on a dedicated connection; see the class description. */
  async lock(sessionId: string, options: { ttlMs: number }): Promise<SessionLock | undefined> {
    return this.run("lock", sessionId, async () => {
      const client = await this.connection.pool.connect();
      const keys = [this.table, sessionId];
      let lost = false;
      const onError = () => {
        lost = true;
      };
      client.on("error", onError);
      try {
        const { rows } = await client.query<{ ok: boolean }>(
          "SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok",
          keys,
        );
        if (rows[0]?.ok !== true) {
          client.off("error", onError);
          client.release();
          return undefined;
        }
      } catch (error) {
        client.off("error", onError);
        client.release(true);
        throw error;
      }
      let done: Promise<void> | undefined;
      const lock: SessionLock = {
        release: () => {
          done ??= (async () => {
            clearTimeout(timer);
            this.held.delete(lock);
            try {
              if (!lost) await client.query("SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", keys);
              client.off("error", onError);
              client.release(lost);
            } catch {
              client.off("error", onError);
              client.release(true); // closing the connection releases the lock
            }
          })();
          return done;
        },
      };
      const timer = setTimeout(() => void lock.release(), Math.max(1, options.ttlMs));
      timer.unref();
      this.held.add(lock);
      return lock;
    });
  }

  /** Releases held locks, then ends the pool if the store created it (one passed in stays open). */
  async close(): Promise<void> {
    await Promise.all([...this.held].map((lock) => lock.release()));
    await this.connection.close();
  }

  private async insert(client: PoolClient, sessionId: string, type: string, body: string): Promise<void> {
    await client.query(
      `INSERT INTO ${this.quoted} (session_id, v, type, at, body) VALUES ($1, $2, $3, $4, $5::jsonb)`,
      [sessionId, SESSION_RECORD_VERSION, type, Date.now(), body],
    );
  }

  /** Runs `task` in a transaction holding the session's write lock (transaction-level, one-bigint key space). */
  private write(sessionId: string, task: (client: PoolClient) => Promise<void>): Promise<void> {
    return this.connection.transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
        `${this.table}\n${sessionId}`,
      ]);
      await task(client);
    });
  }

  private ensureSchema(): Promise<void> {
    this.schema ??= this.connection
      .transaction(async (client) => {
        // Serialises concurrent creators: CREATE TABLE IF NOT EXISTS alone can race on the catalog.
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
          `agentloop schema ${this.table}`,
        ]);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${this.quoted} (
             id bigserial PRIMARY KEY,
             session_id text NOT NULL,
             v integer NOT NULL,
             type text NOT NULL,
             at bigint NOT NULL,
             body jsonb NOT NULL
           )`,
        );
        await client.query(`CREATE INDEX IF NOT EXISTS ${this.index} ON ${this.quoted} (session_id, id)`);
      })
      .catch((error: unknown) => {
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
