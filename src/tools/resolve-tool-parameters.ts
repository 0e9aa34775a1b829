import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { JsonSchema } from "../models/model.js";
import { describeZodIssues } from "./describe-zod-issues.js";
import type { ToolArgumentIssue } from "./tool-arguments-error.js";
import { validateJsonSchema } from "./validate-json-schema.js";

/** The outcome of validating a tool call's arguments. */
export type ToolArgumentsResult<Args> =
  | { ok: true; value: Args }
  | { ok: false; issues: ToolArgumentIssue[]; cause?: unknown };

/** What {@link resolveToolParameters} derives from a tool's `parameters`, once, at creation. */
export interface ResolvedToolParameters {
  /** The JSON Schema sent to the model (top-level `type: "object"`, no `$schema`). */
  jsonSchema: JsonSchema;
  /** Validates (and, for zod, parses: defaults, transforms) a call's arguments. */
  parseArguments: (args: unknown) => Promise<ToolArgumentsResult<unknown>>;
}

/** True for a zod 4 schema (classic or mini), from any copy of zod 4. */
export function isZodSchema(value: unknown): value is z.core.$ZodType {
  return typeof value === "object" && value !== null && "_zod" in value && typeof value._zod === "object";
}

function checkObjectSchema(schema: JsonSchema): void {
  if (schema.type !== "object") {
    throw new InvalidArgumentError({
      argument: "parameters",
      message: `the top-level schema must be of type "object", got ${JSON.stringify(schema.type ?? null)}`,
    });
  }
}

function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function fromZod(schema: z.core.$ZodType): ResolvedToolParameters {
  let converted: JsonSchema;
  try {
    converted = z.toJSONSchema(schema, { io: "input" }) as JsonSchema;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidArgumentError({
      argument: "parameters",
      message: `the zod schema cannot be converted to JSON Schema: ${reason}`,
      cause: error,
    });
  }
  const jsonSchema = withoutDialect(converted);
  checkObjectSchema(jsonSchema);
  return {
    jsonSchema,
    parseArguments: async (args) => {
      const result = await z.safeParseAsync(schema, args);
      if (result.success) return { ok: true, value: result.data };
      return {
        ok: false,
        issues: describeZodIssues({ issues: result.error.issues, input: args }),
        cause: result.error,
      };
    },
  };
}

function fromJsonSchema(parameters: JsonSchema): ResolvedToolParameters {
  let copy: JsonSchema;
  try {
    copy = structuredClone(parameters);
  } catch (error) {
    throw new InvalidArgumentError({
      argument: "parameters",
      message: "expected a JSON-compatible object",
      cause: error,
    });
  }
  const jsonSchema = withoutDialect(copy);
  checkObjectSchema(jsonSchema);
  return {
    jsonSchema,
    parseArguments: async (args) => {
      const issues = validateJsonSchema({ schema: jsonSchema, value: args });
      return issues.length === 0 ? { ok: true, value: args } : { ok: false, issues };
    },
  };
}

/**
 * Derives a tool's JSON Schema and argument parser from its `parameters` (a zod schema or a plain JSON Schema
 * object). Called once per tool, at creation. Zod schemas are converted with `z.toJSONSchema(schema,
 * { io: "input" })` (draft 2020-12, so `.describe()` becomes `description`, defaulted fields are optional) and
 * `$schema` is dropped; plain schemas are deep-copied. Throws {@link InvalidArgumentError} when the schema cannot
 * be converted or its top level is not `type: "object"`.
 */
export function resolveToolParameters({ parameters }: { parameters: unknown }): ResolvedToolParameters {
  if (isZodSchema(parameters)) return fromZod(parameters);
  if (
    typeof parameters === "object" &&
    parameters !== null &&
    "_def" in parameters &&
    "safeParse" in parameters
  ) {
    throw new InvalidArgumentError({
      argument: "parameters",
      message: "zod 3 schemas are not supported: use zod 4",
    });
  }
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
    throw new InvalidArgumentError({
      argument: "parameters",
      message: "expected a zod schema or a JSON Schema object",
    });
  }
  return fromJsonSchema(parameters as JsonSchema);
}
