import type { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { ToolArgumentIssue } from "../errors/tool-arguments-error.js";
import type { JsonSchema } from "../models/model.js";
import { describeValue } from "./describe-received.js";
import { describeZodIssues } from "./describe-zod-issues.js";
import { formatIssuePath } from "./format-issue-path.js";
import { createJsonSchemaValidator } from "./json-schema-validator.js";
import type { ZodSchemaLike } from "./standard-schema.js";

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
export function isZodSchema(value: unknown): value is ZodSchemaLike {
  return typeof value === "object" && value !== null && "_zod" in value && typeof value._zod === "object";
}

type ZodIssue = z.core.$ZodIssue;

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

/** The Standard Schema v1 interface (zod 4, valibot, arktype, ...), with Standard JSON Schema when present. */
interface StandardSchemaLike {
  "~standard": {
    version: 1;
    vendor: string;
    validate: (value: unknown) => StandardResult | Promise<StandardResult>;
    jsonSchema?: { input: (options: { target: string }) => Record<string, unknown> };
  };
}

type StandardIssue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };
type StandardResult = { value: unknown; issues?: undefined } | { issues: ReadonlyArray<StandardIssue> };

/** True for a Standard Schema (zod 4 and others), from any copy of its library. */
function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if (typeof value !== "object" || value === null || !("~standard" in value)) return false;
  const standard = (value as { "~standard": unknown })["~standard"];
  return (
    typeof standard === "object" &&
    standard !== null &&
    typeof (standard as { validate?: unknown }).validate === "function"
  );
}

function toIssues(issues: ReadonlyArray<StandardIssue>, input: unknown): ToolArgumentIssue[] {
  if (issues.every((issue) => typeof (issue as { code?: unknown }).code === "string")) {
    return describeZodIssues({ issues: issues as unknown as ZodIssue[], input });
  }
  return issues.map((issue) => ({
    path: formatIssuePath((issue.path ?? []).map((key) => (typeof key === "object" ? key.key : key))),
    expected: "a valid value",
    received: "an invalid value",
    message: issue.message,
  }));
}

/**
 * A Standard Schema with Standard JSON Schema support (zod 4 classic, and other libraries). agentloop never
 * imports zod at run time: it uses the schema's own `~standard` interface.
 */
function fromStandardSchema(schema: StandardSchemaLike): ResolvedToolParameters {
  const standard = schema["~standard"];
  if (standard.jsonSchema === undefined) {
    throw new InvalidArgumentError({
      argument: "parameters",
      message:
        `the ${standard.vendor} schema cannot describe itself as JSON Schema (no "~standard".jsonSchema); ` +
        "use zod 4 (classic) or pass a plain JSON Schema object",
    });
  }
  let converted: JsonSchema;
  try {
    converted = standard.jsonSchema.input({ target: "draft-2020-12" });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidArgumentError({
      argument: "parameters",
      message: `the ${standard.vendor} schema cannot be converted to JSON Schema: ${reason}`,
      cause: error,
    });
  }
  const jsonSchema = withoutDialect(converted);
  checkObjectSchema(jsonSchema);
  const settle = (result: StandardResult, args: unknown): ToolArgumentsResult<unknown> =>
    result.issues === undefined
      ? { ok: true, value: result.value }
      : { ok: false, issues: toIssues(result.issues, args), cause: result.issues };
  return {
    jsonSchema,
    parseArguments: (args) => {
      const result = standard.validate(args);
      return result instanceof Promise
        ? result.then((r) => settle(r, args))
        : Promise.resolve(settle(result, args));
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
  // Built once per tool, from the schema as given (its `$schema` picks the draft).
  const validate = createJsonSchemaValidator({ schema: copy });
  return {
    jsonSchema,
    parseArguments: (args) =>
      validate(args).then((issues) =>
        issues.length === 0 ? { ok: true, value: args } : { ok: false, issues },
      ),
  };
}

/** The schema of a tool that takes no arguments, as sent to the model. */
const NO_PARAMETERS_SCHEMA: JsonSchema = { type: "object", properties: {} };

function noArguments(args: unknown): boolean {
  return (
    args === undefined || args === null || args === "" || (typeof args === "object" && !Array.isArray(args))
  );
}

/**
 * A tool without `parameters` takes no arguments: the model is offered an empty object schema, and whatever
 * it sends that means "nothing" (`{}`, an empty string, `null`, or an object of stray fields) runs the tool
 * with `{}`. Anything else (a number, an array, a non-empty string) is an issue.
 */
function withoutParameters(): ResolvedToolParameters {
  const jsonSchema = structuredClone(NO_PARAMETERS_SCHEMA);
  return {
    jsonSchema,
    parseArguments: (args) =>
      Promise.resolve(
        noArguments(args)
          ? { ok: true, value: {} }
          : {
              ok: false,
              issues: [
                {
                  path: "",
                  expected: "no arguments (an empty object)",
                  received: describeValue(args),
                  message: `Expected no arguments (an empty object), received ${describeValue(args)}`,
                },
              ],
            },
      ),
  };
}

/**
 * Derives a tool's JSON Schema and argument parser from its `parameters` (a zod 4 schema — any Standard Schema
 * with Standard JSON Schema support —, a plain JSON Schema object, or `undefined` for a tool that takes no
 * arguments: schema `{ type: "object", properties: {} }`, and `{}`, `""`, `null` or any object run it with `{}`). Called once per tool, at creation. Zod
 * schemas are converted through `schema["~standard"].jsonSchema.input({ target: "draft-2020-12" })` (the same
 * converter as `z.toJSONSchema(schema, { io: "input" })`: `.describe()` becomes `description`, defaulted fields
 * are optional) and `$schema` is dropped; plain schemas are deep-copied and validated by a validator built here
 * (see `createJsonSchemaValidator`: `$ref`, `allOf`, `format` and the rest of JSON Schema). Throws {@link InvalidArgumentError} when the schema cannot
 * be converted or its top level is not `type: "object"`.
 */
export function resolveToolParameters({ parameters }: { parameters: unknown }): ResolvedToolParameters {
  if (parameters === undefined) return withoutParameters();
  if (isStandardSchema(parameters)) return fromStandardSchema(parameters);
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
