import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_INVALIDARGUMENTERROR = errorMarker("InvalidArgumentError");

/**
 * A caller passed an invalid option or argument (a negative limit, an unknown model string, a duplicate tool
 * name). Thrown at construction time, never deep inside a run. `argument` names the offending option.
 */
export class InvalidArgumentError extends AgentloopError {
  protected readonly [MARK_INVALIDARGUMENTERROR] = true;
  readonly argument: string;

  constructor({ argument, message, cause }: { argument: string; message: string; cause?: unknown }) {
    super({ message: `Invalid ${argument}: ${message}`, cause });
    this.name = "InvalidArgumentError";
    this.argument = argument;
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return hasMarker(error, MARK_INVALIDARGUMENTERROR);
  }
}
