import { describeThrown } from "../util/describe-thrown.js";
import { toError } from "../util/to-error.js";
import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_TOOLEXECUTIONERROR = errorMarker("ToolExecutionError");

/**
 * The type of a thrown value: its `name` (when set and not plain "Error"), else its constructor's name; for
 * other values `typeof` (`"Proxy"` for a Proxy). Never throws (see `describeThrown`).
 */
export function errorTypeOf(error: unknown): string {
  const { type, error: readable } = describeThrown(error);
  if (readable === undefined) return type;
  if (readable.name && readable.name !== "Error") return readable.name;
  try {
    const constructorName: unknown = (error as Error).constructor?.name;
    return typeof constructorName === "string" && constructorName !== "" ? constructorName : "Error";
  } catch {
    return "Error";
  }
}

/** The message of a thrown value (its `message` for errors, else its string form). Never throws. */
export function errorMessageOf(error: unknown): string {
  const { type, text, error: readable } = describeThrown(error);
  if (readable !== undefined) return readable.message;
  if (typeof error === "string") return error;
  if (type === "Proxy" || type === "Error") return text;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return text;
  }
}

/**
 * A tool threw (or its result could not be serialised). The message (sent back to the model) gives the thrown
 * error's type and message; `cause` is the thrown Error, or a `ThrownValueError` holding any other thrown value.
 */
export class ToolExecutionError extends AgentloopError {
  protected readonly [MARK_TOOLEXECUTIONERROR] = true;
  /** The tool that failed. */
  readonly toolName: string;

  constructor({ toolName, cause, message }: { toolName: string; cause: unknown; message?: string }) {
    super({
      message:
        message ?? `Tool ${JSON.stringify(toolName)} failed: ${errorTypeOf(cause)}: ${errorMessageOf(cause)}`,
      // A value that is not a readable Error (a Proxy, an object whose getters throw) is kept inside a
      // ThrownValueError, so logging this error (util.inspect walks `cause`) cannot throw.
      cause: toError(cause),
    });
    this.name = "ToolExecutionError";
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is ToolExecutionError {
    return hasMarker(error, MARK_TOOLEXECUTIONERROR);
  }
}
