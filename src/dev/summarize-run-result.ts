import type { AgentResult } from "../loop/agent-result.js";
import type { PendingApproval } from "../loop/tool-step.js";
import type { Usage } from "../models/usage.js";

/** The JSON-safe summary of a run's result sent as the SSE `result` message (no messages, no events). */
export interface RunResultSummary {
  runId?: string;
  sessionId?: string;
  stopReason: AgentResult["stopReason"];
  text: string;
  output?: unknown;
  usage: Usage;
  costUsd: number;
  turns: number;
  pendingApprovals?: PendingApproval[];
  agent?: string;
  error?: { name: string; message: string };
}

/** Options of {@link summarizeRunResult}. */
export interface SummarizeRunResultOptions {
  result: AgentResult;
  runId?: string;
  sessionId?: string;
}

/** The {@link RunResultSummary} of a result (the agentloop SSE wire format's `result` message). */
export function summarizeRunResult({
  result,
  runId,
  sessionId,
}: SummarizeRunResultOptions): RunResultSummary {
  return {
    ...(runId !== undefined && { runId }),
    ...(sessionId !== undefined && { sessionId }),
    stopReason: result.stopReason,
    text: result.text,
    ...(result.output !== undefined && { output: result.output }),
    usage: result.usage,
    costUsd: result.costUsd,
    turns: result.turns,
    ...(result.pendingApprovals !== undefined && { pendingApprovals: result.pendingApprovals }),
    ...(result.agent !== undefined && { agent: result.agent }),
    ...(result.error !== undefined && { error: { name: result.error.name, message: result.error.message } }),
  };
}
