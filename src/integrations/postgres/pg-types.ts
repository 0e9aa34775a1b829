// The few `pg` types the Postgres stores use, declared here so that users' type checks (also with
// `skipLibCheck: false`) need neither `@types/pg` nor `pg` itself for the declarations: a `pg.Pool` (typed
// by @types/pg or not) is assignable to {@link PgPool}.

/** A result row: column name to value. */
export type PgRow = { [column: string]: unknown };

/** What a query resolves to: the rows (typed by the caller). */
export interface PgQueryResult<Row> {
  rows: Row[];
  rowCount: number | null;
}

/** Something that runs queries: a pool or one of its clients. */
export interface PgQueryable {
  query<Row extends PgRow = PgRow>(text: string, values?: unknown[]): Promise<PgQueryResult<Row>>;
}

/** A client checked out of a {@link PgPool}. */
export interface PgPoolClient extends PgQueryable {
  /** Returns the client to the pool; `true` (or an error) destroys its connection instead. */
  release(destroy?: boolean | Error): void;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
}

/** A `pg.Pool` as the stores use it. */
export interface PgPool extends PgQueryable {
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}
