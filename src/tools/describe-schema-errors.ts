import type { OutputUnit } from "@cfworker/json-schema";
import type { ToolArgumentIssue } from "../errors/tool-arguments-error.js";
import { describeType, describeValue } from "./describe-received.js";
import { describeBranches } from "./describe-schema-branches.js";
import {
  type DescribeSchemaErrorsOptions,
  isObject,
  issue,
  literal,
  type Node,
  schemaAt,
  segmentsOf,
  type Translation,
  typeText,
  type ValueAt,
  valueAt,
} from "./schema-error-parts.js";

export type { DescribeSchemaErrorsOptions } from "./schema-error-parts.js";

/** Validation reports at most this many issues. */
const MAX_ISSUES = 50;

/** Keywords whose unit only says "a subschema failed": the subschema's own units follow and say what. */
const WRAPPERS = new Set([
  "$ref",
  "$recursiveRef",
  "properties",
  "patternProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "allOf",
  "if",
  "dependentSchemas",
  "additionalProperties",
  "unevaluatedProperties",
]);

/** What a known `format` means, for the model. */
const FORMAT_TEXT: { readonly [name: string]: string } = {
  email: "an email address",
  "date-time": "a date-time such as 2024-01-31T09:30:00Z",
  date: "a date such as 2024-01-31",
  time: "a time such as 09:30:00Z",
  duration: "an ISO 8601 duration such as P3D",
  uri: "an absolute URI such as https://example.com/page",
  "uri-reference": "a URI reference",
  "uri-template": "a URI template",
  url: "a URL",
  hostname: "a host name",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
  uuid: "a UUID",
  regex: "a regular expression",
  "json-pointer": "a JSON pointer",
  "relative-json-pointer": "a relative JSON pointer",
};

function missing(
  path: readonly PropertyKey[],
  name: string,
  property: unknown,
  why: string,
): ToolArgumentIssue {
  const expected = isObject(property) && property.type !== undefined ? typeText(property.type) : "a value";
  return issue(
    [...path, name],
    expected,
    "nothing",
    `Missing required property ${JSON.stringify(name)}${why}`,
  );
}

/** `required`, `dependentRequired`, `dependencies` (array form): every missing property of the object. */
function describeMissing(unit: OutputUnit, node: Node | undefined, at: ValueAt): ToolArgumentIssue[] {
  if (node === undefined || !isObject(at.value)) return [issue(at.path, "a value", "nothing", unit.error)];
  const object = at.value;
  const properties = isObject(node.properties) ? node.properties : {};
  const has = (name: unknown): boolean => typeof name === "string" && Object.hasOwn(object, name);
  if (unit.keyword === "required") {
    const required = Array.isArray(node.required) ? node.required : [];
    return required
      .filter((name): name is string => typeof name === "string" && !has(name))
      .map((name) => missing(at.path, name, properties[name], ""));
  }
  const rules = node[unit.keyword === "dependentRequired" ? "dependentRequired" : "dependencies"];
  if (!isObject(rules)) return [];
  const issues: ToolArgumentIssue[] = [];
  for (const [key, names] of Object.entries(rules)) {
    if (!has(key) || !Array.isArray(names)) continue;
    for (const name of names) {
      if (typeof name === "string" && !has(name)) {
        issues.push(
          missing(at.path, name, properties[name], ` (required when ${JSON.stringify(key)} is given)`),
        );
      }
    }
  }
  return issues;
}

function bound(keyword: string, limit: unknown, node: Node): string {
  const exclusive = (flag: unknown) => flag === true;
  switch (keyword) {
    case "minimum":
      return `number ${exclusive(node.exclusiveMinimum) ? ">" : ">="} ${String(limit)}`;
    case "maximum":
      return `number ${exclusive(node.exclusiveMaximum) ? "<" : "<="} ${String(limit)}`;
    case "exclusiveMinimum":
      return `number > ${String(limit)}`;
    default:
      return `number < ${String(limit)}`;
  }
}

function size(kind: "string" | "array" | "object", side: "min" | "max", limit: unknown): string {
  const unit = kind === "string" ? "characters" : kind === "array" ? "items" : "properties";
  return `${kind} with ${side === "min" ? "at least" : "at most"} ${String(limit)} ${unit}`;
}

