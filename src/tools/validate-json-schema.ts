import type { ToolArgumentIssue } from "../errors/tool-arguments-error.js";
import type { JsonSchema } from "../models/model.js";
import { createJsonSchemaValidator } from "./json-schema-validator.js";

/** Options of {@link validateJsonSchema}. */
export interface ValidateJsonSchemaOptions {
  /** The JSON Schema. */
  schema: JsonSchema;
  /** The value to check. */
  value: unknown;
}

/**
 * Validates `value` against a JSON Schema and resolves to the issues found (empty when valid): the path, what was
 * expected and what was received, as tools report them to the model. The full JSON Schema vocabulary is checked
 * (`$ref`/`$defs`, `allOf`/`anyOf`/`oneOf`, `format`, …; see {@link createJsonSchemaValidator}).
 *
 * Builds a validator for each call: to validate many values against one schema, build it once with
 * {@link createJsonSchemaValidator} (tools do). Throws `InvalidArgumentError` (argument "schema") for a schema
 * that cannot be checked, such as a `$ref` that does not resolve inside it.
 */
export function validateJsonSchema({
  schema,
  value,
}: ValidateJsonSchemaOptions): Promise<ToolArgumentIssue[]> {
  return createJsonSchemaValidator({ schema, argument: "schema" })(value);
}
