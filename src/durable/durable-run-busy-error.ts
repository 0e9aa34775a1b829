import { AgentloopError, errorMarker, hasMarker } from "../errors/agentloop-error.js";

const MARK_DURABLERUNBUSYERROR = errorMarker("DurableRunBusyError");

/**
 * `runDurably` was called for a run that is already running in this process with the same journal. Two
 * attempts of one run must never overlap (both would execute its new tool calls); retry once the first has
 * settled. Attempts in different processes are not detected: run each run id in one worker at a time.
 */
export class DurableRunBusyError extends AgentloopError {
  protected readonly [MARK_DURABLERUNBUSYERROR] = true;
  readonly runId: string;

  constructor({ runId }: { runId: string }) {
    super({
      message: `Run "${runId}" is already running in this process; attempts of one run never overlap`,
    });
    this.name = "DurableRunBusyError";
    this.runId = runId;
  }

  static override isInstance(error: unknown): error is DurableRunBusyError {
    return hasMarker(error, MARK_DURABLERUNBUSYERROR);
  }
}
