/**
 * The subset of the Anthropic Messages wire format this provider reads and writes. Response types are loose
 * (fields optional, `null` allowed) because new fields appear without notice (`caller`, `stop_details`,
 * `inference_geo`, …); unknown fields are ignored, and unknown content blocks are kept as they are.
 */

import type { JsonSchema } from "../../models/model.js";

/** A content block as the API sends and accepts it. Blocks are kept as objects so unknown fields survive. */
export type AnthropicWireBlock = { type: string; [key: string]: unknown };

/** A `text` block. */
export interface AnthropicWireTextBlock {
  type: "text";
  text: string;
}

/** A `tool_use` block (a tool call of the model). */
export interface AnthropicWireToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A `tool_result` block (sent in a user message): text, or `text` / `image` / `document` blocks. */
export interface AnthropicWireToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string | AnthropicWireBlock[];
  is_error?: boolean;
}

/** An `image` block: inline (`base64`, PNG/JPEG/GIF/WebP) or by `url`. */
export interface AnthropicWireImageBlock {
  type: "image";
  source: { type: "base64"; media_type: string; data: string } | { type: "url"; url: string };
}

/**
 * A `document` block: a PDF inline (`base64`) or by `url`, or plain text (`{type:"text", media_type:
 * "text/plain", data}` with the text itself). `title` is shown to the model.
 */
export interface AnthropicWireDocumentBlock {
  type: "document";
  source:
    | { type: "base64"; media_type: "application/pdf"; data: string }
    | { type: "url"; url: string }
    | { type: "text"; media_type: "text/plain"; data: string };
  title?: string;
}

/** A message as the API expects it: strictly alternating `user` / `assistant` roles. */
export interface AnthropicWireMessage {
  role: "user" | "assistant";
  content: string | AnthropicWireBlock[];
}

/** A tool definition. */
export interface AnthropicWireTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** The `tool_choice` request field. */
export type AnthropicWireToolChoice =
  | { type: "auto" | "any"; disable_parallel_tool_use?: boolean }
  | { type: "tool"; name: string; disable_parallel_tool_use?: boolean }
  | { type: "none" };

/** The `usage` object of a message, of `message_start` or of `message_delta`. */
export interface AnthropicWireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** A complete (non-streamed) message, as returned by `POST /v1/messages`. */
export interface AnthropicWireResponse {
  type?: string;
  id?: string;
  model?: string;
  content?: AnthropicWireBlock[] | null;
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: AnthropicWireUsage | null;
  /** Present when `type` is "error". */
  error?: { type?: string | null; message?: string | null } | null;
}

/** The error envelope: `{"type":"error","error":{"type","message"},"request_id"}`. */
export interface AnthropicWireErrorEnvelope {
  type?: string;
  error?: { type?: string | null; message?: string | null } | string | null;
  message?: string | null;
  request_id?: string | null;
}

/** The `delta` of a `content_block_delta` event. */
export interface AnthropicWireBlockDelta {
  type?: string;
  text?: string;
  partial_json?: string;
  thinking?: string;
  signature?: string;
  citation?: unknown;
}

/** One streamed event payload (the `data:` JSON). Which fields are set depends on `type`. */
export interface AnthropicWireStreamEvent {
  type?: string;
  index?: number;
  /** `message_start`. */
  message?: AnthropicWireResponse | null;
  /** `content_block_start`. */
  content_block?: AnthropicWireBlock | null;
  /** `content_block_delta` (a block delta) or `message_delta` (stop reason and sequence). */
  delta?: (AnthropicWireBlockDelta & { stop_reason?: string | null; stop_sequence?: string | null }) | null;
  /** `message_delta`. */
  usage?: AnthropicWireUsage | null;
  /** `error`. */
  error?: { type?: string | null; message?: string | null } | null;
}
