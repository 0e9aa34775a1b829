import type { ContentPart, MessageContent } from "../models/content-part.js";
import { isToolContent } from "./tool-content.js";

/** The content sent to the model for a tool that returned nothing (`undefined` or `null`). */
export const EMPTY_RESULT = "(empty)";

/**
 * Turns a tool's return value into the content sent to the model: strings as is, content parts made with
 * `toolContent` as their parts (no parts: `"(empty)"`), `undefined`/`null` (and values JSON cannot
 * represent, such as functions) as `"(empty)"`, anything else as JSON. Throws what `JSON.stringify` throws (a
 * cycle, a BigInt); the executor reports that as a failed call.
 */
export function formatToolResult(value: unknown): MessageContent {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return EMPTY_RESULT;
  if (isToolContent(value)) return value.parts.length === 0 ? EMPTY_RESULT : [...value.parts];
  return JSON.stringify(value) ?? EMPTY_RESULT;
}

/** Options of {@link truncateToolResult}. */
export interface TruncateToolResultOptions<C extends MessageContent = MessageContent> {
  content: C;
  maxChars: number;
}

/**
 * Cuts `content` to `maxChars` characters and appends `…[truncated N characters]`, N being how many were cut.
 * Never splits a surrogate pair. Content within the limit is returned unchanged. For content parts the limit
 * applies to the text parts together: the text part that crosses it is cut (N counts every character cut,
 * later text parts included), later text parts are left out; images and files are kept, in order.
 */
export function truncateToolResult(options: TruncateToolResultOptions<string>): string;
export function truncateToolResult(options: TruncateToolResultOptions): MessageContent;
export function truncateToolResult({ content, maxChars }: TruncateToolResultOptions): MessageContent {
  if (typeof content === "string") return truncateText(content, maxChars);
  let total = 0;
  for (const part of content) if (part.type === "text") total += part.text.length;
  if (total <= maxChars) return content;
  const parts: ContentPart[] = [];
  let left = maxChars;
  let cutDone = false;
  for (const part of content) {
    if (part.type !== "text") {
      parts.push(part);
    } else if (!cutDone && part.text.length <= left) {
      parts.push(part);
      left -= part.text.length;
    } else if (!cutDone) {
      cutDone = true;
      // Everything not kept, from here on, is counted in this part's marker.
      const kept = keptLength(part.text, left);
      parts.push({
        type: "text",
        text: `${part.text.slice(0, kept)}…[truncated ${total - (maxChars - left) - kept} characters]`,
      });
    }
  }
  return parts;
}

/** How many characters of `text` fit in `maxChars` without splitting a surrogate pair. */
function keptLength(text: string, maxChars: number): number {
  if (text.length <= maxChars) return text.length;
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return end;
}

function truncateText(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const end = keptLength(content, maxChars);
  return `${content.slice(0, end)}…[truncated ${content.length - end} characters]`;
}
