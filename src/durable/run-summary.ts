import type { StopReason } from "../loop/agent-event.js";
import type { AgentResult, ToolCallRecord } from "../loop/agent-result.js";
import type { Message } from "../models/message.js";
import type { Usage } from "../models/usage.js";

/**
 * The outcome of a durable run: the {@link AgentResult} without its events, trace and timings, as plain JSON.
 * It is what the journal's `end` record holds and what `runDurably` resolves with.
 */
export interface RunSummary {
  /** The durable run's id. */
  runId: string;
  /** The final answer (or, when a limit stopped the run, the last text the model wrote). */
  text: string;
  stopReason: StopReason;
  /** Model calls made (recorded ones included). */
  turns: number;
  usage: Usage;
  /** USD of the run's model calls, recorded ones included (they were paid for once). */
  costUsd: number;
  toolCalls: ToolCallRecord[];
  /** The whole conversation, system prompt included. */
  messages: Message[];
  /**
   * Why the run failed, with stop reason `error`. Such a run is not finished in the journal (no `end` record),
   * so this field is never stored: calling `runDurably` again resumes it.
   */
  error?: { name: string; message: string };
  /** The typed final answer (agents with an `output` schema), when the run gave a valid one. */
  output?: unknown;
}

/** Options of {@link toRunSummary}. */
export interface ToRunSummaryOptions {
  runId: string;
  result: AgentResult;
}

/** The {@link RunSummary} of a run's result: a JSON copy, so later changes to the result do not show. */
export function toRunSummary({ runId, result }: ToRunSummaryOptions): RunSummary {
  const summary: RunSummary = {
    runId,
    text: result.text,
    stopReason: result.stopReason,
    turns: result.turns,
    usage: result.usage,
    costUsd: result.costUsd,
    toolCalls: result.toolCalls,
    messages: result.messages,
  };
  if (result.output !== undefined) summary.output = result.output;
  const copy = JSON.parse(JSON.stringify(summary)) as RunSummary;
  if (result.error !== undefined) copy.error = { name: result.error.name, message: result.error.message };
  return copy;
}
