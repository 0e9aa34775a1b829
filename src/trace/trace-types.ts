import type { AgentEvent } from "../loop/agent-event.js";
import type { MessageContent } from "../models/content-part.js";
import type { Message } from "../models/message.js";
import type { ModelResponse } from "../models/model.js";
import type { RecordedError, RecordedModelRequest } from "../run-log/recorded-call.js";

export type { RecordedError, RecordedModelRequest } from "../run-log/recorded-call.js";

import type { RecordedToolFailure } from "../run-log/tool-failure.js";

/**
 * The trace format version this package writes (and the newest it reads). Version 2 renamed event and record
 * fields (`turn`, `toolName`, `arguments`, snake_case values); version 1 traces (agentloop 0.1) are read and
 * upgraded on load, and an older agentloop refuses version 2 instead of misreading it.
 */
export const TRACE_VERSION = 2;

/** The `prevHash` of a trace's first record: 64 zeros. */
export const GENESIS_HASH = "0".repeat(64);

/** The `data` of a `meta` record: what the run started from. Always the first record. */
export interface TraceMeta {
  /** The task the run was given (`agent.run(input)`). */
  input: MessageContent;
  /** The prior conversation the run continued (`RunOptions.messages`, `[]` for a new conversation). */
  messages: Message[];
  /** `"provider:modelId"` of the model the run used. */
  model: string;
  /** The names of the agent's tools, in registration order. */
  tools: string[];
  /** When recording started, in ms since the epoch. */
  startedAt: number;
}

/** The `data` of a `model_request` record: one call of the model, before it is made. */
export interface TraceModelRequest {
  /** 0-based index of the model call in the run. */
  call: number;
  /** Whether the caller used `generate` or `stream`. */
  mode: "generate" | "stream";
  request: RecordedModelRequest;
}

/** The `data` of a `model_response` record: the answer to call `call` (a stream's parts folded). */
export interface TraceModelResponse {
  call: number;
  /** The response without the provider's `raw` body. */
  response: Omit<ModelResponse, "raw">;
}

/** The `data` of a `model_error` record: call `call` failed. */
export interface TraceModelError {
  call: number;
  error: RecordedError;
}

/** The `data` of a `tool_result` record: what a tool call sent back to the model. */
export interface TraceToolResult {
  toolCallId: string;
  toolName: string;
  /** False when the call failed; `result` is then the error text the model was sent. */
  ok: boolean;
  /**
   * What the model was sent (after truncation): text, or content parts when the tool returned `toolContent`
   * (images and files inline, base64, so a replay sends the same). Always text in traces recorded before
   * agentloop 0.2.
   */
  result: MessageContent;
  /**
   * With `ok: false`, when the tool itself failed (it threw, returned a value JSON cannot hold, or timed out):
   * how, so a replay reproduces it (the journal of a durable run records failures in the same shape).
   * `message` is as the model was sent it (truncated with `result`). Absent in traces recorded before
   * agentloop 0.2 (a replay reads the failure from `result` then) and for failures the executor makes itself
   * (invalid arguments, an unknown tool, an aborted call).
   */
  failure?: RecordedToolFailure;
}

/** The `data` of each record kind. */
export interface TraceRecordDataMap {
  meta: TraceMeta;
  event: AgentEvent;
  model_request: TraceModelRequest;
  model_response: TraceModelResponse;
  model_error: TraceModelError;
  tool_result: TraceToolResult;
}

/** The kind of a trace record. */
export type TraceRecordKind = keyof TraceRecordDataMap;

/** Every record kind, in no particular order. */
export const TRACE_RECORD_KINDS: readonly TraceRecordKind[] = Object.freeze([
  "meta",
  "event",
  "model_request",
  "model_response",
  "model_error",
  "tool_result",
]);

/**
 * One record of a trace. `hash` is the sha256 (hex) of the canonical JSON of `{ seq, kind, data, prevHash }`
 * and `prevHash` the previous record's `hash` ({@link GENESIS_HASH} for the first), so changing, removing or
 * reordering a record breaks the chain.
 */
export type TraceRecord = {
  [K in TraceRecordKind]: {
    seq: number;
    kind: K;
    data: TraceRecordDataMap[K];
    prevHash: string;
    hash: string;
  };
}[TraceRecordKind];

/** The record of kind `K`. */
export type TraceRecordOf<K extends TraceRecordKind> = Extract<TraceRecord, { kind: K }>;

/**
 * A recorded run: a hash-chained list of records, the first being `meta`. JSON-serialisable; see
 * `saveTrace` / `loadTrace` for the file format and `verifyTrace` for the integrity check.
 */
export interface Trace {
  /** 1: a trace written by agentloop 0.1 (upgraded by `loadTrace` and `replay`). */
  version: 1 | typeof TRACE_VERSION;
  records: TraceRecord[];
}
