import type { PostgresConnection } from "./postgres-connection.js";

/** Options of {@link createSchema}. */
export interface CreateSchemaOptions {
  connection: PostgresConnection;
  /** The main table's name (unquoted), which names the advisory lock that serialises creators. */
  table: string;
  /** The DDL statements (`CREATE TABLE IF NOT EXISTS`, indexes, `ALTER … ADD COLUMN IF NOT EXISTS`), in order. */
  statements: readonly string[];
}

/**
 * Creates a store's tables in one transaction, serialised across processes by an advisory lock on the table's
 * name (`CREATE TABLE IF NOT EXISTS` alone can race on the catalog).
 */
export function createSchema({ connection, table, statements }: CreateSchemaOptions): Promise<void> {
  return connection.transaction(async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
      `agentloop schema ${table}`,
    ]);
    for (const statement of statements) await client.query(statement);
  });
}
