/**
 * Mistral's reasoning models (Magistral, and Mistral Small with `reasoning_effort`) send `content` — of a
 * message, or of a stream delta — as an array of chunks instead of a string:
 * `[{ "type": "thinking", "thinking": [{ "type": "text", "text": "…" }] }, { "type": "text", "text": "…" }]`
 * (docs.mistral.ai reasoning; the same shape was reported by braintrustdata/braintrust-sdk-javascript#1857,
 * spring-projects/spring-ai#5020, prism-php/prism#862). Read as a string, the answer would be lost.
 */

/** The text and the reasoning of a `content` chunk array. */
export interface ContentChunksText {
  /** The `text` chunks, joined. */
  text: string;
  /** The text inside the `thinking` chunks, joined. */
  thinking: string;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The text of a `thinking` chunk: its `thinking` string, or the `text` of the text items of its array. */
function thinkingText(thinking: unknown): string {
  if (typeof thinking === "string") return thinking;
  if (!Array.isArray(thinking)) return "";
  let text = "";
  for (const item of thinking) {
    if (isObject(item) && item.type === "text" && typeof item.text === "string") text += item.text;
  }
  return text;
}

/**
 * Reads a `content` chunk array: `text` chunks are the answer, `thinking` chunks the reasoning; other chunks
 * (`image_url`, `reference`) carry no text and are skipped.
 */
export function readContentChunks(chunks: readonly unknown[]): ContentChunksText {
  let text = "";
  let thinking = "";
  for (const chunk of chunks) {
    if (!isObject(chunk)) continue;
    if (chunk.type === "text" && typeof chunk.text === "string") text += chunk.text;
    else if (chunk.type === "thinking") thinking += thinkingText(chunk.thinking);
  }
  return { text, thinking };
}
