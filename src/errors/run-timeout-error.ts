import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_RUNTIMEOUTERROR = errorMarker("RunTimeoutError");

/** `queue.result(runId, { timeoutMs })` gave up waiting: the run has not finished (it goes on). */
export class RunTimeoutError extends AgentloopError {
  protected readonly [MARK_RUNTIMEOUTERROR] = true;
  readonly runId: string;
  readonly timeoutMs: number;

  constructor({ runId, timeoutMs }: { runId: string; timeoutMs: number }) {
    super({ message: `Run "${runId}" did not finish within ${timeoutMs} ms` });
    this.name = "RunTimeoutError";
    this.runId = runId;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is RunTimeoutError {
    return hasMarker(error, MARK_RUNTIMEOUTERROR);
  }
}