function sizeOf(value: unknown): string {
  if (typeof value === "string") return `string of ${[...value].length} characters`;
  if (Array.isArray(value)) return `array of ${value.length} items`;
  if (isObject(value)) return `object with ${Object.keys(value).length} properties`;
  return describeType(value);
}

/** Translates one leaf unit (wrappers and grouped units are handled by the caller). */
function describeUnit(options: DescribeSchemaErrorsOptions, unit: OutputUnit, at: ValueAt): Translation {
  const node = schemaAt(options, unit.keywordLocation);
  const limit = node?.[unit.keyword];
  const { value, path } = at;
  switch (unit.keyword) {
    case "type":
      return {
        issues: [issue(path, node === undefined ? "another type" : typeText(node.type), describeType(value))],
      };
    case "const":
      return {
        issues: [
          issue(path, node === undefined ? "another value" : literal(node.const), describeValue(value)),
        ],
      };
    case "enum": {
      const options = Array.isArray(limit) ? limit : [];
      const expected =
        options.length === 1 ? literal(options[0]) : `one of ${options.map(literal).join(", ")}`;
      return { issues: [issue(path, expected, describeValue(value))] };
    }
    case "required":
    case "dependentRequired":
    case "dependencies":
      return { issues: describeMissing(unit, node, at) };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return {
        issues: [
          issue(path, node === undefined ? unit.error : bound(unit.keyword, limit, node), String(value)),
        ],
      };
    case "multipleOf":
      return { issues: [issue(path, `a multiple of ${String(limit)}`, String(value))] };
    case "minLength":
    case "maxLength":
      return {
        issues: [
          issue(path, size("string", unit.keyword === "minLength" ? "min" : "max", limit), sizeOf(value)),
        ],
      };
    case "minItems":
    case "maxItems":
      return {
        issues: [
          issue(path, size("array", unit.keyword === "minItems" ? "min" : "max", limit), sizeOf(value)),
        ],
      };
    case "minProperties":
    case "maxProperties":
      return {
        issues: [
          issue(path, size("object", unit.keyword === "minProperties" ? "min" : "max", limit), sizeOf(value)),
        ],
      };
    case "pattern":
      return { issues: [issue(path, `string matching ${String(limit)}`, describeValue(value))] };
    case "format": {
      const name = String(limit);
      return {
        issues: [issue(path, `${FORMAT_TEXT[name] ?? "a string"} (format "${name}")`, describeValue(value))],
      };
    }
    case "uniqueItems":
      return {
        issues: [
          issue(
            path,
            "array of unique items",
            `array with duplicates (${unit.error.replace(/\.$/, "").toLowerCase()})`,
          ),
        ],
      };
    case "not":
      return { issues: [issue(path, 'a value that does not match the "not" schema', describeValue(value))] };
    case "anyOf":
    case "oneOf":
      return describeBranches(options, unit, node, at);
    case "contains":
    case "minContains":
    case "maxContains":
      return {
        issues: [
          issue(
            path,
            'array with the required number of items matching the "contains" schema',
            sizeOf(value),
            unit.error,
          ),
        ],
        skip: [`${unit.keywordLocation}/`],
      };
    case "false":
      return { issues: [issue(path, "nothing (no value is allowed here)", describeType(value))] };
    default:
      return { issues: [issue(path, "a value valid against the schema", describeValue(value), unit.error)] };
  }
}

/** Every instance location that has a unit of its own, with all its ancestors. */
function locatedUnits(errors: readonly OutputUnit[], consumed: ReadonlySet<number>): Set<string> {
  const located = new Set<string>();
  errors.forEach((unit, index) => {
    if (consumed.has(index)) return;
    let location = unit.instanceLocation;
    while (!located.has(location)) {
      located.add(location);
      const cut = location.lastIndexOf("/");
      if (cut < 0) break;
      location = location.slice(0, cut);
    }
  });
  return located;
}

/**
 * Unknown properties refused by `additionalProperties: false` / `unevaluatedProperties: false`: the validator
 * reports each as a wrapper unit followed by a "false schema" unit; grouped here into one issue per object. A
 * property with complaints of its own is not called unknown (`unevaluatedProperties` sees an invalid declared
 * property as unevaluated).
 */
