import type { ContentPart } from "../models/content-part.js";
import { type ContentPartInput, normalizeContent } from "../models/normalize-content.js";

/** The type-level brand of {@link ToolContent} (no value: the runtime mark is {@link MARK}). */
declare const toolContentBrand: unique symbol;

/** The runtime mark of a {@link ToolContent} (`Symbol.for`, so two copies of agentloop agree). */
const MARK = Symbol.for("agentloop.toolContent");

/**
 * A tool result made of content parts (text, images, files), made by {@link toolContent}. The tool executor
 * sends the parts to the model as the tool message's content; nothing else a tool returns is read as parts
 * (an array is a JSON result).
 */
export interface ToolContent {
  readonly [toolContentBrand]: true;
  /** The parts in order, normalised: inline data as base64 with its media type. */
  readonly parts: readonly ContentPart[];
}

/**
 * Marks what a tool returns as content parts rather than a value to send as JSON: text, images (screenshots,
 * charts) and files, in order. Inline data may be bytes (`Uint8Array`, `ArrayBuffer`), base64 or a `data:`
 * URL; it is stored as base64. Throws `InvalidArgumentError` (so the call fails with that message) for an
 * invalid part, inline data over 20 MiB (`MAX_INLINE_PART_BYTES`), or more than 100 parts. Text parts count
 * towards the tool's `maxResultChars`; images and files do not.
 *
 * @example
 * const screenshot = tool({
 *   name: "screenshot",
 *   description: "Takes a screenshot of the page",
 *   parameters: z.object({ url: z.string() }),
 *   execute: async ({ url }) =>
 *     toolContent([
 *       { type: "text", text: `Screenshot of ${url}` },
 *       { type: "image", data: await capture(url), mediaType: "image/png" },
 *     ]),
 * });
 */
export function toolContent(parts: readonly ContentPartInput[]): ToolContent {
  const normalized = normalizeContent({ content: parts, argument: "tool result" }) as ContentPart[];
  const value = { parts: Object.freeze(normalized) };
  Object.defineProperty(value, MARK, { value: true });
  return Object.freeze(value) as unknown as ToolContent;
}

/** True for a value made by {@link toolContent}. */
export function isToolContent(value: unknown): value is ToolContent {
  return typeof value === "object" && value !== null && (value as { [MARK]?: unknown })[MARK] === true;
}
