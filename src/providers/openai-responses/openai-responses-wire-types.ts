/**
 * The subset of the OpenAI Responses API wire format (`POST /v1/responses`) this provider reads and writes.
 * Response types are deliberately loose (every field optional, `null` allowed): recordings from different
 * dates differ in which fields they carry (`sequence_number`, `obfuscation`, `logprobs`, `phase`, …), and
 * unknown fields are simply ignored.
 */

import type { JsonSchema } from "../../models/model.js";
import type { OpenAIWireErrorEnvelope } from "../openai/openai-wire-types.js";

/**
 * An output item of a response (`reasoning`, `message`, `function_call`, …) as the server sent it. Items are
 * kept whole — including fields this provider does not read — so they can be sent back unchanged.
 */
export interface OpenAIResponsesWireItem {
  type?: string | null;
  id?: string | null;
  /** `function_call`: the id tool results must reference (`call_…`; `id` is the item id `fc_…`). */
  call_id?: string | null;
  name?: string | null;
  /** `function_call`: the complete argument text. */
  arguments?: string | null;
  /** `reasoning`: the opaque reasoning state, needed to continue statelessly (`store: false`). */
  encrypted_content?: string | null;
  /** `message`: content parts (`output_text` with `text`, `refusal` with `refusal`). */
  content?: Array<{ type?: string | null; text?: string | null; refusal?: string | null }> | null;
  [field: string]: unknown;
}

/**
 * A content part of a user message or of a `function_call_output`: text, an image (`image_url`: an `https:`
 * URL or a `data:` URL), or a file (inline as a `data:` URL with a `filename`, or by `file_url`).
 */
export type OpenAIResponsesWireContentPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" | "low" | "high" }
  | { type: "input_file"; filename: string; file_data: string }
  | { type: "input_file"; file_url: string; filename?: string };

/** An input item sent in `input`: a message, a function call, its output, or a recorded output item. */
export type OpenAIResponsesInputItem =
  | { role: "user"; content: string | OpenAIResponsesWireContentPart[] }
  | { role: "assistant" | "system" | "developer"; content: string }
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; call_id: string; output: string | OpenAIResponsesWireContentPart[] }
  | OpenAIResponsesWireItem;

/** A function tool definition (flat, unlike Chat Completions). */
export interface OpenAIResponsesWireTool {
  type: "function";
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** The `tool_choice` request field. */
export type OpenAIResponsesWireToolChoice = "auto" | "none" | "required" | { type: "function"; name: string };

/** The `usage` object of a response. */
export interface OpenAIResponsesWireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  total_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** A Response object: the non-streaming body, and the `response` of `response.*` stream events. */
export interface OpenAIResponsesWireResponse extends OpenAIWireErrorEnvelope {
  id?: string | null;
  /** The model that answered (a dated snapshot of the requested one). */
  model?: string | null;
  /** `completed`, `incomplete`, `failed`, `in_progress`, … */
  status?: string | null;
  output?: OpenAIResponsesWireItem[] | null;
  usage?: OpenAIResponsesWireUsage | null;
  incomplete_details?: { reason?: string | null } | null;
}

/**
 * One `data:` payload of a Responses stream, dispatched on `type` (the `event:` line is not needed, and
 * recordings in the chunks format do not have it).
 */
export interface OpenAIResponsesWireEvent {
  type?: string | null;
  output_index?: number | null;
  item_id?: string | null;
  item?: OpenAIResponsesWireItem | null;
  delta?: unknown;
  summary_index?: number | null;
  response?: OpenAIResponsesWireResponse | null;
  /** `error` event, as recorded: `{error: {type, code, message, param}}`. */
  error?: OpenAIWireErrorEnvelope["error"];
  /** `error` event, as the OpenAPI spec declares it: `code`/`message` at the top level. */
  code?: unknown;
  message?: unknown;
}

/** What the provider stores in `AssistantMessage.providerData` to send a response's output back next turn. */
export interface OpenAIResponsesProviderData {
  openaiResponses: {
    /** The response's output items, in order, exactly as received (reasoning with `encrypted_content`). */
    output: OpenAIResponsesWireItem[];
  };
}
