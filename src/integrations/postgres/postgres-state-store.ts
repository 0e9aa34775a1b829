import { StoreError } from "../../errors/store-error.js";
import { type JsonValue, SESSION_RECORD_VERSION, type StateStore } from "../../stores/session-store.js";
import { toStoreError } from "../../stores/to-store-error.js";
import { createSchema } from "./create-schema.js";
import { decodeJsonb, encodeJsonb } from "./jsonb-codec.js";
import { PostgresConnection, type PostgresConnectionOptions } from "./postgres-connection.js";
import { quoteTableName } from "./quote-table-name.js";

/** Options of {@link PostgresStateStore}. */
export interface PostgresStateStoreOptions extends PostgresConnectionOptions {
  /** The key-value table, `name` or `schema.name` (default `"agentloop_state"`), created if missing. */
  table?: string;
}

/**
 * A {@link StateStore} on PostgreSQL (`agentloop/postgres`): a key-value table
 * `(key text PRIMARY KEY, v int, value jsonb, updated_at bigint)`, created lazily once per store; `save` is an
 * upsert (`INSERT ... ON CONFLICT (key) DO UPDATE`). Values `jsonb` cannot hold are stored losslessly (see
 * `JSONB_WRAPPER_KEY`). Connection behaviour as for `PostgresStore`.
 */
export class PostgresStateStore implements StateStore {
  /** The table name as given. */
  readonly table: string;
  private readonly quoted: string;
  private readonly connection: PostgresConnection;
  private schema: Promise<void> | undefined;

  constructor(options: PostgresStateStoreOptions = {}) {
    this.table = options.table ?? "agentloop_state";
    this.quoted = quoteTableName({ name: this.table, argument: "table" }).quoted;
    this.connection = new PostgresConnection(options);
  }

  /** Sets the value of `key` (upsert). */
  async save(key: string, value: JsonValue): Promise<void> {
    await this.run("save", key, async () => {
      await this.connection.pool.query(
        `INSERT INTO ${this.quoted} (key, v, value, updated_at) VALUES ($1, $2, $3::jsonb, $4)
         ON CONFLICT (key) DO UPDATE SET v = EXCLUDED.v, value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
        [key, SESSION_RECORD_VERSION, encodeJsonb(value), Date.now()],
      );
    });
  }

  /** The value of `key`, or `undefined`. */
  async load(key: string): Promise<JsonValue | undefined> {
    return this.run("load", key, async () => {
      const { rows } = await this.connection.pool.query<{ v: number; value: unknown }>(
        `SELECT v, value FROM ${this.quoted} WHERE key = $1`,
        [key],
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      if (row.v > SESSION_RECORD_VERSION) {
        throw new StoreError({
          message: `State "${key}" has schema version ${row.v}, written by a newer agentloop (this one reads up to version ${SESSION_RECORD_VERSION})`,
          operation: "load",
        });
      }
      return decodeJsonb(row.value) as JsonValue;
    });
  }

  /** Removes `key` (no error when absent); with no key, removes every row of the table. */
  async clear(key?: string): Promise<void> {
    await this.run("clear", key, async () => {
      if (key === undefined) await this.connection.pool.query(`DELETE FROM ${this.quoted}`);
      else await this.connection.pool.query(`DELETE FROM ${this.quoted} WHERE key = $1`, [key]);
    });
  }

  /** Ends the pool if the store created it (one passed in stays open). */
  async close(): Promise<void> {
    await this.connection.close();
  }

  private ensureSchema(): Promise<void> {
    this.schema ??= createSchema({
      connection: this.connection,
      table: this.table,
      statements: [
        `CREATE TABLE IF NOT EXISTS ${this.quoted} (
             key text PRIMARY KEY,
             v integer NOT NULL,
             value jsonb NOT NULL,
             updated_at bigint NOT NULL
           )`,
      ],
    }).catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }

  private async run<T>(operation: string, key: string | undefined, task: () => Promise<T>): Promise<T> {
    try {
      await this.ensureSchema();
      return await task();
    } catch (error) {
      throw toStoreError({ error, store: "PostgresStateStore", operation, key });
    }
  }
}
