import type { JsonSchema } from "../../models/model.js";

/** The `format` values Anthropic's structured outputs accept on strings. */
const ANTHROPIC_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
]);
/** Keywords copied as they are. */
const KEPT = new Set(["type", "description", "title", "enum", "const", "required"]);
/** Bookkeeping keywords left out (they say nothing to the model). */
const DROPPED = new Set(["$schema", "$id", "$comment"]);
/** Nesting deeper than this is sent as it is. */
const MAX_DEPTH = 64;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isObjectType(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  if (type === undefined) return isPlainObject(schema.properties);
  return type === "object" || (Array.isArray(type) && type.includes("object"));
}

function convertMap(map: unknown, depth: number): unknown {
  if (!isPlainObject(map)) return map;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(map)) {
    // defineProperty: a property name can be anything, `__proto__` included.
    Object.defineProperty(out, key, {
      value: convertNode(member, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Copies one keyword the API accepts into `out`; false for one it does not (it goes into the description). */
function copyKeyword({
  key,
  value,
  out,
  depth,
}: {
  key: string;
  value: unknown;
  out: Record<string, unknown>;
  depth: number;
}): boolean {
  if (KEPT.has(key)) out[key] = value;
  else if (key === "properties" || key === "$defs" || key === "definitions")
    out[key] = convertMap(value, depth);
  else if (key === "anyOf" || key === "oneOf" || key === "allOf") {
    if (!Array.isArray(value)) return false;
    const union = key === "allOf" ? "allOf" : "anyOf";
    if (out[union] !== undefined) return false;
    out[union] = value.map((branch) => convertNode(branch, depth + 1));
  } else if (key === "items" && isPlainObject(value)) out.items = convertNode(value, depth + 1);
  else if (key === "format" && typeof value === "string" && ANTHROPIC_FORMATS.has(value)) out.format = value;
  else if (key === "minItems" && (value === 0 || value === 1)) out.minItems = value;
  else if (key !== "additionalProperties") return false;
  return true;
}

/** The description with the constraints the API does not take appended, as `{minimum: 1, maxLength: 5}`. */
function describe(description: unknown, moved: ReadonlyArray<[string, unknown]>): string {
  const listed = `{${moved.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(", ")}}`;
  return typeof description === "string" && description !== "" ? `${description}\n\n${listed}` : listed;
}

function convertNode(node: unknown, depth: number): unknown {
  if (!isPlainObject(node) || depth > MAX_DEPTH) return node;
  if (typeof node.$ref === "string") return { $ref: node.$ref };
  const out: Record<string, unknown> = {};
  const moved: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    if (!copyKeyword({ key, value, out, depth })) moved.push([key, value]);
  }
  if (isObjectType(out)) {
    out.properties ??= {};
    out.additionalProperties = false;
  } else if (node.additionalProperties !== undefined) {
    moved.push(["additionalProperties", node.additionalProperties]);
  }
  if (moved.length > 0) out.description = describe(out.description, moved);
  return out;
}

const cache = new WeakMap<JsonSchema, JsonSchema>();

/**
 * Converts a JSON Schema to the subset Anthropic's structured outputs (`output_config.format`) accept, the
 * way Anthropic's own SDKs do. The result is cached per schema object (treat schemas as immutable); the
 * given schema is never changed.
 *
 * - Every object gets `additionalProperties: false` (the API requires it; an object that allowed other
 *   keys, or a map, is closed to its declared properties). Optional properties stay optional.
 * - `oneOf` becomes `anyOf`; a `$ref` is kept alone (sibling keywords are left out).
 * - Kept: `type`, `properties`, `required`, `items`, `anyOf`, `allOf`, `enum`, `const`, `$defs`,
 *   `definitions`, `description`, `title`, `minItems` 0 or 1, and the `format`s the API knows.
 * - Everything else (`minimum`, `maxLength`, `pattern`, `default`, other formats, ...) is taken out and
 *   written into the `description` as `{minimum: 1}`, so the model still reads it; the agent validates the
 *   answer against the original schema.
 *
 * Not handled: recursive schemas, which the API refuses (400): use `createAnthropic({ structuredOutput:
 * false })` for those, so the agent asks for the answer through a tool call instead.
 */
export function toAnthropicJsonSchema(schema: JsonSchema): JsonSchema {
  let converted = cache.get(schema);
  if (converted === undefined) {
    converted = convertNode(schema, 0) as JsonSchema;
    cache.set(schema, converted);
  }
  return converted;
}
