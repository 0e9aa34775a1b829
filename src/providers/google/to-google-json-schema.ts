import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { JsonSchema } from "../../models/model.js";

/**
 * The JSON Schema keywords Gemini takes in `parametersJsonSchema` and `responseJsonSchema` (its documented
 * subset), copied as they are; schema-valued ones are converted in turn.
 */
const KEPT = new Set([
  "$id",
  "$anchor",
  "type",
  "title",
  "description",
  "required",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "propertyOrdering",
]);
/** The `format` values kept (others go into the description). */
const FORMATS = new Set(["date-time", "date", "time", "int32", "int64", "float", "double"]);
/** Bookkeeping keywords left out (they say nothing to the model). */
const DROPPED = new Set(["$schema", "$comment"]);
/** Nesting deeper than this is sent as it is. */
const MAX_DEPTH = 64;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty: a property name can be anything, `__proto__` included.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `#/definitions/…` written as `#/$defs/…` (Gemini knows only `$defs`). */
function convertRef(ref: string): string {
  return ref.startsWith("#/definitions/") ? `#/$defs/${ref.slice("#/definitions/".length)}` : ref;
}

function convertMap(map: unknown, depth: number): unknown {
  if (!isPlainObject(map)) return map;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(map)) setOwn(out, key, convertNode(member, depth + 1));
  return out;
}

function isScalarList(value: unknown): value is Array<string | number> {
  return Array.isArray(value) && value.every((item) => typeof item === "string" || typeof item === "number");
}

/** Copies one keyword Gemini takes into `out`; false for one it does not (it goes into the description). */
function copyKeyword(key: string, value: unknown, out: Record<string, unknown>, depth: number): boolean {
  if (KEPT.has(key)) out[key] = value;
  else if (key === "properties") out.properties = convertMap(value, depth);
  else if (key === "$defs" || key === "definitions") {
    if (out.$defs !== undefined) return false;
    out.$defs = convertMap(value, depth);
  } else if (key === "anyOf" || key === "oneOf") {
    // The API reads oneOf as anyOf; saying anyOf is what it does.
    if (!Array.isArray(value) || out.anyOf !== undefined) return false;
    out.anyOf = value.map((branch) => convertNode(branch, depth + 1));
  } else if (key === "items" && isPlainObject(value)) out.items = convertNode(value, depth + 1);
  else if (key === "prefixItems" && Array.isArray(value)) {
    out.prefixItems = value.map((item) => convertNode(item, depth + 1));
  } else if (key === "additionalProperties" && (typeof value === "boolean" || isPlainObject(value))) {
    out.additionalProperties = typeof value === "boolean" ? value : convertNode(value, depth + 1);
  } else if (key === "enum" && isScalarList(value)) out.enum = value;
  else if (key === "const" && (typeof value === "string" || typeof value === "number")) {
    if (out.enum !== undefined) return false;
    out.enum = [value];
  } else if (key === "format" && typeof value === "string" && FORMATS.has(value)) out.format = value;
  else return false;
  return true;
}

/** The description with the constraints Gemini does not take appended, as `{pattern: "^a", minLength: 2}`. */
function describe(description: unknown, moved: ReadonlyArray<[string, unknown]>): string {
  const listed = `{${moved.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(", ")}}`;
  return typeof description === "string" && description !== "" ? `${description}\n\n${listed}` : listed;
}

/** The keywords that apply to each JSON type (a type list is split into one `anyOf` branch per type). */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  object: ["properties", "required", "additionalProperties", "propertyOrdering"],
  array: ["items", "prefixItems", "minItems", "maxItems"],
  string: ["enum", "format"],
  number: ["enum", "format", "minimum", "maximum"],
  integer: ["enum", "format", "minimum", "maximum"],
};

/**
 * `type: ["string", "null"]` (what zod writes for a nullable field) as `anyOf: [{type: "string", …}, {type:
 * "null"}]`, each branch with the keywords of its type: `anyOf` and `type: "null"` are what Gemini documents.
 * A one-type list becomes the type; a node that already has an `anyOf` keeps its list.
 */
