import type { StopReason } from "../loop/agent-event.js";
import type { AgentResult, ToolCallRecord } from "../loop/agent-result.js";
import type { PendingApproval } from "../loop/tool-step.js";
import { addUsage, type Usage } from "../models/usage.js";

/** What `agentloop run --json` prints: one JSON object for the whole run. */
export interface RunSummary {
  stopReason: StopReason;
  /** The final answer (or the last text the model wrote). */
  text: string;
  model: string;
  /** Model calls, over every part of the run (a run paused for approval and resumed has several). */
  turns: number;
  usage: Usage;
  costUsd: number;
  /** Models that had no price (their calls count as $0 in `costUsd`); present when there are any. */
  costUnknownModels?: string[];
  durationMs: number;
  toolCalls: ToolCallRecord[];
  sessionId?: string;
  /** The trace files written (`--trace`): one per part of the run. */
  traceFiles?: string[];
  pendingApprovals?: PendingApproval[];
  error?: { name: string; message: string };
}

/** Options of {@link summarizeRun}. */
export interface SummarizeRunOptions {
  /** The results of the run's parts, in order: the first run, then each resume. At least one. */
  results: readonly AgentResult[];
  model: string;
  sessionId?: string | undefined;
  traceFiles?: readonly string[];
}

/** Folds the results of a run and its resumes into one {@link RunSummary} (totals summed, the last outcome). */
export function summarizeRun({ results, model, sessionId, traceFiles }: SummarizeRunOptions): RunSummary {
  const last = results.at(-1);
  if (last === undefined) throw new Error("summarizeRun needs at least one result");
  const usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let turns = 0;
  let costUsd = 0;
  let durationMs = 0;
  const toolCalls: ToolCallRecord[] = [];
  const unknown = new Set<string>();
  for (const result of results) {
    for (const modelId of result.costUnknownModels) unknown.add(modelId);
    addUsage(usage, result.usage);
    turns += result.turns;
    costUsd += result.costUsd;
    durationMs += result.durationMs;
    toolCalls.push(...result.toolCalls);
  }
  const summary: RunSummary = {
    stopReason: last.stopReason,
    text: last.text,
    model,
    turns,
    usage,
    costUsd: Math.round(costUsd * 1e10) / 1e10, // without float noise (0.00011174999999999999)
    durationMs,
    toolCalls,
  };
  if (unknown.size > 0) summary.costUnknownModels = [...unknown];
  if (sessionId !== undefined) summary.sessionId = sessionId;
  if (traceFiles !== undefined && traceFiles.length > 0) summary.traceFiles = [...traceFiles];
  if (last.pendingApprovals !== undefined) summary.pendingApprovals = last.pendingApprovals;
  if (last.error !== undefined) summary.error = { name: last.error.name, message: last.error.message };
  return summary;
}
