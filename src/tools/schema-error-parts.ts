import type { OutputUnit, Schema } from "@cfworker/json-schema";
import type { ToolArgumentIssue } from "../errors/tool-arguments-error.js";
import { formatIssuePath } from "./format-issue-path.js";

/** A schema node (an object schema). */
export type Node = Record<string, unknown>;

/** Where a unit points into the value: the value there and its path as the model writes it. */
export interface ValueAt {
  value: unknown;
  path: PropertyKey[];
}

/** Options of `describeSchemaErrors`: the validator's output and what it validated. */
export interface DescribeSchemaErrorsOptions {
  /** The validator's output units (`@cfworker/json-schema`, not short-circuited), in its order. */
  errors: readonly OutputUnit[];
  /** The schema validated against (dereferenced: `$ref` nodes carry `__absolute_ref__`). */
  root: Schema;
  /** The dereferenced schemas by URI. */
  lookup: Record<string, Schema | boolean>;
  /** The value validated. */
  value: unknown;
}

/** Keywords whose value maps names to subschemas: a `$ref` segment right after one is a property name. */
const MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/** A JSON object (not an array). */
export function isObject(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value as JSON text. */
export function literal(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** `type` as text: `"string"`, `"string or null"`. */
export function typeText(type: unknown): string {
  return Array.isArray(type) ? type.map(String).join(" or ") : String(type);
}

/** The segments of a JSON pointer as the validator writes it (`#/a/b~1c`, URI-encoded). */
export function segmentsOf(location: string): string[] {
  if (location === "#" || location === "") return [];
  return location
    .slice(location.startsWith("#/") ? 2 : 1)
    .split("/")
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The schema node that holds the keyword at `keywordLocation`, following `$ref` hops; undefined if unknown. */
export function schemaAt(options: DescribeSchemaErrorsOptions, keywordLocation: string): Node | undefined {
  const segments = segmentsOf(keywordLocation).slice(0, -1);
  let node: unknown = options.root;
  let previous = "";
  for (const segment of segments) {
    if (segment === "$recursiveRef") return undefined;
    if (segment === "$ref" && isObject(node) && !MAP_KEYWORDS.has(previous)) {
      const target = node.__absolute_ref__;
      node = typeof target === "string" ? options.lookup[target] : undefined;
    } else if (Array.isArray(node)) {
      node = node[Number(segment)];
    } else if (isObject(node) && Object.hasOwn(node, segment)) {
      node = node[segment];
    } else {
      return undefined;
    }
    previous = segment;
  }
  return isObject(node) ? node : undefined;
}

/** The value at `instanceLocation` and its path as the model writes it (array indexes as numbers). */
export function valueAt(root: unknown, instanceLocation: string): ValueAt {
  let value = root;
  const path: PropertyKey[] = [];
  for (const segment of segmentsOf(instanceLocation)) {
    if (Array.isArray(value)) {
      path.push(Number(segment));
      value = value[Number(segment)];
    } else {
      path.push(segment);
      value = isObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
    }
  }
  return { value, path };
}

/** One issue, with the usual message `Expected …, received …` unless one is given. */
export function issue(
  path: readonly PropertyKey[],
  expected: string,
  received: string,
  message?: string,
): ToolArgumentIssue {
  return {
    path: formatIssuePath(path),
    expected,
    received,
    message: message ?? `Expected ${expected}, received ${received}`,
  };
}

/** One unit, translated. Returns the issues to add and the keyword locations whose units to skip. */
export interface Translation {
  issues: ToolArgumentIssue[];
  skip?: string[];
}
