/** The longest encoded name accepted, leaving room for suffixes within common 255-byte file name limits. */
export const MAX_ENCODED_FILE_NAME_LENGTH = 200;

const HEX = "0123456789abcdef";

/**
 * Encodes a session id or key as a file name that cannot leave its directory: only `a-z`, `0-9`, `-` and `_`
 * stay as they are; every other UTF-8 byte (upper case letters, `.`, `/`, `\`, NUL, ...) becomes `%xx` with
 * lower-case hex. The result has no path separators, never starts with a dot, and two ids never collide even on
 * case-insensitive file systems (macOS, Windows). Returns `undefined` when the encoding is longer than
 * {@link MAX_ENCODED_FILE_NAME_LENGTH} characters (the caller rejects the id), and for ids with unpaired UTF-16 surrogates (not encodable).
 */
export function encodeFileName(id: string): string | undefined {
  // A lone surrogate would be encoded as U+FFFD and collide with it: such ids are rejected.
  if (/\p{Surrogate}/u.test(id)) return undefined;
  let out = "";
  for (const byte of Buffer.from(id, "utf8")) {
    const keep =
      (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x5f;
    out += keep ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
    if (out.length > MAX_ENCODED_FILE_NAME_LENGTH) return undefined;
  }
  return out === "" ? "%" : out;
}

/**
 * Decodes a name made by {@link encodeFileName}, or returns `undefined` for a name it cannot have made (other
 * files in the directory).
 */
export function decodeFileName(name: string): string | undefined {
  if (name === "%") return "";
  if (!/^(?:[a-z0-9_-]|%[0-9a-f]{2})+$/.test(name)) return undefined;
  try {
    const id = decodeURIComponent(name);
    return encodeFileName(id) === name ? id : undefined;
  } catch {
    return undefined;
  }
}
