/**
 * `agentloop/postgres`: session and state stores and a durable-run journal on PostgreSQL (needs the `pg` peer
 * dependency).
 */
export { JSONB_WRAPPER_KEY } from "./jsonb-codec.js";
export type { PgPool, PgPoolClient, PgQueryable, PgQueryResult, PgRow } from "./pg-types.js";
export type { PostgresConnectionOptions } from "./postgres-connection.js";
/**
 * A `RunJournal` for `runDurably` on PostgreSQL: one row per record, an index row per run and lease rows for
 * run locks, so workers on any number of machines share one journal. Options: `connectionString` or `pool`,
 * `table` (default `"agentloop_journal"`), `lockTtlMs`, `queryTimeoutMs`.
 */
export { PostgresJournal, type PostgresJournalOptions } from "./postgres-journal.js";
export { PostgresStateStore, type PostgresStateStoreOptions } from "./postgres-state-store.js";
export { PostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
