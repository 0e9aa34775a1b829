import type { MessageContent } from "../models/content-part.js";
import type { Message } from "../models/message.js";

/** A guardrail's decision: let the run go on, or block it with a reason (shown in the `guardrail` event). */
export type GuardrailVerdict = { block: false } | { block: true; reason: string };

/** What an input guardrail checks: the user message the run starts with, before (or while) the model sees it. */
export interface InputGuardrailCheck {
  kind: "input";
  /** The run's new user message (the last message of the history when it is a user message, else ""). */
  input: MessageContent;
  /** The history the first model call gets (system prompt, earlier turns, the input). Do not change it. */
  messages: readonly Message[];
  /** The run's signal: aborted when the run is (caller, timeout) or when a parallel check is no longer needed. */
  signal: AbortSignal;
}

/** What an output guardrail checks: the final answer, before it is returned. */
export interface OutputGuardrailCheck {
  kind: "output";
  /** The answer's text (`result.text`; for a typed answer, its JSON as the model wrote it). */
  text: string;
  /** The typed answer, validated (`result.output`), for agents with an `output` schema. */
  output: unknown;
  /** The history, ending with the answer. Do not change it. */
  messages: readonly Message[];
  signal: AbortSignal;
}

/** What a tool guardrail checks before a call runs (`phase: "call"`). */
export interface ToolCallGuardrailCheck {
  kind: "tool";
  phase: "call";
  toolName: string;
  toolCallId: string;
  /** The parsed arguments (`undefined` when the model sent arguments that are not valid JSON). */
  arguments: unknown;
  /** The arguments as the model sent them. */
  rawArguments: string;
  /** The model turn that made the call. */
  turn: number;
  /** The history, ending with the assistant message that made the call. Do not change it. */
  messages: readonly Message[];
  signal: AbortSignal;
}

/** What a tool guardrail checks after a call ran, before its result is sent to the model (`phase: "result"`). */
export interface ToolResultGuardrailCheck extends Omit<ToolCallGuardrailCheck, "phase"> {
  phase: "result";
  /** The result as the model would get it (formatted, truncated); an error message when `ok` is false. */
  result: MessageContent;
  /** False when the call failed (the tool threw, timed out, got invalid arguments…). */
  ok: boolean;
}

/** What a tool guardrail checks: a call (before it runs) or its result. */
export type ToolGuardrailCheck = ToolCallGuardrailCheck | ToolResultGuardrailCheck;

/** What any guardrail may be given: one function can serve as input, output and tool guardrail. */
export type GuardrailCheck = InputGuardrailCheck | OutputGuardrailCheck | ToolGuardrailCheck;

/**
 * A guardrail: a named check that may block the run. `check` may be sync or async; whatever it throws (or a
 * verdict that is not `{ block: boolean }`) blocks the run too (guardrails fail closed).
 */
export interface Guardrail<TCheck> {
  /** Names the guardrail in events and errors. */
  name: string;
  check(check: TCheck): GuardrailVerdict | Promise<GuardrailVerdict>;
}

/**
 * Checks the run's input. `mode: "before"` (default) runs it before the first model call: nothing is sent to
 * the model until it passes. `mode: "parallel"` starts the first model call at the same time (saving its
 * latency); the call's events are held back until the check passes, and a block aborts the call and discards
 * its answer. Use "before" when the input must not reach the provider unchecked (PII, secrets).
 */
export interface InputGuardrail extends Guardrail<InputGuardrailCheck> {
  mode?: "before" | "parallel";
}

/** Checks the final answer (text, and the typed answer of agents with an `output` schema). */
export type OutputGuardrail = Guardrail<OutputGuardrailCheck>;

/**
 * Checks tool calls before they run and their results before the model gets them. `phase` limits it to one
 * of the two (default: both).
 */
export interface ToolGuardrail extends Guardrail<ToolGuardrailCheck> {
  phase?: "call" | "result";
}

/** The `guardrails` option of an Agent: the guardrails of each kind, run in parallel within a kind. */
export interface GuardrailsOptions {
  /** Run on the user message before (or alongside) the first model call. */
  input?: readonly InputGuardrail[];
  /** Run on the final answer. */
  output?: readonly OutputGuardrail[];
  /** Run on each tool call before it runs, and on its result. */
  tool?: readonly ToolGuardrail[];
}
