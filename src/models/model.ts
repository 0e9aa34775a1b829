import type { FinishReason } from "./finish-reason.js";
import type { Message, ToolCall } from "./message.js";
import type { ModelStreamPart } from "./model-stream-part.js";
import type { RetryPolicy } from "./retry-policy.js";
import type { Usage } from "./usage.js";

/** A JSON Schema object (draft 2020-12 / the subset providers accept). */
export type JsonSchema = { [key: string]: unknown };

/** A tool as the model sees it. */
export interface ModelToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

/** Whether and which tool the model must call. */
export type ToolChoice = "auto" | "none" | "required" | { type: "tool"; name: string };

/**
 * A JSON answer the model must give (native structured output): the provider sends `schema` in its own form
 * (OpenAI Chat `response_format`, Responses `text.format`, Anthropic `output_config.format`).
 */
export interface OutputFormat {
  /** A name for the schema (`[a-zA-Z0-9_-]`, as OpenAI requires). */
  name: string;
  description?: string;
  /** The JSON Schema of the answer (an object schema). */
  schema: JsonSchema;
}

/** One model call, provider-neutral. */
export interface ModelRequest {
  messages: readonly Message[];
  tools?: readonly ModelToolSpec[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxOutputTokens?: number;
  /** Whether the model may return several tool calls at once (providers that support the switch). */
  parallelToolCalls?: boolean;
  /** Extra, provider-specific body fields, merged into the request body as is. */
  providerOptions?: Record<string, unknown>;
  /**
   * Ask for a JSON answer matching a schema (models whose `capabilities.structuredOutput` is true). The model
   * may still call tools; its text answer is then the JSON.
   */
  output?: OutputFormat;
}

/** What a model can do beyond text and tool calls (absent: nothing more). */
export interface ModelCapabilities {
  /** It honours `ModelRequest.output` natively (else the loop asks for the answer through a tool call). */
  structuredOutput?: boolean;
}

/** Information about a retry the model layer is about to make. */
export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  /** How long it waits before retrying. */
  delayMs: number;
  /** The error that caused the retry. */
  error: unknown;
}

/** Per-call options. */
export interface ModelCallOptions {
  /** Cancels the request, its body and any backoff wait at once. */
  signal?: AbortSignal;
  /** Called before each retry. May not throw (a throw is ignored). */
  onRetry?: (info: RetryInfo) => void;
  /**
   * How many times this call may retry on its own, overriding the model's policy. The agent loop passes 0:
   * it retries every model call itself, with the agent's one policy (see docs/loop.md).
   */
  maxRetries?: number;
}

/** A complete (non-streamed) model answer. */
export interface ModelResponse {
  /** The text the model wrote ("" when none). */
  text: string;
  /** Tool calls, in order. */
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: FinishReason;
  /** A refusal message, when the provider reports one separately from text. */
  refusal?: string;
  /**
   * The reasoning text the model showed (Anthropic thinking, Responses reasoning summaries, `reasoning_content`
   * of OpenAI-compatible servers), for display and diagnostics only: what must be sent back on the next turn
   * travels in `providerData`.
   */
  reasoning?: string;
  /**
   * The model the provider says answered (the response's `model` field: a dated snapshot, or what an
   * OpenAI-compatible server really serves). Calls are priced by it when it has a price (docs/cost.md).
   */
  model?: string;
  /** Opaque data to send back with the assistant message on the next turn (see `AssistantMessage`). */
  providerData?: Record<string, unknown>;
  /** The provider's raw response (parsed body), for debugging. */
  raw?: unknown;
}

/**
 * The one interface every model implements. Implementations convert {@link ModelRequest} to their wire format
 * and back. `stream` must end with exactly one `finish` part, or with an `error` part / a thrown error.
 */
export interface Model {
  /** Provider name, e.g. "openai". */
  readonly provider: string;
  /** Model id, e.g. "gpt-4o-mini". */
  readonly modelId: string;
  /**
   * The model's own retry policy (the provider's `retry` option), if it has one. An `Agent` without a `retry`
   * option retries this model's calls with it.
   */
  readonly retryPolicy?: RetryPolicy | undefined;
  /** What the model can do beyond text and tool calls. */
  readonly capabilities?: ModelCapabilities | undefined;
  generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart>;
}
