// The walk is `dereference` of @cfworker/json-schema 4.1 (MIT, Copyright (c) Jeremy Danyow), rewritten so that
// it does not mark the schema: the same URIs, the same subschemas visited, the same errors. A tool checks its
// schema with it at creation, without loading the validator package (which loads on the first validation).

/** The subschemas of a JSON Schema by absolute URI, and the absolute URI each `$ref` points at. */
export interface JsonSchemaUris {
  /** Every subschema (objects and booleans) under each URI that names it: pointer, `$id`, `$anchor`. */
  lookup: Map<string, unknown>;
  /** The absolute URI of each subschema's `$ref`, resolved against the `$id` in scope. */
  refs: Map<Record<string, unknown>, string>;
}

/** The base URI of a schema without `$id` (the validator's own, outside browsers). */
const BASE_URI = "https://github.com/cfworker";

// Looked up like the validator does (plain objects), so that the same keywords are walked.
const SCHEMA_ARRAY_KEYWORD: Record<string, boolean> = {
  prefixItems: true,
  items: true,
  allOf: true,
  anyOf: true,
  oneOf: true,
};
const SCHEMA_MAP_KEYWORD: Record<string, boolean> = {
  $defs: true,
  definitions: true,
  properties: true,
  patternProperties: true,
  dependentSchemas: true,
};
const IGNORED_KEYWORD: Record<string, boolean> = Object.fromEntries(
  [
    "id",
    "$id",
    "$ref",
    "$schema",
    "$anchor",
    "$vocabulary",
    "$comment",
    "default",
    "enum",
    "const",
    "required",
    "dependentRequired",
    "type",
    "maximum",
    "minimum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "multipleOf",
    "maxLength",
    "minLength",
    "pattern",
    "format",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxProperties",
    "minProperties",
  ].map((keyword) => [keyword, true]),
);

const FRAGMENT_CHARACTER = /^[A-Za-z0-9._~!$&'()*+,;=:@/?-]$/;
const PERCENT_ENCODING = /^%[0-9A-Fa-f]{2}$/;
const UNRESERVED_CHARACTER = /^[A-Za-z0-9._~-]$/;

function normalizeFragment(fragment: string): string {
  let normalized = "";
  for (let index = 0; index < fragment.length; ) {
    const character = fragment[index];
    const encoded = fragment.slice(index, index + 3);
    if (character === "%" && PERCENT_ENCODING.test(encoded)) {
      const decoded = String.fromCharCode(Number.parseInt(encoded.slice(1), 16));
      normalized += UNRESERVED_CHARACTER.test(decoded) ? decoded : encoded.toUpperCase();
      index += 3;
      continue;
    }
    const codePoint = String.fromCodePoint(fragment.codePointAt(index) ?? 0);
    normalized += FRAGMENT_CHARACTER.test(codePoint) ? codePoint : encodeURIComponent(codePoint);
    index += codePoint.length;
  }
  return normalized;
}

function resolveUri(reference: unknown, base: URL): URL {
  const url = new URL(String(reference), base.href);
  url.hash = url.hash ? normalizeFragment(url.hash.slice(1)) : "";
  return url;
}

function encodePointer(segment: string): string {
  return encodeURI(segment.replace(/~/g, "~0").replace(/\//g, "~1")).replace(/#/g, "%23");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function visit(schema: unknown, uris: JsonSchemaUris, base: URL, pointer: string): void {
  let baseUri = base;
  if (isObject(schema)) {
    const id = schema.$id || schema.id;
    if (id) {
      const url = resolveUri(id, baseUri);
      if (url.hash.length > 1) {
        uris.lookup.set(url.href, schema);
      } else {
        url.hash = "";
        if (pointer === "") baseUri = url;
        else visit(schema, uris, baseUri, "");
      }
    }
  } else if (schema !== true && schema !== false) {
    return;
  }
  const schemaUri = baseUri.href + (pointer ? `#${pointer}` : "");
  const known = uris.lookup.get(schemaUri);
  if (known !== undefined && known !== schema) throw new Error(`Duplicate schema URI "${schemaUri}".`);
  uris.lookup.set(schemaUri, schema);
  if (!isObject(schema)) return;
  if (schema.$ref && !uris.refs.has(schema)) uris.refs.set(schema, resolveUri(schema.$ref, baseUri).href);
  if (schema.$recursiveRef) resolveUri(schema.$recursiveRef, baseUri);
  if (schema.$anchor) uris.lookup.set(resolveUri(`#${String(schema.$anchor)}`, baseUri).href, schema);
  for (const key in schema) {
    if (IGNORED_KEYWORD[key]) continue;
    const keyPointer = `${pointer}/${encodePointer(key)}`;
    const child = schema[key];
    if (Array.isArray(child)) {
      if (SCHEMA_ARRAY_KEYWORD[key]) {
        child.forEach((item, index) => {
          visit(item, uris, baseUri, `${keyPointer}/${index}`);
        });
      }
    } else if (SCHEMA_MAP_KEYWORD[key]) {
      for (const name in child as Record<string, unknown>) {
        visit(
          (child as Record<string, unknown>)[name],
          uris,
          baseUri,
          `${keyPointer}/${encodePointer(name)}`,
        );
      }
    } else {
      visit(child, uris, baseUri, keyPointer);
    }
  }
}

/**
 * Maps a JSON Schema's subschemas by absolute URI (JSON pointers under the base URI, `$id`, `$anchor`) and
 * resolves each `$ref`, as the validator will; the schema is not modified. Throws when two subschemas claim the
 * same URI or an `$id`/`$ref` is not a valid URI reference.
 */
export function mapJsonSchemaUris(schema: unknown): JsonSchemaUris {
  const uris: JsonSchemaUris = { lookup: new Map(), refs: new Map() };
  visit(schema, uris, new URL(BASE_URI), "");
  return uris;
}