function unknownProperties(options: DescribeSchemaErrorsOptions): {
  groups: Map<number, string[]>;
  consumed: Set<number>;
} {
  const { errors } = options;
  const pairs: Array<{ index: number; key: string; location: string }> = [];
  const consumed = new Set<number>();
  errors.forEach((unit, index) => {
    const next = errors[index + 1];
    if (unit.keyword !== "additionalProperties" && unit.keyword !== "unevaluatedProperties") return;
    if (next?.keyword !== "false" || !next.instanceLocation.startsWith(`${unit.instanceLocation}/`)) return;
    pairs.push({
      index,
      key: `${unit.keywordLocation}|${unit.instanceLocation}`,
      location: next.instanceLocation,
    });
    consumed.add(index);
    consumed.add(index + 1);
  });
  const located = locatedUnits(errors, consumed);
  const groups = new Map<number, string[]>();
  const firstOf = new Map<string, number>();
  for (const { index, key, location } of pairs) {
    if (located.has(location)) continue;
    const first = firstOf.get(key) ?? index;
    firstOf.set(key, first);
    const names = groups.get(first) ?? [];
    names.push(segmentsOf(location).at(-1) ?? "");
    groups.set(first, names);
  }
  return { groups, consumed };
}

/**
 * Translates the output of `@cfworker/json-schema` into field-level issues the model can act on: one per
 * problem, with the path (`items[2].name`), what was expected and what was received. Wrapper units ("a
 * subschema had errors") are dropped; a wrong type hides the other complaints about the same value; the
 * branches of a failed `anyOf`/`oneOf` are summed up in one issue, unless the value's type picks one branch,
 * whose own issues are then given; unknown properties are grouped per object. At most 50 issues.
 */
export function describeSchemaErrors(options: DescribeSchemaErrorsOptions): ToolArgumentIssue[] {
  const { groups, consumed } = unknownProperties(options);
  const issues: ToolArgumentIssue[] = [];
  const skip: string[] = [];
  const wrongType = new Set<string>();
  const done = new Set<string>();
  let skippedPrevious = false;
  options.errors.forEach((unit, index) => {
    if (issues.length >= MAX_ISSUES) return;
    const names = groups.get(index);
    if (names !== undefined && !skip.some((prefix) => unit.keywordLocation.startsWith(prefix))) {
      const list = names.map((name) => JSON.stringify(name)).join(", ");
      const unknown = `unknown ${names.length === 1 ? "property" : "properties"} ${list}`;
      issues.push(
        issue(valueAt(options.value, unit.instanceLocation).path, "only the declared properties", unknown),
      );
    }
    const skipped =
      consumed.has(index) ||
      skip.some((prefix) => unit.keywordLocation.startsWith(prefix)) ||
      // A false-schema unit carries no schema location: it belongs to the wrapper unit before it.
      (unit.keyword === "false" && skippedPrevious) ||
      (unit.keyword !== "type" && wrongType.has(unit.instanceLocation));
    skippedPrevious = skipped;
    if (skipped) return;
    const at = valueAt(options.value, unit.instanceLocation);
    if (WRAPPERS.has(unit.keyword)) return;
    const once = `${unit.keyword}|${unit.keywordLocation}|${unit.instanceLocation}`;
    if (
      unit.keyword === "required" ||
      unit.keyword === "dependentRequired" ||
      unit.keyword === "dependencies"
    ) {
      if (done.has(once)) return;
      done.add(once);
    }
    if (unit.keyword === "type") wrongType.add(unit.instanceLocation);
    const translated = describeUnit(options, unit, at);
    if (translated.skip !== undefined) skip.push(...translated.skip);
    for (const found of translated.issues) if (issues.length < MAX_ISSUES) issues.push(found);
  });
  // Never an invalid value without an issue: fall back to the validator's own words.
  const first = options.errors[0];
  if (issues.length === 0 && first !== undefined) {
    const at = valueAt(options.value, first.instanceLocation);
    issues.push(issue(at.path, "a value valid against the schema", describeValue(at.value), first.error));
  }
  return issues;
}
