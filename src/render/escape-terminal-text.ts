/**
 * Characters a terminal acts on instead of showing: C0 controls except tab and line feed (ESC starts every
 * escape sequence — OSC 52 clipboard writes, title changes, cursor movement; BEL ends OSC; BS and a lone CR
 * overwrite what was printed), DEL, C1 controls (U+0080–U+009F: `\x9b` is a one-character CSI, `\x9d` an
 * OSC), and the Unicode bidirectional overrides and isolates, which reorder what is shown ("Trojan Source").
 */
const CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: { readonly [char: string]: string } = { "\r": "\\r", "\b": "\\b", "\u001b": "\\e" };

function escapeOne(char: string): string {
  if (char === "\r\n") return "\n";
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Makes untrusted text (model output, tool results, arguments, error messages) safe to print to a terminal:
 * every control character it could use to act on the terminal is replaced by a visible escape (`\e`, `\r`,
 * `\b`, `\x07`, `\x9b`, `\u202e`), so `\x1b]52;c;...\x07` prints as `\e]52;c;...\x07` and does nothing. Line
 * feeds and tabs are kept; `\r\n` becomes `\n`. Returns `text` itself when there is nothing to escape. One
 * pass, linear in the length.
 */
export function escapeTerminalText(text: string): string {
  CONTROLS.lastIndex = 0;
  if (!CONTROLS.test(text)) return text;
  CONTROLS.lastIndex = 0;
  return text.replace(CONTROLS, escapeOne);
}

/**
 * A copy of `value` with {@link escapeTerminalText} applied to every string in it (object keys included);
 * values without any control character are returned as they are (no copy). For events about to be rendered
 * for a terminal.
 */
export function escapeTerminalValue<T>(value: T): T {
  return escapeDeep(value, 0) as T;
}

/** Deeper than this, values are rendered as they are: events are shallow, this only bounds a hostile one. */
const MAX_DEPTH = 64;

function escapeDeep(value: unknown, depth: number): unknown {
  if (typeof value === "string") return escapeTerminalText(value);
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const escaped = escapeDeep(item, depth + 1);
      if (escaped !== item) {
        copy ??= [...value];
        copy[index] = escaped;
      }
    });
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const safeKey = escapeTerminalText(key);
    const escaped = escapeDeep(item, depth + 1);
    if (escaped !== item || safeKey !== key) {
      copy ??= { ...(value as Record<string, unknown>) };
      if (safeKey !== key) delete copy[key];
      copy[safeKey] = escaped;
    }
  }
  return copy ?? value;
}

/** JSON text with the characters `JSON.stringify` leaves raw but terminals act on (C1, bidi) escaped as `\uXXXX`. */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
