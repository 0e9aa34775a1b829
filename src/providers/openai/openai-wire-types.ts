/**
 * The subset of the OpenAI Chat Completions wire format this provider reads and writes. Response types are
 * deliberately loose (every field optional, `null` allowed): OpenAI-compatible servers omit or null fields
 * that OpenAI itself always sends, and unknown fields (`obfuscation`, `service_tier`, …) are simply ignored.
 */

import type { JsonSchema } from "../../models/model.js";

/** A tool call inside an assistant message sent to the API. */
export interface OpenAIWireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A chat message as the API expects it. */
export type OpenAIWireMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: OpenAIWireToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

/** A function tool definition. */
export interface OpenAIWireTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

/** The `tool_choice` request field. */
export type OpenAIWireToolChoice =
  | "auto"
  | "none"
  | "required"
  | { type: "function"; function: { name: string } };

/** The `usage` object of a completion or of the final stream chunk. */
export interface OpenAIWireUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** The error envelope `{"error":{"message","type","param","code"}}` (some compatible servers send a string). */
export interface OpenAIWireErrorEnvelope {
  error?:
    | { message?: string | null; type?: string | null; param?: string | null; code?: string | number | null }
    | string
    | null;
  message?: unknown;
  detail?: unknown;
}

/** A tool call inside a non-streamed assistant message. */
export interface OpenAIWireResponseToolCall {
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/** A non-streaming `chat.completion` body. */
export interface OpenAIWireCompletion extends OpenAIWireErrorEnvelope {
  /** The model that answered (a dated snapshot, or what a compatible server serves). */
  model?: string | null;
  choices?: Array<{
    index?: number;
    message?: {
      content?: string | null;
      refusal?: string | null;
      tool_calls?: OpenAIWireResponseToolCall[] | null;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: OpenAIWireUsage | null;
}

/** One fragment of a streamed tool call, keyed by `index`. */
export interface OpenAIWireToolCallDelta {
  index?: number | null;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/** One choice of a `chat.completion.chunk`. */
export interface OpenAIWireChunkChoice {
  index?: number | null;
  delta?: {
    content?: string | null;
    refusal?: string | null;
    tool_calls?: OpenAIWireToolCallDelta[] | null;
  } | null;
  finish_reason?: string | null;
}

/** One `data:` payload of a Chat Completions stream. */
export interface OpenAIWireChunk extends OpenAIWireErrorEnvelope {
  model?: string | null;
  choices?: OpenAIWireChunkChoice[] | null;
  usage?: OpenAIWireUsage | null;
}
