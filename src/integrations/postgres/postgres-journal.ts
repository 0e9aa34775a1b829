import { checkRunId } from "../../durable/check-run-id.js";
import {
  type JournalRecord,
  parseJournalRecord,
  serializeJournalRecord,
} from "../../durable/journal-record.js";
import type { JournalRunInfo, RunJournal } from "../../durable/run-journal.js";
import { toJournalError } from "../../durable/to-journal-error.js";
import { StoreError } from "../../errors/store-error.js";
import { checkLockTtl } from "../../stores/check-lock-ttl.js";
import { KeyedMutex } from "../../stores/keyed-mutex.js";
import type { SessionLock } from "../../stores/session-store.js";
import { createSchema } from "./create-schema.js";
import type { PgPoolClient } from "./pg-types.js";
import { PostgresConnection, type PostgresConnectionOptions } from "./postgres-connection.js";
import { takePostgresLease } from "./postgres-lease.js";
import { quoteTableName } from "./quote-table-name.js";

/** Options of {@link PostgresJournal}. */
export interface PostgresJournalOptions extends PostgresConnectionOptions {
  /**
   * The records table, `name` or `schema.name` (default `"agentloop_journal"`), created if missing, with
   * `<table>_runs` and `<table>_locks` beside it.
   */
  table?: string;
  /** How long a run lock lives without renewal (default 60 s; see `RunJournal.lockTtlMs`). */
  lockTtlMs?: number;
}

/** An unpaired UTF-16 surrogate (`pg` would send it as U+FFFD: two run ids would meet in one). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A {@link RunJournal} on PostgreSQL 11+ (`agentloop/postgres`, needs the `pg` peer dependency). Three tables,
 * created lazily (`CREATE TABLE IF NOT EXISTS`, once per journal) before the first operation:
 * - `<table> (id bigserial, run_id text, kind text, record text)`: one row per record, in `id` order; `record`
 *   is the record's JSON exactly as `serializeJournalRecord` wrote it (text, not `jsonb`, so every string
 *   round-trips), parsed and checked by `parseJournalRecord` on `load`: a record of a newer schema version or a
 *   row that is not a valid record is reported (`StoreError` naming the table and row id), never skipped.
 * - `<table>_runs (run_id text PRIMARY KEY, finished boolean, updated_at bigint)`: the index `list` reads.
 * - `<table>_locks (run_id text PRIMARY KEY, token text, expires_at bigint)`: the run locks, lease rows as in
 *   `PostgresStore` (taken when absent or expired by the server's clock, renewed and released while the random
 *   token matches), so attempts of one run never overlap across processes; a held lock pins no connection.
 *
 * `append` upserts the run's index row, then inserts all records of the call with one INSERT, in one
 * transaction: the index row's lock serialises the appends of a run, so the records of concurrent appends never
 * interleave and `id` order is append order (appends of one run from one journal object also apply in call
 * order). `compact` (keeps the first `start` and last `end` record, one DELETE) and `delete` hold the same row
 * lock. Run ids are any non-empty strings without NUL or unpaired surrogates (those are rejected with
 * `StoreError`). Connection behaviour as for `PostgresStore`: an own pool from `connectionString` (a query with
 * no answer fails after `queryTimeoutMs`), or your `pool`, never ended by the journal.
 */
export class PostgresJournal implements RunJournal {
  /** The records table name as given. */
  readonly table: string;
  /** How long a run lock lives without renewal (see `RunJournal.lockTtlMs`). */
  readonly lockTtlMs: number | undefined;
  private readonly quoted: string;
  private readonly runs: string;
  private readonly locks: string;
  private readonly index: string;
  private readonly connection: PostgresConnection;
  private readonly mutex = new KeyedMutex();
  private readonly held = new Set<SessionLock>();
  private schema: Promise<void> | undefined;

  constructor(options: PostgresJournalOptions = {}) {
    this.table = options.table ?? "agentloop_journal";
    const { quoted, base } = quoteTableName({ name: this.table, argument: "table" });
    const schemaPrefix = quoted.slice(0, -(base.length + 2));
    this.quoted = quoted;
    this.runs = `${schemaPrefix}"${base.slice(0, 58)}_runs"`;
    this.locks = `${schemaPrefix}"${base.slice(0, 57)}_locks"`;
    this.index = `"${base.slice(0, 54)}_run_idx"`;
    this.lockTtlMs = checkLockTtl(options.lockTtlMs);
    this.connection = new PostgresConnection(options);
  }

  /** Upserts the run's index row and inserts the records with one INSERT, in one transaction. */
  async append(runId: string, records: readonly JournalRecord[]): Promise<void> {
    checkRunId(runId);
    if (records.length === 0) return;
    const lines = records.map(serializeJournalRecord); // throws before anything is written
    const kinds = records.map((record) => (typeof record.kind === "string" ? record.kind : null));
    const finished = records.some((record) => record.kind === "end");
    await this.mutex.run(runId, () =>
      this.run("append", runId, () =>
        this.connection.transaction(async (client) => {
          await client.query(
            `INSERT INTO ${this.runs} AS r (run_id, finished, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (run_id) DO UPDATE SET finished = r.finished OR EXCLUDED.finished,
               updated_at = EXCLUDED.updated_at`,
            [runId, finished, Date.now()],
          );
          await client.query(
            `INSERT INTO ${this.quoted} (run_id, kind, record)
             SELECT $1, e.kind, e.record FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS e(kind, record, n)
             ORDER BY e.n`,
            [runId, kinds, lines],
          );
        }),
      ),
    );
  }