function splitTypeList(out: Record<string, unknown>): Record<string, unknown> {
  const types = out.type;
  if (!Array.isArray(types) || !types.every((type) => typeof type === "string")) return out;
  if (types.length === 1) return { ...out, type: types[0] };
  if (out.anyOf !== undefined || types.length === 0) return out;
  const moved = new Set(Object.values(TYPE_KEYWORDS).flat());
  const outer: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(out)) if (key !== "type" && !moved.has(key)) outer[key] = value;
  outer.anyOf = (types as string[]).map((type) => {
    const branch: Record<string, unknown> = { type };
    for (const key of TYPE_KEYWORDS[type] ?? []) if (out[key] !== undefined) branch[key] = out[key];
    return branch;
  });
  return outer;
}

/** Lets a node with a nullable enum take null: `"null"` joins its type (or an untyped enum gets a null branch). */
function addNull(out: Record<string, unknown>): void {
  const type = out.type;
  if (typeof type === "string") out.type = type === "null" ? type : [type, "null"];
  else if (Array.isArray(type)) out.type = type.includes("null") ? type : [...type, "null"];
  else if (type === undefined && out.anyOf === undefined) {
    out.anyOf = [{ enum: out.enum }, { type: "null" }];
    delete out.enum;
  }
}

function convertNode(node: unknown, depth: number): unknown {
  if (!isPlainObject(node) || depth > MAX_DEPTH) return node;
  const out: Record<string, unknown> = {};
  const moved: Array<[string, unknown]> = [];
  let nullable = false;
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || key === "$ref") continue;
    if (key === "enum" && Array.isArray(value) && value.includes(null)) {
      // An enum that allows null: its other values, and null through the type.
      const values = value.filter((item) => item !== null);
      if (values.length > 0 && isScalarList(values)) {
        out.enum = values;
        nullable = true;
        continue;
      }
    }
    if (!copyKeyword(key, value, out, depth)) moved.push([key, value]);
  }
  if (moved.length > 0) out.description = describe(out.description, moved);
  if (nullable) addNull(out);
  if (typeof node.$ref !== "string") return splitTypeList(out);
  // Beside `$ref` only `$` keywords may stand: other keywords wrap the reference in a one-branch anyOf.
  const ref = { $ref: convertRef(node.$ref) };
  const others = Object.keys(out).filter((key) => !key.startsWith("$"));
  if (others.length === 0) return { ...out, ...ref };
  if (out.anyOf === undefined) return { ...out, anyOf: [ref] };
  // `$ref` beside `anyOf` means both must hold, which a one-branch wrap cannot say: the reference wins.
  const dollar = Object.fromEntries(Object.entries(out).filter(([key]) => key.startsWith("$")));
  return { ...dollar, ...ref };
}

/** Decodes one JSON-pointer segment (`~1` is `/`, `~0` is `~`, after percent-decoding). */
function pointerSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = segment;
  }
  return decoded.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The node a local `$ref` points to (`#`, `#/$defs/Name`), or undefined (anchors and misses alike). */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const segment of ref.slice(2).split("/")) {
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    const key = pointerSegment(segment);
    node = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** Every `$ref` in the tree (with the depth bound). */
function collectRefs(node: unknown, into: Set<string>, depth = 0): Set<string> {
  if (depth > MAX_DEPTH || (!isPlainObject(node) && !Array.isArray(node))) return into;
  if (isPlainObject(node) && typeof node.$ref === "string") into.add(node.$ref);
  for (const value of Object.values(node)) collectRefs(value, into, depth + 1);
  return into;
}

/**
 * The references a value of `node` must contain: its own `$ref`, those of its required properties (and of
 * their required properties), and of a one-branch `anyOf`. Arrays may be empty and other unions may pick
 * another branch, so those do not count.
 */
function requiredRefs(node: unknown, into: Set<string>, depth = 0): Set<string> {
  if (!isPlainObject(node) || depth > MAX_DEPTH) return into;
  if (typeof node.$ref === "string") into.add(node.$ref);
  if (Array.isArray(node.anyOf) && node.anyOf.length === 1) requiredRefs(node.anyOf[0], into, depth + 1);
  const properties = node.properties;
  if (Array.isArray(node.required) && isPlainObject(properties)) {
    for (const name of node.required) {
      if (typeof name === "string" && Object.hasOwn(properties, name)) {
        requiredRefs(properties[name], into, depth + 1);
      }
    }
  }
  return into;
}

/** A reference cycle through required properties, as the refs on it; undefined when there is none. */
function requiredCycle(root: unknown): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const visit = (ref: string, path: string[]): string[] | undefined => {
    if (state.get(ref) === "open") return [...path.slice(path.indexOf(ref)), ref];
    if (state.get(ref) === "done") return undefined;
    state.set(ref, "open");
    for (const next of requiredRefs(resolvePointer(root, ref), new Set())) {
      const cycle = visit(next, [...path, ref]);
      if (cycle !== undefined) return cycle;
    }
    state.set(ref, "done");
    return undefined;
  };
  return visit("#", []);
}

