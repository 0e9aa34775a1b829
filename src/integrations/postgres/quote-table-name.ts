import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";

const PART = "[A-Za-z_][A-Za-z0-9_]{0,62}";
const TABLE_NAME = new RegExp(`^${PART}(?:\\.${PART})?$`);

/** Options of {@link quoteTableName}. */
export interface QuoteTableNameOptions {
  /** `table` or `schema.table`: letters, digits and `_`, not starting with a digit, up to 63 characters each. */
  name: string;
  /** The option it came from (for the error). */
  argument: string;
}

/**
 * Validates a table name and returns it quoted for SQL (`"schema"."table"`), plus its last part (for naming
 * indexes). Identifiers cannot be query parameters, so this strict check is what keeps them safe. Quoting keeps
 * the case as written. Throws {@link InvalidArgumentError} for anything else.
 */
export function quoteTableName({ name, argument }: QuoteTableNameOptions): { quoted: string; base: string } {
  if (typeof name !== "string" || !TABLE_NAME.test(name)) {
    throw new InvalidArgumentError({
      argument,
      message: `expected a table name like "my_table" or "my_schema.my_table", got ${JSON.stringify(name)}`,
    });
  }
  const parts = name.split(".");
  return { quoted: parts.map((part) => `"${part}"`).join("."), base: parts[parts.length - 1]! };
}
