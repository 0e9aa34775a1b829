import type { ContentPart } from "../models/content-part.js";
import type { ToolMessage } from "../models/message.js";

const TRUNCATION_PATTERN = /\n\[… (\d+) more characters truncated to fit the context window\]$/;

/** Options of {@link truncateToolResult}. */
export interface TruncateToolResultOptions {
  message: ToolMessage;
  /** Characters of the original content to keep. */
  maxChars: number;
}

/**
 * Shortens a tool result's content to its first `maxChars` characters followed by
 * `\n[… N more characters truncated to fit the context window]`, as a new message object. Returns the same
 * object when nothing needs cutting — including a result an earlier compaction already truncated to at most
 * `maxChars` (its marker is recognised, and a second cut adds to its count instead of stacking markers).
 * Never splits a surrogate pair. A result with image or file parts becomes text: its text parts, each media
 * part replaced by a note saying what was omitted, truncated the same way.
 */
export function truncateToolResult({ message, maxChars }: TruncateToolResultOptions): ToolMessage {
  const content = typeof message.content === "string" ? message.content : partsAsText(message.content);
  if (content !== message.content && content.length <= maxChars) return { ...message, content };
  const previous = TRUNCATION_PATTERN.exec(content);
  const body = previous === null ? content : content.slice(0, previous.index);
  if (body.length <= maxChars) return message;
  let cut = Math.max(0, maxChars);
  const last = body.charCodeAt(cut - 1);
  if (cut > 0 && last >= 0xd800 && last <= 0xdbff) cut--;
  const omitted = body.length - cut + (previous === null ? 0 : Number(previous[1]));
  return {
    ...message,
    content: `${body.slice(0, cut)}\n[… ${omitted} more characters truncated to fit the context window]`,
  };
}

/** Content parts as text: text parts as they are, each image or file as a note of what it was. */
function partsAsText(parts: readonly ContentPart[]): string {
  return parts
    .map((part) =>
      part.type === "text"
        ? part.text
        : `[${part.type === "image" ? "image" : `file ${part.filename ?? part.mediaType}`} omitted to fit the context window]`,
    )
    .join("\n");
}
