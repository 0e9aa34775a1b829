import { parseToolFailure, type RecordedToolFailure, TOOL_TIMEOUT_ERROR } from "../run-log/tool-failure.js";

/** Options of {@link toolFailureOf}: an `observation` event's data. */
export interface ToolFailureOfOptions {
  /** The tool's name. */
  tool: string;
  /** The text the model was sent (truncated to the tool's result limit). */
  result: string;
  /** The executor's error: `ToolExecutionError` for a throw or an unserialisable value, `ToolTimeoutError`... */
  error?: { type: string; message: string } | undefined;
}

/**
 * The structured failure of a failed tool call, from its `observation` (what the trace records in
 * `tool_result.failure`): how it failed is the executor's error type (`ToolTimeoutError`: `timed_out`;
 * `ToolExecutionError`: `threw` or `unserialisable`, as its text says), the failing error's type and message
 * are read from the executor's fixed text so that replaying them gives back exactly `result`. Undefined for
 * failures a replay does not reproduce by answering the call (invalid arguments, unknown tool, abort...).
 */
export function toolFailureOf({
  tool,
  result,
  error,
}: ToolFailureOfOptions): RecordedToolFailure | undefined {
  if (error?.type === TOOL_TIMEOUT_ERROR)
    return { how: "timed_out", type: TOOL_TIMEOUT_ERROR, message: result };
  if (error?.type !== "ToolExecutionError") return undefined;
  const failure = parseToolFailure({ tool, text: result });
  return failure?.how === "timed_out" ? undefined : failure;
}
