import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_SESSIONBUSYERROR = errorMarker("SessionBusyError");

/**
 * Another run holds the session (in this process or another one sharing the store). Runs of one session are
 * never interleaved: the second one is rejected with this error; retry it after the first has finished.
 */
export class SessionBusyError extends AgentloopError {
  protected readonly [MARK_SESSIONBUSYERROR] = true;
  readonly sessionId: string;

  constructor({ sessionId }: { sessionId: string }) {
    super({
      message: `Session "${sessionId}" is in use by another run; runs of one session are never interleaved`,
    });
    this.name = "SessionBusyError";
    this.sessionId = sessionId;
  }

  static override isInstance(error: unknown): error is SessionBusyError {
    return hasMarker(error, MARK_SESSIONBUSYERROR);
  }
}
