import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_RUNATTEMPTERROR = errorMarker("RunAttemptError");

/** Options of {@link RunAttemptError}. */
export interface RunAttemptErrorOptions {
  runId: string;
  /** How the attempt ended. */
  error: { name: string; message: string };
}

/**
 * Thrown by a queue worker to have BullMQ retry (with backoff) a run that did not finish: the next attempt
 * resumes it. Internal: it is what BullMQ records as the attempt's failure.
 */
export class RunAttemptError extends AgentloopError {
  protected readonly [MARK_RUNATTEMPTERROR] = true;
  /** The run that resumes in the next attempt. */
  readonly runId: string;

  constructor({ runId, error }: RunAttemptErrorOptions) {
    super({
      message: `run "${runId}" ended with ${error.name}: ${error.message}; it resumes in the next attempt`,
    });
    this.name = "RunAttemptError";
    this.runId = runId;
  }

  static override isInstance(error: unknown): error is RunAttemptError {
    return hasMarker(error, MARK_RUNATTEMPTERROR);
  }
}
