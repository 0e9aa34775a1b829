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
  if (value instanceof RawJson) return value.json;
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += `${i > 0 ? "," : ""}${canonicalJson(value[i])}`;
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = "{";
  for (const key of keys) {
    const item = record[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    out += `${out.length > 1 ? "," : ""}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}
