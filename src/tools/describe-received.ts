/** Longest preview of a received value, in characters. */
const MAX_PREVIEW_CHARS = 60;

/**
 * The JSON type of a received value, as an issue's `received` text: `string`, `number`, `boolean`, `null`,
 * `array`, `object`, or `nothing` for a missing value.
 */
export function describeType(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * A short preview of a received value, for issues about its value rather than its type: strings and numbers
 * as JSON (cut at 60 characters), arrays and objects by their type and size.
 */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (typeof value === "object" && value !== null) return "object";
  if (typeof value === "string") {
    const text = JSON.stringify(value);
    return text.length > MAX_PREVIEW_CHARS
      ? `${text.slice(0, MAX_PREVIEW_CHARS)}…" (${value.length} characters)`
      : text;
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return describeType(value);
}
