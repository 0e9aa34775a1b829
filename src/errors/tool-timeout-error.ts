import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_TOOLTIMEOUTERROR = errorMarker("ToolTimeoutError");

/**
 * A tool did not finish within its timeout. Its `ctx.signal` is aborted with this error as the reason, and the
 * executor moves on without waiting for it.
 */
export class ToolTimeoutError extends AgentloopError {
  protected readonly [MARK_TOOLTIMEOUTERROR] = true;
  /** The tool that timed out. */
  readonly toolName: string;
  /** The timeout that was exceeded. */
  readonly timeoutMs: number;

  constructor({ toolName, timeoutMs }: { toolName: string; timeoutMs: number }) {
    super({ message: `Tool ${JSON.stringify(toolName)} timed out after ${timeoutMs} ms` });
    this.name = "ToolTimeoutError";
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is ToolTimeoutError {
    return hasMarker(error, MARK_TOOLTIMEOUTERROR);
  }
}
