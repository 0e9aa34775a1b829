import type { ContentPart, FilePart, ImagePart, MessageContent } from "../../models/content-part.js";

/** One content block of an MCP tool result (text, image, audio, resource, resource_link, …). */
export type McpContentBlock = { type: string; [key: string]: unknown };

/** The parts of an MCP `tools/call` result that {@link formatMcpResult} reads. */
export interface McpCallResult {
  content?: readonly McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** A raw `tools/call` result as {@link McpCallResult}; the pre-2024-11 form `{ toolResult }` becomes one JSON text block. */
export function toMcpCallResult(raw: { [key: string]: unknown }): McpCallResult {
  if (Array.isArray(raw.content)) return raw as McpCallResult;
  const text = JSON.stringify(raw.toolResult) ?? "";
  return { content: [{ type: "text", text }], isError: raw.isError === true };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}

/** The decoded size of base64 `data`, in bytes. */
export function base64ByteLength(data: string): number {
  const clean = data.replace(/\s+/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function isJsonMimeType(mimeType: unknown): boolean {
  return typeof mimeType === "string" && /^application\/(.+\+)?json\b/i.test(mimeType.trim());
}

/** JSON text re-serialised compactly; other text as it is. */
function compactJson(value: string): string {
  try {
    return JSON.stringify(JSON.parse(value));
  } catch {
    return value;
  }
}

function formatResource(resource: unknown): string {
  if (!isRecord(resource)) return "[resource]";
  if (typeof resource.text === "string") {
    return isJsonMimeType(resource.mimeType) ? compactJson(resource.text) : resource.text;
  }
  const uri = text(resource.uri, "unknown uri");
  const mimeType = text(resource.mimeType, "unknown type");
  const size = typeof resource.blob === "string" ? `, ${base64ByteLength(resource.blob)} bytes` : "";
  return `[resource: ${uri}, ${mimeType}${size}]`;
}

function formatBlock(block: McpContentBlock): string {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio": {
      const size = typeof block.data === "string" ? base64ByteLength(block.data) : 0;
      const note = `[${block.type}: ${text(block.mimeType, "unknown type")}, ${size} bytes`;
      return block.type === "audio" ? `${note}; not sent: models take no audio in tool results]` : `${note}]`;
    }
    case "resource":
      return formatResource(block.resource);
    case "resource_link": {
      const uri = text(block.uri, "unknown uri");
      const mimeType = typeof block.mimeType === "string" ? `, ${block.mimeType}` : "";
      return `[resource link: ${text(block.name, uri)}, ${uri}${mimeType}]`;
    }
    default:
      return `[${text(block.type, "unknown")} content]`;
  }
}

/**
 * The text of an MCP tool result (what `McpRegistry.call` resolves with, and an `isError` result's message):
 * - `structuredContent`, when present (and the result is not an error), as compact JSON — servers repeat it
 *   as text for older clients, so the text blocks are not added;
 * - otherwise the content blocks, one per line: text as is; image and audio as a placeholder such as
 *   `[image: image/png, 1234 bytes]` (audio adds that it is not sent); embedded resources as their text (JSON ones re-serialised compactly) or
 *   `[resource: <uri>, <mime type>, <n> bytes]` for binary ones; resource links as
 *   `[resource link: <name>, <uri>, <mime type>]`; unknown blocks as `[<type> content]`;
 * - `"(empty)"` when there is nothing to show.
 */
export function formatMcpResult({ result }: { result: McpCallResult }): string {
  const structured = structuredText(result);
  if (structured !== undefined) return structured;
  const parts = (result.content ?? []).map(formatBlock).filter((part) => part !== "");
  return parts.length === 0 ? "(empty)" : parts.join("\n");
}

/** `structuredContent` as compact JSON, when the result has it and is not an error. */
function structuredText(result: McpCallResult): string | undefined {
  if (result.structuredContent === undefined || result.structuredContent === null || result.isError) {
    return undefined;
  }
  return JSON.stringify(result.structuredContent);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Base64 data without the line breaks some servers put in, or undefined when it is not base64. */
function base64Of(data: unknown): string | undefined {
  if (typeof data !== "string") return undefined;
  const clean = data.replace(/\s+/g, "");
  return clean !== "" && BASE64.test(clean) ? clean : undefined;
}

/** The last segment of a resource URI, as a file name (undefined when there is none). */
function fileNameOf(uri: unknown): string | undefined {
  if (typeof uri !== "string") return undefined;
  const name = uri.split(/[/\\]/).pop()?.split(/[?#]/)[0];
  return name === undefined || name === "" || name.includes(":") ? undefined : name;
}

/**
 * The image or file part of a block: an image (`data` + `mimeType`), or an embedded resource's `blob` (an
 * image for `image/*` types, else a file). Undefined for other blocks and for data that is not base64 (the
 * block is then described as text).
 */
function mediaPart(block: McpContentBlock): ImagePart | FilePart | undefined {
  if (block.type === "image") {
    const data = base64Of(block.data);
    const mediaType = typeof block.mimeType === "string" ? block.mimeType : undefined;
    return data === undefined || mediaType === undefined ? undefined : { type: "image", data, mediaType };
  }
  if (block.type !== "resource" || !isRecord(block.resource)) return undefined;
  const { blob, mimeType, uri } = block.resource;
  const data = base64Of(blob);
  if (data === undefined) return undefined;
  const mediaType = typeof mimeType === "string" && mimeType !== "" ? mimeType : "application/octet-stream";
  if (/^image\//i.test(mediaType)) return { type: "image", data, mediaType };
  const file: FilePart = { type: "file", data, mediaType };
  const filename = fileNameOf(uri);
  if (filename !== undefined) file.filename = filename;
  return file;
}

/**
 * What an MCP tool result is sent to the model as: the text of {@link formatMcpResult} when it holds no image
 * or binary resource; otherwise content parts in order: images as image parts (base64 + media type),
 * embedded resources with a `blob` as image parts (`image/*`) or file parts (named after the URI's last
 * segment), every other block as text as {@link formatMcpResult} writes it (with `structuredContent`: its
 * JSON first, then the media parts). Audio stays a text note: no provider takes audio in tool results yet.
 */
export function mcpResultContent({ result }: { result: McpCallResult }): MessageContent {
  const blocks = result.content ?? [];
  const media = blocks.map(mediaPart);
  if (media.every((part) => part === undefined)) return formatMcpResult({ result });
  const structured = structuredText(result);
  const parts: ContentPart[] = structured === undefined ? [] : [{ type: "text", text: structured }];
  blocks.forEach((block, index) => {
    const part = media[index];
    if (part !== undefined) {
      parts.push(part);
      return;
    }
    const text = structured === undefined ? formatBlock(block) : "";
    if (text !== "") parts.push({ type: "text", text });
  });
  return parts;
}
