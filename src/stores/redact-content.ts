import type { ContentPart, MessageContent } from "../models/content-part.js";

/**
 * A message's content with `redactText` applied to its text: the string itself, or each text part (and a file
 * part's name). Image and file data are not text and are kept as they are. Returns a new array for parts.
 */
export function redactContent(content: MessageContent, redactText: (text: string) => string): MessageContent {
  if (typeof content === "string") return redactText(content);
  return content.map((part): ContentPart => {
    if (part.type === "text") return { type: "text", text: redactText(part.text) };
    if (part.type === "file" && part.filename !== undefined)
      return { ...part, filename: redactText(part.filename) };
    return part;
  });
}