/** Throws when a `$ref` cannot work: not local, or a JSON pointer that points nowhere. */
function checkRefs(root: unknown, argument: string): void {
  for (const ref of collectRefs(root, new Set())) {
    const pointer = ref.startsWith("#/") || ref === "#";
    if (!ref.startsWith("#") || (pointer && resolvePointer(root, ref) === undefined)) {
      throw new InvalidArgumentError({
        argument,
        message: `the schema's $ref "${ref}" does not point into the schema itself (Gemini resolves only local references such as "#/$defs/Name")`,
      });
    }
  }
}

/** Options of {@link toGoogleJsonSchema}. */
export interface ToGoogleJsonSchemaOptions {
  schema: JsonSchema;
  /** What the schema is, for errors (`tools.search.parameters`, `output.schema`). */
  argument: string;
}

const cache = new WeakMap<JsonSchema, JsonSchema>();

/**
 * Converts a JSON Schema to the subset Gemini takes in `parametersJsonSchema` and `responseJsonSchema`, and
 * checks what the API would refuse. The result is cached per schema object (treat schemas as immutable); the
 * given schema is never changed.
 *
 * - Kept: `type`, `properties`, `required`, `additionalProperties`,
 *   `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `enum` (of strings and numbers),
 *   `anyOf`, `$defs`, `$ref`, `$id`, `$anchor`, `title`, `description`, `propertyOrdering`, and the `format`s
 *   `date-time`, `date`, `time`, `int32`, `int64`, `float`, `double`.
 * - Converted: a type list (`type: ["string", "null"]`) → one `anyOf` branch per type, each with the keywords
 *   of its type; `oneOf` → `anyOf` (what the API does with it); `const` → a one-value `enum`; `definitions` →
 *   `$defs` (and `#/definitions/…` references with it); a `$ref` with other keywords beside it → those
 *   keywords with `anyOf: [{$ref}]` (the API allows only `$` keywords next to a `$ref`).
 * - Everything else (`pattern`, `minLength`, `default`, `allOf`, `not`, other formats, …) is taken out and
 *   written into the `description` as `{pattern: "^a"}`, so the model still reads it; the agent validates
 *   tool arguments and typed answers against the original schema.
 *
 * Throws {@link InvalidArgumentError} (naming `argument`) for a `$ref` that is not local or points nowhere, and
 * for a recursive schema whose recursion runs through required properties only: Gemini unrolls recursion a few
 * levels and so accepts it only through optional properties (make the recursive property optional).
 */
export function toGoogleJsonSchema({ schema, argument }: ToGoogleJsonSchemaOptions): JsonSchema {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  const converted = convertNode(schema, 0) as JsonSchema;
  checkRefs(converted, argument);
  const cycle = requiredCycle(converted);
  if (cycle !== undefined) {
    throw new InvalidArgumentError({
      argument,
      message:
        `the schema is recursive through required properties (${cycle.join(" → ")}); Gemini accepts ` +
        "recursion only through optional properties",
    });
  }
  cache.set(schema, converted);
  return converted;
}
