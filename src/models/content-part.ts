/**
 * Content parts: what a user message or a tool result holds besides plain text. Parts are JSON values (binary
 * data is base64), so messages stay storable, journaled and traced as they are; `normalizeContent` turns what
 * a caller gives (bytes, data URLs) into this shape at the edge.
 */

/** Plain text. */
export interface TextPart {
  type: "text";
  text: string;
}

/**
 * An image, by URL (`https:`) or inline (`data`: base64 without a `data:` prefix, with `mediaType`). Exactly
 * one of `url` and `data` is set.
 */
export interface ImagePart {
  type: "image";
  /** An `https:` (or `http:`) URL the provider fetches itself. */
  url?: string;
  /** The image bytes, base64-encoded. */
  data?: string;
  /** `image/png`, `image/jpeg`, `image/gif`, `image/webp`. Required with `data`. */
  mediaType?: string;
  /** OpenAI's detail level (other providers ignore it). */
  detail?: "auto" | "low" | "high";
}

/**
 * A file (a PDF or another document), by URL or inline (`data`: base64). Exactly one of `url` and `data` is
 * set; `mediaType` is always set.
 */
export interface FilePart {
  type: "file";
  url?: string;
  /** The file bytes, base64-encoded. */
  data?: string;
  /** `application/pdf`, `text/plain`, ... */
  mediaType: string;
  /** The file's name, when known (some providers show it to the model). */
  filename?: string;
}

/** One part of a message's content. */
export type ContentPart = TextPart | ImagePart | FilePart;

/** A message's content: plain text, or parts in order. */
export type MessageContent = string | ContentPart[];

/** The text of a message's content: the string itself, or its text parts joined by newlines. */
export function contentText(content: MessageContent): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const part of content) {
    if (part.type !== "text") continue;
    text = text === "" ? part.text : `${text}\n${part.text}`;
  }
  return text;
}

/** True when the content holds an image or a file part. */
export function hasMediaParts(content: MessageContent): content is ContentPart[] {
  return typeof content !== "string" && content.some((part) => part.type !== "text");
}

/** The `data:` URL of an inline part (`data:<mediaType>;base64,<data>`), or its `url`. */
export function partUrl(part: ImagePart | FilePart): string {
  if (part.url !== undefined) return part.url;
  return `data:${part.mediaType ?? "application/octet-stream"};base64,${part.data ?? ""}`;
}

/** True for content with nothing in it: blank text or no parts. */
export function isEmptyInput(content: MessageContent): boolean {
  return typeof content === "string" ? content.trim() === "" : content.length === 0;
}
