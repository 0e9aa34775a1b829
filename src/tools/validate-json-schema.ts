import type { JsonSchema } from "../models/model.js";
import { describeType, describeValue } from "./describe-received.js";
import { formatIssuePath } from "./format-issue-path.js";
import type { ToolArgumentIssue } from "./tool-arguments-error.js";

/** Validation stops collecting after this many issues. */
const MAX_ISSUES = 50;

interface Walk {
  issues: ToolArgumentIssue[];
}

/** Checks one keyword of `schema` against `value`, reporting into `walk`. */
type KeywordCheck = (
  keyword: unknown,
  value: unknown,
  schema: JsonSchema,
  path: PropertyKey[],
  walk: Walk,
) => void;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasOwn(value: object, key: string): boolean {
  return Object.hasOwn(value, key);
}

function report(walk: Walk, path: PropertyKey[], expected: string, received: string, message?: string): void {
  if (walk.issues.length >= MAX_ISSUES) return;
  const text = message ?? `Expected ${expected}, received ${received}`;
  walk.issues.push({ path: formatIssuePath(path), expected, received, message: text });
}

const TYPE_TESTS: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number" && Number.isFinite(value),
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === "boolean",
  null: (value) => value === null,
  array: (value) => Array.isArray(value),
  object: isObject,
};

function matchesType(type: unknown, value: unknown): boolean {
  return typeof type === "string" && Object.hasOwn(TYPE_TESTS, type) && TYPE_TESTS[type]?.(value) === true;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function literal(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function typeText(type: unknown): string {
  return Array.isArray(type) ? type.map(String).join(" or ") : String(type);
}

function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

const patternCache = new Map<string, RegExp | null>();

function compilePattern(pattern: string): RegExp | null {
  let regex = patternCache.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern, "u");
    } catch {
      regex = null;
    }
    patternCache.set(pattern, regex);
  }
  return regex;
}

/** A numeric bound keyword: applies to numbers only. */
function numberBound(op: string, fails: (value: number, limit: number) => boolean): KeywordCheck {
  return (limit, value, _schema, path, walk) => {
    if (typeof value === "number" && typeof limit === "number" && fails(value, limit)) {
      report(walk, path, `number ${op} ${limit}`, String(value));
    }
  };
}

/** A size keyword (string length in code points, array length in items). */
function sizeBound(kind: "string" | "array", side: "min" | "max"): KeywordCheck {
  return (limit, value, _schema, path, walk) => {
    if (typeof limit !== "number") return;
    const size =
      kind === "string"
        ? typeof value === "string"
          ? codePointLength(value)
          : undefined
        : Array.isArray(value)
          ? value.length
          : undefined;
    if (size === undefined || (side === "min" ? size >= limit : size <= limit)) return;
    const unit = kind === "string" ? "characters" : "items";
    report(
      walk,
      path,
      `${kind} with ${side === "min" ? "at least" : "at most"} ${limit} ${unit}`,
      `${kind} of ${size} ${unit}`,
    );
  };
}

/** Branch keywords (`anyOf`, `oneOf`): the value must match at least one branch (`oneOf` is not checked for uniqueness). */
const anyBranch: KeywordCheck = (branches, value, _schema, path, walk) => {
  if (!Array.isArray(branches) || branches.length === 0) return;
  for (const branch of branches)
    if (walkSchema(branch, value, path, { issues: [] }).issues.length === 0) return;
  const types = branches.map((branch) =>
    isObject(branch) && branch.type !== undefined ? typeText(branch.type) : "a matching value",
  );
  report(walk, path, [...new Set(types)].join(" or "), describeType(value));
};

/**
 * The supported keywords besides `type` (checked first, by the walker), in the order they are checked.
 * Keywords not listed (`$ref`, `allOf`, `format`, ...) are ignored. Type-specific keywords only apply to values
 * of their type, as in JSON Schema.
 */
