import { AgentloopError, errorMarker, hasMarker } from "../errors/agentloop-error.js";

const MARK_TOOLEXECUTIONERROR = errorMarker("ToolExecutionError");

/** The type of a thrown value: its `name` (when set and not plain "Error"), else its constructor's name. */
export function errorTypeOf(error: unknown): string {
  if (error instanceof Error) {
    if (error.name && error.name !== "Error") return error.name;
    const constructorName = error.constructor?.name;
    return constructorName ? constructorName : "Error";
  }
  if (error === null) return "null";
  return typeof error;
}

/** The message of a thrown value (its `message` for errors, else its string form). */
export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * A tool threw (or its result could not be serialised). The message (sent back to the model) gives the thrown
 * error's type and message; `cause` is the thrown value itself.
 */
export class ToolExecutionError extends AgentloopError {
  protected readonly [MARK_TOOLEXECUTIONERROR] = true;
  /** The tool that failed. */
  readonly toolName: string;

  constructor({ toolName, cause, message }: { toolName: string; cause: unknown; message?: string }) {
    super({
      message:
        message ?? `Tool ${JSON.stringify(toolName)} failed: ${errorTypeOf(cause)}: ${errorMessageOf(cause)}`,
      cause,
    });
    this.name = "ToolExecutionError";
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is ToolExecutionError {
    return hasMarker(error, MARK_TOOLEXECUTIONERROR);
  }
}
