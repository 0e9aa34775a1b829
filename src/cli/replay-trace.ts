import type { Agent } from "../agent.js";
import type { TraceError } from "../errors/trace-error.js";
import { type ReplayOutcome, replay } from "../trace/replay.js";
import { replayThroughPauses } from "../trace/replay-through-pauses.js";
import type { Trace } from "../trace/trace-types.js";
import { traceMeta } from "./agent-from-trace.js";

/** Options of {@link replayTrace}. */
export interface ReplayTraceOptions {
  trace: Trace;
  /** The agent of the recorded run (see `agentFromTrace`). */
  agent: Agent;
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

  return replayThroughPauses({ trace, agent });
}