  /** The run's records in `id` order, each checked by `parseJournalRecord`; `undefined` when it has none. */
  async load(runId: string): Promise<JournalRecord[] | undefined> {
    checkRunId(runId);
    return this.run("load", runId, async () => {
      const { rows } = await this.connection.pool.query<{ id: string; record: string }>(
        `SELECT id, record FROM ${this.quoted} WHERE run_id = $1 ORDER BY id`,
        [runId],
      );
      if (rows.length === 0) return undefined;
      return rows.map(({ id, record }) => {
        let value: unknown;
        try {
          value = JSON.parse(record);
        } catch {
          value = undefined; // reported as "not an object", with the row
        }
        return parseJournalRecord({ value, runId, where: `table ${this.table} row id ${id}` });
      });
    });
  }

  /** Keeps only the first `start` and the last `end` record of a finished run (one DELETE, under the run's row lock). */
  async compact(runId: string): Promise<boolean> {
    checkRunId(runId);
    return this.mutex.run(runId, () =>
      this.run("compact", runId, () =>
        this.connection.transaction(async (client) => {
          if (!(await this.lockRun(client, runId))) return false;
          const result = await client.query(
            `WITH keep AS (
               SELECT (SELECT min(id) FROM ${this.quoted} WHERE run_id = $1 AND kind = 'start') AS first_start,
                      (SELECT max(id) FROM ${this.quoted} WHERE run_id = $1 AND kind = 'end') AS last_end
             )
             DELETE FROM ${this.quoted} AS t USING keep
             WHERE t.run_id = $1 AND keep.last_end IS NOT NULL
               AND t.id <> keep.last_end AND t.id IS DISTINCT FROM keep.first_start`,
            [runId],
          );
          return (result.rowCount ?? 0) > 0;
        }),
      ),
    );
  }

  /** Deletes the run's records and index row, in one transaction (its lock, if held, stays). */
  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    await this.mutex.run(runId, () =>
      this.run("delete", runId, () =>
        this.connection.transaction(async (client) => {
          await client.query(`DELETE FROM ${this.runs} WHERE run_id = $1`, [runId]);
          await client.query(`DELETE FROM ${this.quoted} WHERE run_id = $1`, [runId]);
        }),
      ),
    );
  }

  /** Every run of the index, most recently updated first. */
  async list(): Promise<JournalRunInfo[]> {
    return this.run("list", undefined, async () => {
      const { rows } = await this.connection.pool.query<{
        run_id: string;
        finished: boolean;
        updated_at: string;
      }>(`SELECT run_id, finished, updated_at FROM ${this.runs} ORDER BY updated_at DESC, run_id`);
      return rows.map((row) => ({
        runId: row.run_id,
        finished: row.finished,
        updatedAt: Number(row.updated_at),
      }));
    });
  }

  /** Takes the run's lease row (see the class description), or resolves `undefined` while it is held. */
  async lock(runId: string, options: { ttlMs: number }): Promise<SessionLock | undefined> {
    checkRunId(runId);
    const lease = await takePostgresLease({
      pool: this.connection.pool,
      table: this.locks,
      keyColumn: "run_id",
      key: runId,
      ttlMs: options.ttlMs,
      run: (operation, task) => this.run(operation, runId, task),
    });
    if (lease === undefined) return undefined;
    this.held.add(lease);
    return {
      release: () => {
        this.held.delete(lease);
        return lease.release();
      },
      renew: () => lease.renew(),
    };
  }

  /** Releases the locks it holds, then ends the pool if the journal created it (one passed in stays open). */
  async close(): Promise<void> {
    await Promise.all([...this.held].map((lease) => lease.release().catch(() => undefined)));
    this.held.clear();
    await this.connection.close();
  }

  /** Locks the run's index row until the transaction ends; `false` when the run has none (unknown run). */
  private async lockRun(client: PgPoolClient, runId: string): Promise<boolean> {
    const { rows } = await client.query(`SELECT 1 FROM ${this.runs} WHERE run_id = $1 FOR UPDATE`, [runId]);
    return rows.length > 0;
  }

  private ensureSchema(): Promise<void> {
    this.schema ??= createSchema({
      connection: this.connection,
      table: this.table,
      statements: [
        `CREATE TABLE IF NOT EXISTS ${this.quoted} (
             id bigserial PRIMARY KEY,
             run_id text NOT NULL,
             kind text,
             record text NOT NULL
           )`,
        `CREATE INDEX IF NOT EXISTS ${this.index} ON ${this.quoted} (run_id, id)`,
        `CREATE TABLE IF NOT EXISTS ${this.runs} (
             run_id text PRIMARY KEY,
             finished boolean NOT NULL,
             updated_at bigint NOT NULL
           )`,
        `CREATE TABLE IF NOT EXISTS ${this.locks} (
             run_id text PRIMARY KEY,
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

  private async run<T>(operation: string, runId: string | undefined, task: () => Promise<T>): Promise<T> {
    try {
      if (runId !== undefined && (runId.includes("\u0000") || LONE_SURROGATE.test(runId))) {
        throw new StoreError({
          message: `PostgresJournal cannot store run id ${JSON.stringify(runId)}: it contains NUL or an unpaired UTF-16 surrogate`,
          operation,
        });
      }
      await this.ensureSchema();
      return await task();
    } catch (error) {
      throw toJournalError({ error, journal: "PostgresJournal", operation, runId });
    }
  }
}
