import { dereference, format, type Schema, type SchemaDraft, validate } from "@cfworker/json-schema";
import type { ToolArgumentIssue } from "../errors/tool-arguments-error.js";
import { describeSchemaErrors } from "./describe-schema-errors.js";

// Loaded by json-schema-validator.ts on a validator's first call, not with agentloop: this module and
// @cfworker/json-schema (ten small modules) were a sixth of the root entry's import time (#22).

/** Checks one (defined) value against the schema it was prepared for and returns the issues found. */
export type JsonSchemaCheck = (value: unknown) => ToolArgumentIssue[];

/** Options of {@link prepareJsonSchemaCheck}. */
export interface PrepareJsonSchemaCheckOptions {
  /** The validator's private copy of the schema, already checked (marked and trimmed here). */
  root: Schema;
  /** The draft its `$schema` names. */
  draft: SchemaDraft;
}

/**
 * Why validation itself failed on a value: arguments nested deeper than the stack allows (a recursive schema),
 * a value that is not JSON (`undefined` inside an object), or a keyword of the wrong shape in the schema.
 */
function unvalidatable(error: unknown): ToolArgumentIssue {
  const deep = error instanceof RangeError;
  const expected = deep ? "arguments nested less deeply" : "arguments the tool's schema can check";
  const reason = error instanceof Error ? error.message : String(error);
  const received = deep ? "arguments nested too deeply to check" : `a value it could not check (${reason})`;
  return { path: "", expected, received, message: `Expected ${expected}, received ${received}` };
}

/**
 * Indexes the private copy for `@cfworker/json-schema` (its subschemas by URI) and removes unknown `format`
 * names (annotations: only known formats are asserted), then returns the check. The schema was checked at the
 * validator's creation (`$ref`s resolve, patterns compile), so validation does not fail on the schema itself.
 */
export function prepareJsonSchemaCheck({ root, draft }: PrepareJsonSchemaCheckOptions): JsonSchemaCheck {
  let lookup: Record<string, Schema | boolean>;
  try {
    lookup = dereference(root);
  } catch (error) {
    return () => [unvalidatable(error)];
  }
  for (const node of new Set(Object.values(lookup))) {
    if (
      typeof node === "object" &&
      node.format !== undefined &&
      (typeof node.format !== "string" || !Object.hasOwn(format, node.format))
    ) {
      delete node.format;
    }
  }
  return (value) => {
    try {
      const result = validate(value, root, draft, lookup, false);
      return result.valid ? [] : describeSchemaErrors({ errors: result.errors, root, lookup, value });
    } catch (error) {
      return [unvalidatable(error)];
    }
  };
}
