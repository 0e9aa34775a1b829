import { schemaAcceptsNull } from "../../models/drop-strict-nulls.js";
import type { JsonSchema } from "../../models/model.js";

/** The result of {@link toStrictJsonSchema}. */
export interface StrictJsonSchemaResult {
  /** The schema to send: the strict form when `strict` is true, else the given schema unchanged. */
  schema: JsonSchema;
  /** Whether `schema` is in OpenAI's strict subset (send it with `strict: true`). */
  strict: boolean;
  /** Why the schema could not be made strict (when `strict` is false), e.g. `the keyword "allOf" at #/properties/a`. */
  reason?: string;
}

/** Keywords of the strict subset copied as they are. */
const KEPT = new Set([
  ...["type", "description", "title", "enum", "const", "pattern"],
  ...["multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"],
]);
/** Annotations: they constrain nothing, and strict mode rejects some of them (`default`), so they are left out. */
const DROPPED = new Set([
  "$schema",
  "$id",
  "$comment",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
/** The `format` values strict mode knows; other formats (annotations in JSON Schema 2020-12) are left out. */
const STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);
/** The primitive types a `type` array can make nullable (objects and arrays are wrapped in `anyOf` instead). */
const PRIMITIVES = new Set(["string", "number", "integer", "boolean"]);
/** Nesting deeper than this is not converted (strict mode allows far less anyway). */
const MAX_DEPTH = 64;

/** One conversion: the root (for `$ref`s) and the first reason it failed. */
interface Walk {
  root: JsonSchema;
  reason?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Sets an own property, even one named `__proto__` (a property name in a schema can be anything). */
function setOwn(target: JsonSchema, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function fail(walk: Walk, path: string, what: string): undefined {
  walk.reason ??= `${what} at ${path}`;
  return undefined;
}

/** {@link fail} for the keyword copiers, which answer whether they could copy. */
function refuse(walk: Walk, path: string, what: string): false {
  fail(walk, path, what);
  return false;
}

/** Converts every member of a `properties`/`$defs` map, keeping its keys. */
function convertMap(walk: Walk, map: unknown, path: string, depth: number): JsonSchema | undefined {
  if (!isPlainObject(map)) return fail(walk, path, "a map that is not an object");
  const out: JsonSchema = {};
  for (const [key, member] of Object.entries(map)) {
    const converted = convertNode(walk, member, `${path}/${key}`, depth + 1);
    if (converted === undefined) return undefined;
    setOwn(out, key, converted);
  }
  return out;
}

/** Copies (or converts) one keyword into `out`. False when the keyword is outside the strict subset. */
function copyKeyword(
  walk: Walk,
  {
    key,
    value,
    out,
    path,
    depth,
  }: { key: string; value: unknown; out: JsonSchema; path: string; depth: number },
): boolean {
  if (DROPPED.has(key) || key === "required") return true;
  if (KEPT.has(key)) {
    out[key] = value;
    return true;
  }
  const at = `${path}/${key}`;
  let converted: unknown;
  switch (key) {
    case "format":
      if (typeof value === "string" && STRICT_FORMATS.has(value)) out.format = value;
      return true;
    case "additionalProperties":
      return value === false || refuse(walk, at, "additionalProperties other than false");
    case "properties":
    case "$defs":
    case "definitions":
      converted = convertMap(walk, value, at, depth);
      break;
    case "items":
      converted = isPlainObject(value)
        ? convertNode(walk, value, at, depth + 1)
        : fail(walk, at, "tuple items");
      break;
    case "anyOf":
    case "oneOf":
      return copyUnion(walk, { key, value, out, path, depth });
    case "$ref":
      converted =
        typeof value === "string" && value.startsWith("#") ? value : fail(walk, at, "a remote $ref");
      break;
    default:
      return refuse(walk, path, `the keyword "${key}"`);
  }
  if (converted === undefined) return false;
  out[key] = converted;
  return true;
}

/** `anyOf` as is, `oneOf` as `anyOf` (wider: the answer is validated against the original schema anyway). */
function copyUnion(
  walk: Walk,
  {
    key,
    value,
    out,
    path,
    depth,
  }: { key: string; value: unknown; out: JsonSchema; path: string; depth: number },
): boolean {
  if (out.anyOf !== undefined) return refuse(walk, path, "both anyOf and oneOf");
  if (!Array.isArray(value) || value.length === 0) return refuse(walk, `${path}/${key}`, "an empty union");
  const branches: JsonSchema[] = [];
  for (let i = 0; i < value.length; i++) {
    const branch = convertNode(walk, value[i], `${path}/${key}/${i}`, depth + 1);
    if (branch === undefined) return false;
    branches.push(branch);
  }
  out.anyOf = branches;
  return true;
}

/**
 * A `$ref` with sibling keywords (a description beside it) is replaced by its target merged with the siblings:
 * strict mode takes a `$ref` alone. Other nodes are returned as they are.
 */
function inlineRef(
  walk: Walk,
  node: Record<string, unknown>,
  path: string,
): Record<string, unknown> | undefined {
  const { $ref: ref, ...siblings } = node;
  if (typeof ref !== "string" || Object.keys(siblings).every((key) => DROPPED.has(key))) return node;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  const defs = match === null ? undefined : walk.root[match[1] as string];
  const target = isPlainObject(defs) ? defs[decodeURIComponent(match?.[2] ?? "")] : undefined;
  if (!isPlainObject(target)) return fail(walk, path, `a $ref with sibling keywords to "${ref}"`);
  return { ...target, ...siblings };
}

function isObjectType(schema: JsonSchema): boolean {
  const type = schema.type;
  if (type === undefined) return schema.properties !== undefined;
  return type === "object" || (Array.isArray(type) && type.includes("object"));
}

/**
 * Closes an object schema the strict way: `additionalProperties: false`, and every property required, the
 * optional ones made nullable. An object without `properties` (any keys) cannot be closed.
 */
function closeObject(
  walk: Walk,
  out: JsonSchema,
  node: Record<string, unknown>,
  path: string,
): JsonSchema | undefined {
  if (out.properties === undefined) {
    if (node.additionalProperties !== false)
      return fail(walk, path, "an object without properties (any keys)");
    out.properties = {};
  }
  const properties = out.properties as Record<string, JsonSchema>;
  const required = node.required ?? [];
  if (!Array.isArray(required) || !required.every((name) => typeof name === "string")) {
    return fail(walk, `${path}/required`, "required that is not an array of names");
  }
  for (const name of required) {
    if (!Object.hasOwn(properties, name))
      return fail(walk, `${path}/required`, `the undeclared required property "${name}"`);
  }
  for (const name of Object.keys(properties)) {
    if (!required.includes(name)) properties[name] = toNullable(properties[name] as JsonSchema);
  }
  out.type ??= "object";
  out.required = Object.keys(properties);
  out.additionalProperties = false;
  return out;
}

/** The schema, also accepting `null`: a `type` array for primitives, else wrapped in `anyOf` with `{type:"null"}`. */
function toNullable(schema: JsonSchema): JsonSchema {
  if (schemaAcceptsNull(schema)) return schema;
  const type = schema.type;
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : undefined;
  if (types?.every((t) => PRIMITIVES.has(t)) && !("const" in schema)) {
    const nullable: JsonSchema = { ...schema, type: [...types, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) nullable.enum = [...schema.enum, null];
    return nullable;
  }
  return { anyOf: [schema, { type: "null" }] };
}

function convertNode(walk: Walk, node: unknown, path: string, depth: number): JsonSchema | undefined {
  if (depth > MAX_DEPTH) return fail(walk, path, `nesting deeper than ${MAX_DEPTH}`);
  if (!isPlainObject(node)) return fail(walk, path, "a schema that is not an object");
  const source = inlineRef(walk, node, path);
  if (source === undefined) return undefined;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (!copyKeyword(walk, { key, value, out, path, depth })) return undefined;
  }
  if (isObjectType(out)) return closeObject(walk, out, source, path);
  if (source.additionalProperties === false || source.required !== undefined) {
    return fail(walk, path, "object keywords without type object");
  }
  if (out.type === undefined && out.enum === undefined && !("const" in out) && out.anyOf === undefined) {
    if (out.$ref === undefined) return fail(walk, path, "a schema that accepts any value");
  }
  return out;
}

const cache = new WeakMap<JsonSchema, StrictJsonSchemaResult>();

/**
 * Converts a JSON Schema to OpenAI's strict Structured Outputs subset, for `strict: true` (Chat
 * `response_format`, Responses `text.format`). The result is cached per schema object (treat schemas as
 * immutable). The given schema is never changed.
 *
 * The strict form: every object gets `additionalProperties: false` and lists all its properties in
 * `required`; a property that was optional becomes nullable (`type: ["string", "null"]`, or
 * `anyOf: [schema, {type: "null"}]`), so the model writes `null` for "absent" (`dropStrictNulls` undoes
 * that on the answer). `oneOf` becomes `anyOf`; a `$ref` with sibling keywords is inlined; annotations
 * (`default`, `examples`, `$schema`, ...) and `format`s strict mode does not know are left out. Kept as they
 * are: `type`, `properties`, `items`, `anyOf`, `enum`, `const`, local `$ref` with `$defs`/`definitions`
 * (recursion included), `description`, `title`, `pattern`, number bounds and `minItems`/`maxItems`.
 *
 * Not convertible, so returned unchanged with `strict: false` and a `reason`: a top level that is not
 * `type: "object"`, any other keyword (`allOf`, `not`, `if`, `patternProperties`, `minLength`,
 * `uniqueItems`, ...), `additionalProperties` other than false (maps), an object without `properties`,
 * a schema that accepts any value (`{}`), tuple `items`, remote `$ref`s.
 */
export function toStrictJsonSchema(schema: JsonSchema): StrictJsonSchemaResult {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  const walk: Walk = { root: schema };
  let result: StrictJsonSchemaResult;
  if (schema.type !== "object") {
    result = { schema, strict: false, reason: 'a top level that is not type "object" at #' };
  } else {
    const converted = convertNode(walk, schema, "#", 0);
    result =
      converted === undefined
        ? { schema, strict: false, reason: walk.reason ?? "unsupported schema" }
        : { schema: converted, strict: true };
  }
  cache.set(schema, result);
  return result;
}
