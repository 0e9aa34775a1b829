import type { Schema, SchemaDraft } from "@cfworker/json-schema";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { ToolArgumentIssue } from "../errors/tool-arguments-error.js";
import type { JsonSchema } from "../models/model.js";
import { type JsonSchemaUris, mapJsonSchemaUris } from "./map-json-schema-uris.js";
import type { JsonSchemaCheck } from "./prepare-json-schema-check.js";

/**
 * Validates one value against the JSON Schema it was made for and resolves to the issues found (empty when
 * valid): field-level, with the path, what was expected and what was received, as the model is told.
 */
export type JsonSchemaValidator = (value: unknown) => Promise<ToolArgumentIssue[]>;

/** Options of {@link createJsonSchemaValidator}. */
export interface CreateJsonSchemaValidatorOptions {
  /** The schema (not modified: the validator works on its own copy). */
  schema: JsonSchema;
  /** What an error names when the schema cannot be used. Default "parameters". */
  argument?: string;
}

let loading: Promise<typeof import("./prepare-json-schema-check.js")> | undefined;
let loaded = false;

/**
 * The validation code, loaded on the first validation rather than with agentloop (#22: importing
 * `@cfworker/json-schema` with the root entry cost a sixth of its import time). A failed load is retried.
 */
function loadCheck(): Promise<typeof import("./prepare-json-schema-check.js")> {
  loading ??= import("./prepare-json-schema-check.js").then(
    (module) => {
      loaded = true;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * While the validation code is still loading (after the first JSON Schema validator was made), the promise of
 * its load (settling either way); `undefined` once it is there. The tool executor waits for it before a
 * call's timeout starts, so agentloop's own module load never counts against a tool's `timeoutMs`.
 */
export function whenJsonSchemaCheckLoaded(): Promise<unknown> | undefined {
  if (loaded || loading === undefined) return undefined;
  return loading.then(
    () => undefined,
    () => undefined,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeText(type: unknown): string {
  return Array.isArray(type) ? type.map(String).join(" or ") : String(type);
}

/** The draft named by `$schema`; 2020-12 when none is named (the draft zod and most MCP servers emit). */
function draftOf(dialect: unknown): SchemaDraft {
  if (typeof dialect !== "string") return "2020-12";
  if (dialect.includes("draft-04")) return "4";
  if (dialect.includes("draft-06") || dialect.includes("draft-07")) return "7";
  if (dialect.includes("2019-09")) return "2019-09";
  return "2020-12";
}

function compiles(pattern: unknown): boolean {
  if (typeof pattern !== "string") return false;
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks every subschema once, at creation, so that validation never fails on the schema itself: each `$ref`
 * must resolve inside the schema (remote references are not fetched), each `pattern` must compile, and
 * `$dynamicRef` (which the validator cannot follow) is refused.
 */
function checkSubschemas({ lookup, refs }: JsonSchemaUris, fail: (message: string) => never): void {
  for (const node of new Set(lookup.values())) {
    if (!isObject(node)) continue;
    const ref = refs.get(node);
    if (node.$ref !== undefined && (ref === undefined || !lookup.has(ref))) {
      fail(
        `$ref ${JSON.stringify(node.$ref)} does not resolve inside the schema (remote schemas are not fetched)`,
      );
    }
    if (node.$dynamicRef !== undefined) fail("$dynamicRef is not supported; use $ref");
    if (node.pattern !== undefined && !compiles(node.pattern)) {
      fail(`pattern ${JSON.stringify(node.pattern)} is not a valid regular expression`);
    }
    if (isObject(node.patternProperties)) {
      for (const pattern of Object.keys(node.patternProperties)) {
        if (!compiles(pattern))
          fail(`patternProperties key ${JSON.stringify(pattern)} is not a valid regular expression`);
      }
    }
  }
}

/**
 * Builds a validator for a JSON Schema, once (tools build theirs at creation; validating a call then costs no
 * schema work: the first call loads the validation code and indexes the schema). Backed by
 * `@cfworker/json-schema` (no code generation: no `eval`, no `new Function`), it supports drafts 4, 7, 2019-09
 * and 2020-12 (chosen by `$schema`, default 2020-12): `$ref`/`$defs`/`definitions`, `allOf`/`anyOf`/`oneOf`/
 * `not`, `if`/`then`/`else`, `format` (email, date-time, date, time, uri, uuid, ipv4, ipv6, hostname, …), and
 * every other validation keyword. Issues name the field path, what was expected and what was received (at
 * most 50).
 *
 * Throws {@link InvalidArgumentError} when the schema cannot be checked: a `$ref` that does not resolve inside
 * the schema, an invalid `pattern`, `$dynamicRef`, or a value that is not JSON.
 */
export function createJsonSchemaValidator({
  schema,
  argument = "parameters",
}: CreateJsonSchemaValidatorOptions): JsonSchemaValidator {
  const fail = (message: string, cause?: unknown): never => {
    throw new InvalidArgumentError({ argument, message, cause });
  };
  let root: Schema;
  try {
    root = structuredClone(schema) as Schema;
  } catch (error) {
    return fail("expected a JSON-compatible schema object", error);
  }
  const draft = draftOf(root.$schema);
  let uris: JsonSchemaUris;
  try {
    uris = mapJsonSchemaUris(root);
  } catch (error) {
    return fail(
      `the JSON Schema cannot be used: ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
  }
  checkSubschemas(uris, fail);
  // Starts loading the validation code now, in the background (the first call would wait for it otherwise).
  loadCheck().catch(() => undefined);
  let check: JsonSchemaCheck | undefined;
  return (value) => {
    if (value === undefined) {
      const expected = root.type === undefined ? "a value" : typeText(root.type);
      return Promise.resolve([
        { path: "", expected, received: "nothing", message: `Expected ${expected}, received nothing` },
      ]);
    }
    if (check !== undefined) return Promise.resolve(check(value));
    return loadCheck().then(({ prepareJsonSchemaCheck }) => {
      check ??= prepareJsonSchemaCheck({ root, draft });
      return check(value);
    });
  };
}
