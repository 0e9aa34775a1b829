/**
 * JSON text that {@link canonicalJson} inserts as is. Lets a caller serialise a large part once (e.g. a
 * message it has seen before) and splice it into a bigger value.
 */
export class RawJson {
  /** @param json Canonical JSON text of the value it stands for. */
  constructor(readonly json: string) {}
}

/**
 * Canonical JSON: object keys sorted, `undefined` object values left out, as `JSON.stringify` would (values
 * it cannot represent become `null`). Two JSON-equal values give the same text, whatever their key order.
 * `toJSON` methods are honoured; {@link RawJson} values are inserted as is.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === "object" && value !== null) return objectJson(value);
  return JSON.stringify(value) ?? "null";
}

/** What `JSON.stringify` escapes in a string: `"`, `\\`, control characters, UTF-16 surrogates (lone ones). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON escapes exactly these characters
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(text)`, without its call for the common string that needs no escape. */
function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** An object member's or array element's text: `undefined` for what an object leaves out. */
function memberJson(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return quote(value);
    case "number":
      return Number.isFinite(value) ? `${value}` : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      return value === null ? "null" : objectJson(value);
    default:
      // undefined, functions and symbols: left out of objects (`null` in arrays); a bigint throws as in JSON.
      return typeof value === "bigint" ? JSON.stringify(value) : undefined;
  }
}

/** The object's own enumerable keys, sorted (in code unit order, as `Array.prototype.sort` does). */
function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length > 16) return keys.sort();
  // Most objects are small, many sorted already: an insertion sort (no work when sorted) beats the built-in.
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    if ((keys[j] as string) <= key) continue;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

function objectJson(value: object): string {
  if (value instanceof RawJson) return value.json;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    let out = `[${memberJson(value[0]) ?? "null"}`;
    for (let i = 1; i < value.length; i++) out += `,${memberJson(value[i]) ?? "null"}`;
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(record);
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = memberJson(record[key]);
    if (item === undefined) continue;
    out += `${out.length > 1 ? "," : ""}${quote(key)}:${item}`;
  }
  return `${out}}`;
}

/** What {@link canonicalJsonCopy} returns. */
export interface CanonicalJsonCopy {
  /** `canonicalJson(value)`. */
  json: string;
  /** `JSON.parse(json)`, made while serialising (strings are shared, not parsed again). */
  copy: unknown;
}

/**
 * {@link canonicalJson} of `value` and a plain copy of it equal to `JSON.parse` of that text, in one walk: what
 * keeping a JSON copy of a live value costs without a second pass over its text.
 */
export function canonicalJsonCopy(value: unknown): CanonicalJsonCopy {
  const out = { copy: undefined as unknown };
  const json = memberCopy(value, out) ?? "null";
  return { json, copy: out.copy === undefined ? null : out.copy };
}

/** A holder for the copy of the value being serialised (avoids a result object per node). */
interface CopySlot {
  copy: unknown;
}

/** Like {@link memberJson}, also setting `slot.copy` (left `undefined` for what an object leaves out). */
function memberCopy(value: unknown, slot: CopySlot): string | undefined {
  switch (typeof value) {
    case "string":
      slot.copy = value;
      return quote(value);
    case "number":
      if (!Number.isFinite(value)) {
        slot.copy = null;
        return "null";
      }
      slot.copy = value === 0 ? 0 : value; // -0 is written (and parsed back) as 0
      return `${value}`;
    case "boolean":
      slot.copy = value;
      return value ? "true" : "false";
    case "object":
      if (value === null) {
        slot.copy = null;
        return "null";
      }
      return objectCopy(value, slot);
    default:
      slot.copy = undefined;
      return typeof value === "bigint" ? JSON.stringify(value) : undefined;
  }
}

function objectCopy(value: object, slot: CopySlot): string {
  if (value instanceof RawJson) {
    slot.copy = JSON.parse(value.json) as unknown;
    return value.json;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    const json = memberCopy((value as { toJSON: () => unknown }).toJSON(), slot) ?? "null";
    slot.copy ??= null;
    return json;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const item = memberCopy(value[i], slot);
      copy[i] = item === undefined ? null : slot.copy;
      out += `${i > 0 ? "," : ""}${item ?? "null"}`;
    }
    slot.copy = copy;
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(record);
  const copy: Record<string, unknown> = {};
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = memberCopy(record[key], slot);
    if (item === undefined) continue;
    if (key === "__proto__") {
      Object.defineProperty(copy, key, {
        value: slot.copy,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      copy[key] = slot.copy;
    }
    out += `${out.length > 1 ? "," : ""}${quote(key)}:${item}`;
  }
  slot.copy = copy;
  return `${out}}`;
}
