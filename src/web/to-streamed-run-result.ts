import type { StreamedRunResult } from "../client/streamed-run-result.js";
import type { AgentResult } from "../loop/agent-result.js";
import { describeFailure } from "./sse-format.js";

/** Options of {@link toStreamedRunResult}. */
export interface ToStreamedRunResultOptions {
  result: AgentResult;
  runId?: string | undefined;
  sessionId?: string | undefined;
}

/** The JSON-safe summary of a result sent as the `event: result` message (no messages, events or trace). */
export function toStreamedRunResult({
  result,
  runId,
  sessionId,
}: ToStreamedRunResultOptions): StreamedRunResult {
  // In the order of the wire format's description: ids, outcome, answer, costs, then what only some runs have.
  const summary: StreamedRunResult = {
    ...(runId !== undefined && { runId }),
    ...(sessionId !== undefined && { sessionId }),
    stopReason: result.stopReason,
    text: result.text,
    ...(result.output !== undefined && { output: result.output }),
    usage: result.usage,
    costUsd: result.costUsd,
    turns: result.turns,
  };
  if (result.pendingApprovals !== undefined) summary.pendingApprovals = result.pendingApprovals;
  if (result.agent !== undefined) summary.agent = result.agent;
  if (result.error !== undefined) summary.error = describeFailure(result.error);
  return summary;
}
