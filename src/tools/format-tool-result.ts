/** The content sent to the model for a tool that returned nothing (`undefined` or `null`). */
export const EMPTY_RESULT = "(empty)";

/**
 * Turns a tool's return value into the text sent to the model: strings as is, `undefined`/`null` (and values
 * JSON cannot represent, such as functions) as `"(empty)"`, anything else as JSON. Throws what
 * `JSON.stringify` throws (a cycle, a BigInt); the executor reports that as a failed call.
 */
export function formatToolResult(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return EMPTY_RESULT;
  return JSON.stringify(value) ?? EMPTY_RESULT;
}

/**
 * Cuts `content` to `maxChars` characters and appends `…[truncated N characters]`, N being how many were cut.
 * Never splits a surrogate pair. Content within the limit is returned unchanged.
 */
export function truncateToolResult({ content, maxChars }: { content: string; maxChars: number }): string {
  if (content.length <= maxChars) return content;
  let end = maxChars;
  const last = content.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${content.slice(0, end)}…[truncated ${content.length - end} characters]`;
}