const KEYWORDS: ReadonlyArray<readonly [string, KeywordCheck]> = [
  [
    "enum",
    (options, value, _schema, path, walk) => {
      if (!Array.isArray(options) || options.some((option) => sameJson(option, value))) return;
      const expected =
        options.length === 1 ? literal(options[0]) : `one of ${options.map(literal).join(", ")}`;
      report(walk, path, expected, describeValue(value));
    },
  ],
  [
    "const",
    (constant, value, _schema, path, walk) => {
      if (!sameJson(constant, value)) report(walk, path, literal(constant), describeValue(value));
    },
  ],
  ["minimum", numberBound(">=", (value, limit) => value < limit)],
  ["maximum", numberBound("<=", (value, limit) => value > limit)],
  ["exclusiveMinimum", numberBound(">", (value, limit) => value <= limit)],
  ["exclusiveMaximum", numberBound("<", (value, limit) => value >= limit)],
  ["minLength", sizeBound("string", "min")],
  ["maxLength", sizeBound("string", "max")],
  [
    "pattern",
    (pattern, value, _schema, path, walk) => {
      if (typeof pattern !== "string" || typeof value !== "string") return;
      const regex = compilePattern(pattern);
      if (regex !== null && !regex.test(value))
        report(walk, path, `string matching ${pattern}`, describeValue(value));
    },
  ],
  ["minItems", sizeBound("array", "min")],
  ["maxItems", sizeBound("array", "max")],
  [
    "items",
    (items, value, _schema, path, walk) => {
      if (!Array.isArray(value)) return;
      value.forEach((element, index) => {
        const schema = Array.isArray(items) ? items[index] : items;
        if (schema !== undefined) walkSchema(schema, element, [...path, index], walk);
      });
    },
  ],
  [
    "required",
    (required, value, schema, path, walk) => {
      if (!isObject(value) || !Array.isArray(required)) return;
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const name of required) {
        if (typeof name !== "string" || hasOwn(value, name)) continue;
        const property = properties[name];
        const expected =
          isObject(property) && property.type !== undefined ? typeText(property.type) : "a value";
        report(
          walk,
          [...path, name],
          expected,
          "nothing",
          `Missing required property ${JSON.stringify(name)}`,
        );
      }
    },
  ],
  [
    "properties",
    (properties, value, _schema, path, walk) => {
      if (!isObject(value) || !isObject(properties)) return;
      for (const name of Object.keys(properties)) {
        if (hasOwn(value, name)) walkSchema(properties[name], value[name], [...path, name], walk);
      }
    },
  ],
  [
    "additionalProperties",
    (additional, value, schema, path, walk) => {
      if (!isObject(value) || additional === true || additional === undefined) return;
      const declared = isObject(schema.properties) ? schema.properties : {};
      const extra = Object.keys(value).filter((name) => !hasOwn(declared, name));
      if (extra.length === 0) return;
      if (additional === false) {
        const names = extra.map((name) => JSON.stringify(name)).join(", ");
        report(
          walk,
          path,
          "only the declared properties",
          `unknown ${extra.length === 1 ? "property" : "properties"} ${names}`,
        );
        return;
      }
      for (const name of extra) walkSchema(additional, value[name], [...path, name], walk);
    },
  ],
  ["anyOf", anyBranch],
  ["oneOf", anyBranch],
];

function walkSchema(schema: unknown, value: unknown, path: PropertyKey[], walk: Walk): Walk {
  if (schema === false) report(walk, path, "nothing (no value is allowed here)", describeType(value));
  if (!isObject(schema)) return walk;
  if (hasOwn(schema, "type")) {
    // A value of the wrong type is reported once; the node's other keywords would only add noise.
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => matchesType(type, value))) {
      report(walk, path, typeText(schema.type), describeType(value));
      return walk;
    }
  }
  for (const [keyword, check] of KEYWORDS) {
    if (walk.issues.length >= MAX_ISSUES) break;
    if (hasOwn(schema, keyword)) check(schema[keyword], value, schema, path, walk);
  }
  return walk;
}

/**
 * Validates `value` against a plain JSON Schema and returns the issues found (empty when valid). A small,
 * data-driven walker for the subset tools use: `type` (also type arrays, for nullable), `properties`,
 * `required`, `additionalProperties`, `enum`, `const`, `items`, `minimum`/`maximum` (and exclusive forms),
 * `minLength`/`maxLength`, `minItems`/`maxItems`, `pattern`, `anyOf`/`oneOf`. Other keywords are ignored.
 */
export function validateJsonSchema({
  schema,
  value,
}: {
  schema: JsonSchema;
  value: unknown;
}): ToolArgumentIssue[] {
  return walkSchema(schema, value, [], { issues: [] }).issues;
}
