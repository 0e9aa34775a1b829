/**
 * The key of the wrapper used for values `jsonb` cannot hold. PostgreSQL's `jsonb` rejects the NUL character
 * (`\u0000`) and unpaired UTF-16 surrogates, which tool output can contain; such a value is stored as
 * `{ "$agentloop:base64": "<base64 of its JSON>" }` instead, so it round-trips exactly. Values that are objects
 * with this key are wrapped too, so decoding is never ambiguous.
 */
export const JSONB_WRAPPER_KEY = "$agentloop:base64";

/** `\u0000` or an escaped lone surrogate in JSON text (JSON.stringify escapes lone surrogates as `\udxxx`). */
const UNSAFE = /\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON text of `value` that PostgreSQL accepts as `jsonb` (see {@link JSONB_WRAPPER_KEY}). */
export function encodeJsonb(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError("the value cannot be serialised as JSON");
  if (!UNSAFE.test(text) && !(isObject(value) && JSONB_WRAPPER_KEY in value)) return text;
  return JSON.stringify({ [JSONB_WRAPPER_KEY]: Buffer.from(text, "utf8").toString("base64") });
}

/** The value that {@link encodeJsonb} encoded, from the parsed `jsonb` column. */
export function decodeJsonb(value: unknown): unknown {
  if (isObject(value)) {
    const data = value[JSONB_WRAPPER_KEY];
    if (typeof data === "string" && Object.keys(value).length === 1) {
      return JSON.parse(Buffer.from(data, "base64").toString("utf8"));
    }
  }
  return value;
}
