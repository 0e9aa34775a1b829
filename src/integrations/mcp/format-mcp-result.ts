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
      return `[${block.type}: ${text(block.mimeType, "unknown type")}, ${size} bytes]`;
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
 * The text an MCP tool result is sent to the model as:
 * - `structuredContent`, when present (and the result is not an error), as compact JSON — servers repeat it
 *   as text for older clients, so the text blocks are not added;
 * - otherwise the content blocks, one per line: text as is; image and audio as a placeholder such as
 *   `[image: image/png, 1234 bytes]`; embedded resources as their text (JSON ones re-serialised compactly) or
 *   `[resource: <uri>, <mime type>, <n> bytes]` for binary ones; resource links as
 *   `[resource link: <name>, <uri>, <mime type>]`; unknown blocks as `[<type> content]`;
 * - `"(empty)"` when there is nothing to show.
 */
export function formatMcpResult({ result }: { result: McpCallResult }): string {
  if (result.structuredContent !== undefined && result.structuredContent !== null && !result.isError) {
    const json = JSON.stringify(result.structuredContent);
    if (json !== undefined) return json;
  }
  const parts = (result.content ?? []).map(formatBlock).filter((part) => part !== "");
  return parts.length === 0 ? "(empty)" : parts.join("\n");
}
