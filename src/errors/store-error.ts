import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_STOREERROR = errorMarker("StoreError");

/**
 * A session or state store failed: the backend is unreachable, a record is corrupt beyond the tolerated torn
 * last line, or a record comes from a newer schema version. `operation` names what was attempted; nothing
 * partial was written.
 */
export class StoreError extends AgentloopError {
  protected readonly [MARK_STOREERROR] = true;
  readonly operation: string;
  readonly sessionId: string | undefined;

  constructor({
    message,
    operation,
    sessionId,
    cause,
  }: { message: string; operation: string; sessionId?: string; cause?: unknown }) {
    super({ message, cause });
    this.name = "StoreError";
    this.operation = operation;
    this.sessionId = sessionId;
  }

  static override isInstance(error: unknown): error is StoreError {
    return hasMarker(error, MARK_STOREERROR);
  }
}
