import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_TRACEERROR = errorMarker("TraceError");

/**
 * A trace cannot be used: its file is not a trace (or is from a newer version), its hash chain is broken, or
 * a replay asked for something the trace does not hold. `seq` names the record at fault, when there is one.
 */
export class TraceError extends AgentloopError {
  protected readonly [MARK_TRACEERROR] = true;
  /** The `seq` of the record at fault, when the problem is one record. */
  readonly seq: number | undefined;

  constructor({ message, seq, cause }: { message: string; seq?: number; cause?: unknown }) {
    super({ message, cause });
    this.name = "TraceError";
    this.seq = seq;
  }

  static override isInstance(error: unknown): error is TraceError {
    return hasMarker(error, MARK_TRACEERROR);
  }
}
