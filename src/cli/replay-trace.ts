import type { Agent } from "../agent.js";
import { TraceError } from "../errors/trace-error.js";
import type { AgentResult } from "../loop/agent-result.js";
import { type ReplayOutcome, replay } from "../trace/replay.js";
import { type Divergence, ReplayModel } from "../trace/replay-model.js";
import { recordedTools } from "../trace/replay-tools.js";
import type { Trace } from "../trace/trace-types.js";
import { verifyTrace } from "../trace/verify-trace.js";
import { traceMeta } from "./agent-from-trace.js";

/** Options of {@link replayTrace}. */
export interface ReplayTraceOptions {
  trace: Trace;
  /** The agent of the recorded run (see `agentFromTrace`). */
  agent: Agent;
}

/** The recorded `loop_end` data, if the trace has one. */
function recordedEnd(trace: Trace): { text: string; stopReason: string } | undefined {
  for (let i = trace.records.length - 1; i >= 0; i--) {
    const record = trace.records[i];
    if (record?.kind === "event" && record.data.type === "loop_end") return record.data.data;
  }
  return undefined;
}

/** The ids of the tool calls the recorded resume denied (their observation says "ApprovalDenied"). */
function deniedCalls(trace: Trace): Set<string> {
  const denied = new Set<string>();
  for (const record of trace.records) {
    if (record.kind !== "event" || record.data.type !== "observation") continue;
    if (record.data.data.error?.type === "ApprovalDenied") denied.add(record.data.data.toolCallId);
  }
  return denied;
}

/**
 * Replays a recorded run with `agent`, offline. A run started with a task is replayed with the library's
 * `replay`. The second part of a run that paused for approval (its trace starts from the paused conversation,
 * with no task) is replayed the same way but through `agent.resume`, with the decisions the recording shows
 * (calls with an "ApprovalDenied" result denied, the others approved). Rejects with {@link TraceError} for a
 * broken trace.
 */
export async function replayTrace({ trace, agent }: ReplayTraceOptions): Promise<ReplayOutcome> {
  const meta = traceMeta(trace);
  const last = meta.messages.at(-1);
  const pending = last?.role === "assistant" ? (last.toolCalls ?? []) : [];
  if (meta.input !== "" || pending.length === 0) return replay(trace, { agent });

  const check = verifyTrace(trace);
  if (!check.ok) {
    throw new TraceError({
      message: `The trace is broken at record ${check.brokenAt}: ${check.reason}`,
      seq: check.brokenAt,
    });
  }
  let divergence: Divergence | null = null;
  const note = (found: Divergence): void => {
    divergence ??= found;
  };
  const model = new ReplayModel({ trace, onDivergence: note });
  const tools = recordedTools({
    tools: agent.tools.list(),
    trace,
    onMissing: ({ toolCallId, tool }) =>
      note({
        call: Math.max(0, model.calls - 1),
        path: /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(toolCallId)
          ? `toolResults.${toolCallId}`
          : `toolResults[${JSON.stringify(toolCallId)}]`,
        expected: undefined,
        actual: { toolCallId, tool },
      }),
  });
  const denied = deniedCalls(trace);
  const result: AgentResult = await agent.with({ model, tools }).resume(
    { messages: meta.messages },
    {
      approve: pending.filter((call) => !denied.has(call.id)).map((call) => call.id),
      deny: pending.filter((call) => denied.has(call.id)).map((call) => call.id),
    },
  );
  if (divergence === null && model.calls < model.recordedCalls) {
    note({ call: model.calls, path: "", expected: model.recordedRequest(model.calls), actual: undefined });
  }
  const end = recordedEnd(trace);
  const lastCall = Math.max(0, model.calls - 1);
  if (divergence === null && end !== undefined && end.text !== result.text) {
    note({ call: lastCall, path: "result.text", expected: end.text, actual: result.text });
  } else if (divergence === null && end !== undefined && end.stopReason !== result.stopReason) {
    note({ call: lastCall, path: "result.stopReason", expected: end.stopReason, actual: result.stopReason });
  }
  return { result, divergence };
}
