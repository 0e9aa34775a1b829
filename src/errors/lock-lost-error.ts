import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_LOCKLOSTERROR = errorMarker("LockLostError");

/**
 * A run lost the lock on its session (or durable run) while it was running: a renewal found the lock expired
 * and taken, or removed, or the store could not renew it for a whole lock lifetime. The run was aborted and
 * wrote nothing after the loss (another holder may be running it now); what it stored before stays valid.
 */
export class LockLostError extends AgentloopError {
  protected readonly [MARK_LOCKLOSTERROR] = true;
  /** What was locked: a session or a durable run. */
  readonly resource: "session" | "run";
  /** The session id or run id. */
  readonly id: string;

  constructor({ resource, id, cause }: { resource: "session" | "run"; id: string; cause?: unknown }) {
    super({
      message: `The lock on ${resource} "${id}" was lost while the run was going on (it could not be renewed); the run was stopped and wrote nothing more`,
      cause,
    });
    this.name = "LockLostError";
    this.resource = resource;
    this.id = id;
  }

  static override isInstance(error: unknown): error is LockLostError {
    return hasMarker(error, MARK_LOCKLOSTERROR);
  }
}
