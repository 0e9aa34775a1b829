import { escapeTerminalText } from "./escape-terminal-text.js";

/** Formats a duration: `412 ms`, `1.4 s`, `2 min 05 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "? ms";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/** Formats a USD amount with the precision small model costs need: `$0`, `$0.000021`, `$0.0123`, `$1.50`. */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd)) return "$?";
  if (usd === 0) return "$0";
  const digits = usd >= 1 ? 2 : usd >= 0.01 ? 4 : 6;
  const fixed = usd.toFixed(digits);
  const trimmed = digits === 2 ? fixed : fixed.replace(/0+$/, "").replace(/\.$/, "");
  return `$${trimmed === "0" ? usd.toExponential(1) : trimmed}`;
}

/** Formats a count with thousands separators: `12,345`. */
export function formatCount(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "?";
}

/** Options of {@link truncateText}. */
export interface TruncateTextOptions {
  text: string;
  /** At most this many characters are kept (the marker comes on top). */
  maxChars: number;
}

/**
 * One line of at most `maxChars` characters: line breaks (and the blanks around them) become ` ⏎ `, a
 * longer text is cut with `… (+N chars)`, and terminal control characters become visible escapes
 * ({@link escapeTerminalText}), so the line is safe to print whatever it came from.
 */
export function truncateText({ text, maxChars }: TruncateTextOptions): string {
  const line = escapeTerminalText(text.replace(/\s*\r?\n\s*/g, " ⏎ "));
  if (line.length <= maxChars) return line;
  const kept = line.slice(0, Math.max(0, maxChars));
  return `${kept}… (+${line.length - kept.length} chars)`;
}

/** Compact JSON of tool arguments (or the raw text when it is a string, e.g. unparsable arguments). */
export function formatArgs(args: unknown): string {
  if (args === undefined) return "";
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args) ?? String(args);
  } catch {
    return String(args);
  }
}

/** Argument names that say where a tool call acts: shown first so that a long value cannot push them out of view. */
export const WHERE_ARGUMENT = /path|file|dir|url|uri|host|command|cmd|target|dest/i;

/**
 * Tool arguments reordered for display: the fields that say where the call acts (`path`, `url`, `command`,
 * ...) first, then the others by the length of their JSON, shortest first (stable). Anything but a plain object
 * is returned as it is. For one-line renderings that are cut: a model cannot hide the path behind a long field.
 */
export function orderCallArgs(args: unknown): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const entries = Object.entries(args).map(([name, value], index) => ({
    name,
    value,
    index,
    rank: WHERE_ARGUMENT.test(name) ? -1 : formatArgs(value).length,
  }));
  entries.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return Object.fromEntries(entries.map(({ name, value }) => [name, value]));
}
