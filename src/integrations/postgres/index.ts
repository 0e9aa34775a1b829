/**
 * `agentloop/postgres`: session and state stores on PostgreSQL (needs the `pg` peer dependency).
 */
export { JSONB_WRAPPER_KEY } from "./jsonb-codec.js";
export type { PgPool, PgPoolClient, PgQueryable, PgQueryResult, PgRow } from "./pg-types.js";
export type { PostgresConnectionOptions } from "./postgres-connection.js";
export { PostgresStateStore, type PostgresStateStoreOptions } from "./postgres-state-store.js";
export { PostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
