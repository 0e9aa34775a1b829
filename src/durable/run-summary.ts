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

/**
 * The {@link RunSummary} of a run's result, without a JSON round trip of the whole result (a journal serialises
 * the `end` record anyway): new arrays and records, so later changes to the result's arrays, usage or tool call
 * records do not show; the messages are shared (a history's messages are not changed once in it, and they are
 * JSON already: the journal holds them). A typed `output` is copied through JSON (it may hold what JSON cannot:
 * a summary is plain JSON, whether it was just made or read back from the journal).
 */
export function toRunSummary({ runId, result }: ToRunSummaryOptions): RunSummary {
  const summary: RunSummary = {
    runId,
    text: result.text,
    stopReason: result.stopReason,
    turns: result.turns,
    usage: { ...result.usage },
    costUsd: result.costUsd,
    toolCalls: result.toolCalls.map((call) => ({ ...call })),
    messages: [...result.messages],
  };
  if (result.output !== undefined) {
    const json = JSON.stringify(result.output);
    if (json !== undefined) summary.output = JSON.parse(json) as unknown;
  }
  if (result.error !== undefined) summary.error = { name: result.error.name, message: result.error.message };
  return summary;
}
