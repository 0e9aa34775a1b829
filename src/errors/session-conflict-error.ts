import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_SESSIONCONFLICTERROR = errorMarker("SessionConflictError");

/**
 * A durable run cannot continue in its session: the session moved on since the run started or paused (another
 * run wrote to it, e.g. a new message closed the paused run's calls). Nothing of the run was written to the
 * session by the attempt that found it; the run's log is kept.
 */
export class SessionConflictError extends AgentloopError {
  protected readonly [MARK_SESSIONCONFLICTERROR] = true;
  readonly sessionId: string;
  readonly runId: string;

  constructor({ sessionId, runId, reason }: { sessionId: string; runId: string; reason: string }) {
    super({ message: `Run "${runId}" cannot continue in session "${sessionId}": ${reason}` });
    this.name = "SessionConflictError";
    this.sessionId = sessionId;
    this.runId = runId;
  }

  static override isInstance(error: unknown): error is SessionConflictError {
    return hasMarker(error, MARK_SESSIONCONFLICTERROR);
  }
}
