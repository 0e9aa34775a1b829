import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_RUNFAILEDERROR = errorMarker("RunFailedError");

/**
 * A queued run's job failed for good (see `docs/deployment.md`): its agent is unknown, it kept crashing its
 * worker (more stalls than `maxStalledCount`), or it kept failing (e.g. Redis unreachable) for all its attempts.
 * A run that merely ends badly (stop reason `error`, `timeout`, ...) is not a failed job: it has a summary.
 */
export class RunFailedError extends AgentloopError {
  protected readonly [MARK_RUNFAILEDERROR] = true;
  readonly runId: string;
  /** BullMQ's `failedReason` of the job. */
  readonly reason: string;

  constructor({ runId, reason, cause }: { runId: string; reason: string; cause?: unknown }) {
    super({ message: `Run "${runId}" failed: ${reason}`, cause });
    this.name = "RunFailedError";
    this.runId = runId;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is RunFailedError {
    return hasMarker(error, MARK_RUNFAILEDERROR);
  }
}
