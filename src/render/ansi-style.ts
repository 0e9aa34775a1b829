/** Text styling for terminal output: each function wraps text in an ANSI SGR code, or returns it unchanged. */
export interface AnsiStyle {
  /** Whether the functions add escape codes. */
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
}

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;

/** Options of {@link createAnsiStyle}. */
export interface AnsiStyleOptions {
  /** Add escape codes. When false every function returns its input. */
  enabled: boolean;
}

/** Makes an {@link AnsiStyle}. The few codes it needs are written by hand (no dependency). */
export function createAnsiStyle({ enabled }: AnsiStyleOptions): AnsiStyle {
  const wrap =
    ([open, close]: readonly [number, number]) =>
    (text: string): string =>
      enabled && text !== "" ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: wrap(CODES.bold),
    dim: wrap(CODES.dim),
    red: wrap(CODES.red),
    green: wrap(CODES.green),
    yellow: wrap(CODES.yellow),
    blue: wrap(CODES.blue),
    magenta: wrap(CODES.magenta),
    cyan: wrap(CODES.cyan),
  };
}

/** Options of {@link shouldUseColor}. */
export interface ShouldUseColorOptions {
  /** The output stream (only `isTTY` is read). */
  stream: { isTTY?: boolean };
  /** The environment. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * Whether to colour output written to `stream`: never when `NO_COLOR` is set to a non-empty value
 * (https://no-color.org), always when `FORCE_COLOR` is set to anything but `"0"` or `"false"`, otherwise when
 * the stream is a terminal and `TERM` is not `"dumb"`.
 */
export function shouldUseColor({ stream, env = process.env }: ShouldUseColorOptions): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** Removes ANSI escape codes from `text` (e.g. to measure or compare it). */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
}
