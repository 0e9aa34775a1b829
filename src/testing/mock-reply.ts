import type { Usage } from "../models/usage.js";

/** A tool call in a {@link MockReply}. */
export interface MockToolCall {
  /** Call id. Default: `call_mock_<replyIndex>_<i>`. */
  id?: string;
  /** Function name. */
  name: string;
  /** An object (JSON-stringified) or a string sent as the raw `arguments` text (may be invalid JSON). */
  arguments: unknown;
}

/**
 * Answer with an HTTP error status and the OpenAI error envelope `{ error: { message, type, param, code } }`
 * (a typical one for the status unless `body` is given).
 */
export interface MockStatusFault {
  status: number;
  /** Value of the `retry-after` header (seconds or an HTTP date). */
  retryAfter?: string;
  /** Value of the `retry-after-ms` header. */
  retryAfterMs?: number;
  /** The body: an object is sent as JSON, a string as is (e.g. an HTML 502 page). */
  body?: object | string;
}

/**
 * A broken answer. "Events" are the SSE events of a streaming answer (the role chunk is the first, `[DONE]`
 * the last); for a non-streaming answer they are the JSON body cut into 8 pieces.
 *
 * - `drop_before_headers`: destroys the socket without answering (the client's fetch rejects).
 * - `drop_mid_stream`: sends `afterEvents` events (at most all but the last), then destroys the socket.
 * - `hang`: never answers; with `afterEvents`, sends the headers and that many events and then stalls.
 *   The request stays open until the client goes away or the server closes.
 * - `end_without_done`: sends `afterEvents` events (default: every event before the `finish_reason` chunk;
 *   half the body when not streaming) and ends the response cleanly: no finish chunk, no usage, no `[DONE]`.
 * - `malformed_chunk`: sends `afterEvents` events, then `data: {not json` (the bare text `{not json` when not
 *   streaming), then the rest of the answer as usual.
 * - `slow_drip`: sends the whole answer, waiting `intervalMs` between events.
 */
export type MockStreamFault =
  | { type: "drop_before_headers" }
  | { type: "drop_mid_stream"; afterEvents: number }
  | { type: "hang"; afterEvents?: number }
  | { type: "end_without_done"; afterEvents?: number }
  | { type: "malformed_chunk"; afterEvents: number }
  | { type: "slow_drip"; intervalMs: number };

/** A fault injected into one answer: an error status or a broken answer. */
export type MockFault = MockStatusFault | MockStreamFault;

/**
 * One scripted answer of the mock OpenAI server; each chat completion request consumes exactly one.
 * A reply with a `fault` is still one reply: the fault decides what the client sees, using the reply's own
 * text and tool calls for the events it sends (a status fault ignores them).
 */
export interface MockReply {
  /** The assistant text. Default "" (`content: null` when there are tool calls or a refusal). */
  text?: string;
  /** Tool calls, in order. */
  toolCalls?: MockToolCall[];
  /** A refusal (`message.refusal`, streamed in `delta.refusal`). */
  refusal?: string;
  /**
   * Usage, in agentloop terms (sent as `prompt_tokens`, `completion_tokens`, `total_tokens`,
   * `prompt_tokens_details.cached_tokens`, `completion_tokens_details.reasoning_tokens`). Defaults:
   * `inputTokens` = request body length / 4, `outputTokens` = answer length / 4 (at least 1).
   */
  usage?: Partial<Usage>;
  /** The wire `finish_reason`. Default "tool_calls" when there are tool calls, else "stop". */
  finishReason?: string;
  /** Waits this long before answering; cancelled when the client goes away or the server closes. */
  delayMs?: number;
  /** Break this answer (see {@link MockFault}). */
  fault?: MockFault;
}

/** The parsed body of a chat completion request, as the script function sees it. */
export interface MockChatRequest {
  model: string;
  messages: unknown[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/**
 * The server's script: replies played in order (a request beyond the last one is answered with a 400
 * `mock_script_exhausted` error, so clients do not retry it), or a function of the request body and the
 * 0-based index of the chat completion request (invalid requests do not count).
 */
export type MockScript =
  | readonly MockReply[]
  | ((body: MockChatRequest, index: number) => MockReply | Promise<MockReply>);
