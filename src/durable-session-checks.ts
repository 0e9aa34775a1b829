import { SessionConflictError } from "./errors/session-conflict-error.js";
import type { AgentEvent } from "./loop/agent-event.js";
import type { AgentLoopOutcome } from "./loop/agent-loop.js";
import { PENDING_APPROVALS_KEY } from "./sessions/close-pending-calls.js";
import type { SessionRun } from "./sessions/open-session-run.js";

/** A resumed durable run's loop, then the check that the session held nothing it did not rebuild. */
export async function* checkedSession(
  events: AsyncGenerator<AgentEvent, AgentLoopOutcome>,
  session: SessionRun,
): AsyncGenerator<AgentEvent, AgentLoopOutcome> {
  const outcome = yield* events;
  session.checkStored();
  return outcome;
}

/** A decision for a durable run of a session: the session must still be paused on that run's calls. */
export function checkStillPaused(args: {
  session: SessionRun;
  runId: string;
  pending: readonly string[];
}): void {
  const paused = args.session.state.get(PENDING_APPROVALS_KEY);
  const ids = new Set(
    Array.isArray(paused) ? paused.map((p) => (p as { toolCallId?: unknown })?.toolCallId) : [],
  );
  if (args.pending.every((id) => ids.has(id))) return;
  throw new SessionConflictError({
    sessionId: args.session.sessionId,
    runId: args.runId,
    reason: "the session moved on since the run paused (a later message closed its pending calls)",
  });
}
