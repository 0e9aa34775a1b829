import type { JsonSchema } from "./model.js";

/** How deep {@link dropStrictNulls} follows a schema and a value (deeper parts are returned as they are). */
const MAX_DEPTH = 64;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A map's own member (never an inherited one such as `constructor`). */
function own(map: unknown, key: string): unknown {
  return isPlainObject(map) && Object.hasOwn(map, key) ? map[key] : undefined;
}

/** Sets an own property, even one named `__proto__`. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function typesOf(schema: JsonSchema): string[] | undefined {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  return undefined;
}

/**
 * Whether a schema accepts `null`, read shallowly (a `$ref` is not followed, and is taken as not accepting it):
 * an `anyOf`/`oneOf` with a branch that does, or a schema whose `type`, `enum` and `const` (those it has) all
 * allow it (`{}` does). Used on both sides of the optional-to-nullable conversion of strict schemas.
 */
export function schemaAcceptsNull(schema: unknown): boolean {
  if (!isPlainObject(schema)) return schema === true;
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return branches.some(schemaAcceptsNull);
  if (schema.$ref !== undefined) return false;
  const types = typesOf(schema);
  const hasEnum = Array.isArray(schema.enum);
  const hasConst = "const" in schema;
  if (types === undefined && !hasEnum && !hasConst) return true;
  if (types !== undefined && !types.includes("null")) return false;
  if (hasEnum && !(schema.enum as unknown[]).includes(null)) return false;
  return !hasConst || schema.const === null;
}

/** Resolves a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer into the root). */
function resolveRef(root: JsonSchema, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = own(node, key);
  }
  return node;
}

/** The schema itself, or what its `$ref` points to (followed a few times). */
function deref(root: JsonSchema, schema: unknown): JsonSchema | undefined {
  let node = schema;
  for (let hops = 0; hops < 8 && isPlainObject(node) && typeof node.$ref === "string"; hops++) {
    node = resolveRef(root, node.$ref);
  }
  return isPlainObject(node) ? node : undefined;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Whether a branch of a union can describe `value` (its type matches; for objects, it declares every key). */
function branchFits(branch: JsonSchema, value: unknown): boolean {
  const types = typesOf(branch);
  const type = jsonTypeOf(value);
  if (types !== undefined && !types.includes(type) && !(type === "number" && types.includes("integer"))) {
    return false;
  }
  if (!isPlainObject(value)) return true;
  return Object.entries(value).every(([key, item]) => {
    const property = own(branch.properties, key);
    if (property === undefined) return branch.additionalProperties !== false;
    return !isPlainObject(property) || !("const" in property) || property.const === item;
  });
}

function walk(root: JsonSchema, schema: unknown, value: unknown, depth: number): unknown {
  const node = deref(root, schema);
  if (node === undefined || depth > MAX_DEPTH || value === null || typeof value !== "object") return value;
  const branches = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches)) {
    const fit = branches
      .map((branch) => deref(root, branch))
      .find((b) => b !== undefined && branchFits(b, value));
    return fit === undefined ? value : walk(root, fit, value, depth + 1);
  }
  if (Array.isArray(value)) {
    return isPlainObject(node.items) ? value.map((item) => walk(root, node.items, item, depth + 1)) : value;
  }
  const required = Array.isArray(node.required) ? node.required : [];
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = own(node.properties, key);
    if (property === undefined) {
      setOwn(result, key, item);
      continue;
    }
    const optionalNull =
      item === null && !required.includes(key) && !schemaAcceptsNull(deref(root, property));
    if (!optionalNull) setOwn(result, key, walk(root, property, item, depth + 1));
  }
  return result;
}

/** Options of {@link dropStrictNulls}. */
export interface DropStrictNullsOptions {
  /** The schema as the caller wrote it (before any strict conversion). */
  schema: JsonSchema;
  /** A decoded answer. */
  value: unknown;
}

/**
 * Undoes the one change a strict schema conversion makes to answers: OpenAI's strict mode needs every
 * property required, so an optional property is sent as required-and-nullable, and the model writes `null`
 * where it means "absent". This removes every `null` property value that `schema` declares optional and does
 * not allow to be `null` (a `null` the original schema would reject anyway), walking nested objects, arrays,
 * local `$ref`s and `anyOf`/`oneOf` (the first branch that fits the value). Returns a new value; anything
 * else is kept as it is.
 *
 * @example
 * dropStrictNulls({ schema: { type: "object", properties: { a: { type: "string" } } }, value: { a: null } });
 * // → {}
 */
export function dropStrictNulls({ schema, value }: DropStrictNullsOptions): unknown {
  return walk(schema, schema, value, 0);
}
