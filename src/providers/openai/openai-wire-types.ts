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
  /** Server-specific data of the call, sent back as received (Gemini: `{ google: { thought_signature } }`). */
  extra_content?: Record<string, unknown>;
}

/**
 * The reasoning fields of an assistant message, sent back as the server sent them: `reasoning_content`
 * (DeepSeek, xAI, llama.cpp, vLLM), `reasoning` (Ollama, OpenRouter), `reasoning_details` (OpenRouter).
 */
export interface OpenAIWireReasoningFields {
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: Array<Record<string, unknown>>;
}

/**
 * A content part of a user message: text, an image (`url` is an `https:` URL or a `data:` URL), or an inline
 * file (`file_data` is a `data:` URL; Chat Completions reads PDFs only, and no files by URL).
 */
export type OpenAIWireUserContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } }
  | { type: "file"; file: { filename: string; file_data: string } };

/** A chat message as the API expects it. */
export type OpenAIWireMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | OpenAIWireUserContentPart[] }
  | ({
      role: "assistant";
      content: string | null;
      tool_calls?: OpenAIWireToolCall[];
    } & OpenAIWireReasoningFields)
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
  /** `cache_write_tokens`: prompt tokens written to the cache (GPT-5.6 and later bill them at 1.25 × input). */
  prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek: prompt tokens read from its context cache (beside, or instead of, `cached_tokens`). */
  prompt_cache_hit_tokens?: number | null;
}

/** The error envelope `{"error":{"message","type","param","code"}}` (some compatible servers send a string). */
export interface OpenAIWireErrorEnvelope {
  error?:
    | {
        message?: string | null;
        type?: string | null;
        param?: string | null;
        code?: string | number | null;
        /** OpenRouter: the upstream provider and its own error text. */
        metadata?: { provider_name?: unknown; raw?: unknown } | null;
      }
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
  /** Gemini's OpenAI compatibility: `{ google: { thought_signature } }`. */
  extra_content?: unknown;
}

/** The reasoning fields of a response message or stream delta (each server uses one or two of them). */
export interface OpenAIWireResponseReasoning {
  reasoning_content?: unknown;
  reasoning?: unknown;
  reasoning_details?: unknown;
}

/** A non-streaming `chat.completion` body. */
export interface OpenAIWireCompletion extends OpenAIWireErrorEnvelope {
  /** The model that answered (a dated snapshot, or what a compatible server serves). */
  model?: string | null;
  choices?: Array<{
    index?: number;
    message?:
      | ({
          /** A string; Mistral's reasoning models send `text` / `thinking` chunks (read-content-chunks.ts). */
          content?: string | unknown[] | null;
          refusal?: string | null;
          tool_calls?: OpenAIWireResponseToolCall[] | null;
        } & OpenAIWireResponseReasoning)
      | null;
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
  /** Gemini's OpenAI compatibility: `{ google: { thought_signature } }`. */
  extra_content?: unknown;
}

/** One choice of a `chat.completion.chunk`. */
export interface OpenAIWireChunkChoice {
  index?: number | null;
  delta?:
    | ({
        /** A string; Mistral's reasoning models send `text` / `thinking` chunks (read-content-chunks.ts). */
        content?: string | unknown[] | null;
        refusal?: string | null;
        tool_calls?: OpenAIWireToolCallDelta[] | null;
      } & OpenAIWireResponseReasoning)
    | null;
  finish_reason?: string | null;
}

/** One `data:` payload of a Chat Completions stream. */
export interface OpenAIWireChunk extends OpenAIWireErrorEnvelope {
  model?: string | null;
  choices?: OpenAIWireChunkChoice[] | null;
  usage?: OpenAIWireUsage | null;
  /** Groq: request metadata; its last chunk carries the usage here (and, with `stream_options`, at the top). */
  x_groq?: { usage?: OpenAIWireUsage | null } | null;
}
