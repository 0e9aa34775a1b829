import type { Agent } from "../agent.js";
import { TraceError } from "../errors/trace-error.js";
import type { AgentResult } from "../loop/agent-result.js";
import type { PendingApproval } from "../loop/tool-step.js";
import type { ReplayOutcome } from "./replay.js";
import { type Divergence, ReplayModel } from "./replay-model.js";
import { recordedTools } from "./replay-tools.js";
import type { Trace, TraceMeta } from "./trace-types.js";
import { upgradeTrace } from "./upgrade-trace.js";
import { verifyTrace } from "./verify-trace.js";

/** Options of {@link replayThroughPauses}. */
export interface ReplayThroughPausesOptions {
  trace: Trace;
  /** The agent to replay with (its model is never called; tool calls are answered from the trace). */
  agent: Agent;
}

/** The ids of the calls the recording denied (their observation says "ApprovalDenied"). */
export function deniedCalls(trace: Trace): Set<string> {
  const denied = new Set<string>();
  for (const record of trace.records) {
    if (record.kind !== "event" || record.data.type !== "observation") continue;
    if (record.data.data.error?.type === "ApprovalDenied") denied.add(record.data.data.toolCallId);
  }
  return denied;
}

/** The data of the recorded `loop_end` event, if the recording has one. */
export function recordedEnd(trace: Trace): { text: string; stopReason: string } | undefined {
  for (let i = trace.records.length - 1; i >= 0; i--) {
    const record = trace.records[i];
    if (record?.kind === "event" && record.data.type === "loop_end") return record.data.data;
  }
  return undefined;
}

/** `parent.key`, or `parent["key"]` for a key that is not an identifier (a divergence path). */
export function childPath(parent: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * Replays a trace `agentloop dev` saved, offline, like `agentloop replay` (the same {@link ReplayModel} and
 * recorded tool results), and also through the approvals the recording went through: the dev UI's runs are
 * durable, so the trace of a resumed part holds the whole run, from its input through the pause to the end.
 * Each time the replay pauses for approval while the recording has more model calls, it is resumed with the
 * recorded decisions (calls whose result was "ApprovalDenied" denied, the others approved). A trace that
 * starts from a paused conversation (`agentloop run`'s second part: no input) is resumed the same way.
 * Rejects with `TraceError` for a broken trace.
 */
export async function replayThroughPauses({
  trace: recorded,
  agent,
}: ReplayThroughPausesOptions): Promise<ReplayOutcome> {
  const check = verifyTrace(recorded);
  if (!check.ok) {
    throw new TraceError({
      message: `The trace is broken at record ${check.brokenAt}: ${check.reason}`,
      seq: check.brokenAt,
    });
  }
  const trace = upgradeTrace(recorded);
  const meta = (trace.records[0] as { data: TraceMeta }).data;
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
        path: childPath("toolResults", toolCallId),
        expected: undefined,
        actual: { toolCallId, tool },
      }),
  });
  const replayer = agent.with({ model, tools });
  const denied = deniedCalls(trace);
  const decide = (calls: readonly PendingApproval[] | readonly { id: string }[]) => {
    const ids = calls.map((call) => ("toolCallId" in call ? call.toolCallId : call.id));
    return { approve: ids.filter((id) => !denied.has(id)), deny: ids.filter((id) => denied.has(id)) };
  };
  const last = meta.messages.at(-1);
  const pending = last?.role === "assistant" && meta.input === "" ? (last.toolCalls ?? []) : [];
  let result: AgentResult =
    pending.length > 0
      ? await replayer.resume({ messages: meta.messages }, decide(pending))
      : await replayer.run(meta.input, { messages: meta.messages });
  while (
    divergence === null &&
    result.stopReason === "awaiting_approval" &&
    result.pendingApprovals !== undefined &&
    model.calls < model.recordedCalls
  ) {
    result = await replayer.resume(result, decide(result.pendingApprovals));
  }
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
