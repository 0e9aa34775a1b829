import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_DURABLERUNBUSYERROR = errorMarker("DurableRunBusyError");

/**
 * `runDurably` was called for a run that is already being attempted: in this process, or by any journal object
 * or process sharing the journal's storage (the attempt holds the journal's run lock). Two attempts of one run
 * must never overlap (both would execute its new tool calls); retry once the first has settled. A custom
 * journal without `lock` is only guarded within one process.
 */
export class DurableRunBusyError extends AgentloopError {
  protected readonly [MARK_DURABLERUNBUSYERROR] = true;
  readonly runId: string;

  constructor({ runId }: { runId: string }) {
    super({
      message: `Run "${runId}" is already being attempted (in this process or another one sharing the journal); attempts of one run never overlap`,
    });
    this.name = "DurableRunBusyError";
    this.runId = runId;
  }

  static override isInstance(error: unknown): error is DurableRunBusyError {
    return hasMarker(error, MARK_DURABLERUNBUSYERROR);
  }
}
