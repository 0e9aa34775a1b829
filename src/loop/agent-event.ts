import type { FinishReason } from "../models/finish-reason.js";
import type { Usage } from "../models/usage.js";

/**
 * Why a run ended. `max_output_tokens`: the model's final answer was cut off by the output token limit
 * (finish reason `length`); `result.text` holds the truncated answer. `stop_condition`: a `stopWhen` condition
 * held after a turn's tools ran (docs/loop.md, "Control of every step"). `guardrail`: a guardrail blocked the
 * run (`result.error` is a `GuardrailError`; docs/guardrails.md).
 */
export type StopReason =
  | "completed"
  | "max_output_tokens"
  | "max_turns"
  | "timeout"
  | "token_limit"
  | "loop_detected"
  | "aborted"
  | "cost_limit"
  | "awaiting_approval"
  | "stop_condition"
  | "guardrail"
  | "error";

/** The `data` of each event type. Every value is JSON-serialisable. */
export interface AgentEventDataMap {
  /** The run started. */
  loop_start: { task: string; model: string };
  /**
   * A model turn starts: the first event of each turn (`turn` is the turn about to be made), before its model
   * call; `model` is the `provider:modelId` the call goes to (a `prepareStep` override included).
   */
  turn_start: { model: string };
  /**
   * A message sent to the running agent (`stream.send`, a `steering` inbox) was added to the history as a user
   * message, between two turns; `content` is its text (media parts described).
   */
  user_message: { content: string };
  /** A model call finished (after its retries). */
  model_call: {
    model: string;
    finishReason: FinishReason;
    usage: Usage;
    latencyMs: number;
    /** The call's cost in USD (see docs/cost.md); `priced: false` when the model had no known price. */
    costUsd: number;
    priced: boolean;
  };
  /** Streamed text (only from `agent.stream`). A later `retry` event means: discard the text of this turn. */
  text_delta: { delta: string };
  /**
   * Streamed reasoning text (only from `agent.stream`, for models that send it: Anthropic thinking, OpenAI
   * Responses reasoning summaries, `reasoning_content` of OpenAI-compatible servers). Discarded like text on a
   * `retry`.
   */
  reasoning_delta: { delta: string };
  /**
   * A fragment of a tool call's arguments as it streams (only from `agent.stream`); the first fragment of a
   * call may be "" (the call was announced). The complete call follows as an `action` event.
   */
  tool_call_delta: { toolCallId: string; toolName: string; delta: string };
  /**
   * The typed final answer so far (only from `agent.stream`, agents with an `output` schema): the partial
   * object parsed from the JSON streamed until now. Not validated; `result.output` is the checked value.
   */
  output_delta: { partial: unknown };
  /**
   * The final answer did not match the `output` schema (or was not JSON): `errors` lists what was wrong, field
   * by field. With `retry: true` the errors were sent back to the model for another answer.
   */
  output_invalid: { errors: string[]; retry: boolean };
  /** A plan-and-execute agent planned its steps (`round` counts re-planning rounds from 0). */
  plan: {
    round: number;
    steps: Array<{ type: "tool"; name: string; arguments: unknown } | { type: "reply"; text: string }>;
  };
  /** Text the model wrote alongside tool calls. */
  thought: { content: string };
  /**
   * Tool calls need a human's approval: the run ends with stop reason `awaiting_approval` and
   * `result.pendingApprovals`; `agent.resume(...)` continues it.
   */
  approval_requested: {
    /** `agent`: the path of the sub-agent a call is in (a call inside a sub-agent pauses its caller too). */
    calls: Array<{ toolCallId: string; toolName: string; arguments: unknown; agent?: string }>;
  };
  /** A tool call is about to run. In a turn, every `action` comes before the first `observation`. */
  action: { toolCallId: string; toolName: string; arguments: unknown };
  /** A tool call finished (in completion order; the history keeps call order). */
  observation: {
    toolCallId: string;
    toolName: string;
    result: string;
    ok: boolean;
    durationMs: number;
    error?: { type: string; message: string };
  };
  /** A soft checkpoint fired: `prompt` was added to the conversation and the run goes on. */
  soft_limit: { reason: "turns" | "time"; prompt: string };
  /**
   * The history was compacted before a model call: `removedMessages` left the context (summarised with the
   * "summarize" strategy), old tool results may have been truncated (`truncatedToolResults`).
   */
  compaction: {
    removedMessages: number;
    truncatedToolResults: number;
    tokensBefore: number;
    tokensAfter: number;
    strategy: "sliding_window" | "summarize";
    reason: "threshold" | "context_length_exceeded";
  };
  /**
   * A model call failed for good (after its retries) and the turn moves to the next model of the agent's list
   * (`Agent({ model: [primary, fallback] })`); the run stays on it. Preceded by a `retry` event (source
   * "stream" when streaming: discard the turn's streamed text).
   */
  model_fallback: { from: string; to: string; error: string };
  /**
   * A model call is retried after `delayMs`; `source: "stream"` means what this turn streamed so far (text,
   * reasoning, tool-call fragments) is void.
   */
  retry: { attempt: number; delayMs: number; error: string; source: "request" | "stream" };
  /**
   * A guardrail blocked the run (docs/guardrails.md): it ends with stop reason `guardrail` and `result.error` a
   * `GuardrailError`. `kind` says which kind of guardrail, `name` which one, `reason` why; `toolCallId` and
   * `phase` ("call": before it ran, "result": on its result) name the call a tool guardrail blocked.
   */
  guardrail: {
    kind: "input" | "output" | "tool";
    name: string;
    reason: string;
    toolCallId?: string;
    phase?: "call" | "result";
  };
  /** Something went wrong. `fatal: true` ends the run; hook failures are reported with `fatal: false`. */
  error: { message: string; name: string; fatal: boolean };
  /** The run ended. Always the last event of a run. */
  loop_end: { stopReason: StopReason; text: string };
}

/** The type of an agent event. */
export type AgentEventType = keyof AgentEventDataMap;

/**
 * One event of a run: `{ type, turn, timestamp, data }`. `turn` is the model turn it belongs to (0 before the
 * first). `replayed: true` marks an event a durable run emitted again while replaying its journal (what it
 * reports happened in an earlier attempt: nothing was called or executed again). `agent` is set on the events
 * of a sub-agent (`agent.asTool`) that flow into its caller's run: the sub-agent's path, e.g.
 * `"lead/researcher"` (its `turn` is the sub-agent's); events of the run itself have none (docs/multi-agent.md).
 */
export type AgentEvent = {
  [K in AgentEventType]: {
    type: K;
    turn: number;
    timestamp: number;
    data: AgentEventDataMap[K];
    replayed?: true;
    agent?: string;
  };
}[AgentEventType];

/** The event of type `K`. */
export type AgentEventOf<K extends AgentEventType> = Extract<AgentEvent, { type: K }>;
