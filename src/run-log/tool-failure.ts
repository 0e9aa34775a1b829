/**
 * How a recorded tool call failed, so that a replay reproduces it: `threw` (the executor reports
 * `Tool "x" failed: <type>: <message>`), `unserialisable` (it returned a value JSON cannot hold: `Tool "x"
 * returned a value that cannot be sent as JSON: <type>: <message>`) or `timed_out` (it did not finish within
 * its timeout; `type` is `ToolTimeoutError`, `message` the timeout text). A durable run's journal and a trace
 * record failures in this one shape.
 */
export interface RecordedToolFailure {
  how: "threw" | "unserialisable" | "timed_out";
  /** The error's type (its name or class). */
  type: string;
  message: string;
}

/** The error type of a timed-out tool call. */
export const TOOL_TIMEOUT_ERROR = "ToolTimeoutError";

const TIMED_OUT = / timed out after (\d+) ms$/;

/** The prefixes of the executor's failure texts for tool `tool`. */
function prefixes(tool: string): { threw: string; unserialisable: string } {
  const quoted = JSON.stringify(tool);
  return {
    threw: `Tool ${quoted} failed: `,
    unserialisable: `Tool ${quoted} returned a value that cannot be sent as JSON: `,
  };
}

/** Splits `"Type: message"`. */
function splitTyped(text: string): { type: string; message: string } | undefined {
  const colon = text.indexOf(": ");
  return colon <= 0 ? undefined : { type: text.slice(0, colon), message: text.slice(colon + 2) };
}

/** Options of {@link toolFailureText}. */
export interface ToolFailureTextOptions {
  /** The tool's name. */
  tool: string;
  failure: RecordedToolFailure;
}

/** Options of {@link parseToolFailure}. */
export interface ParseToolFailureOptions {
  /** The tool's name. */
  tool: string;
  /** The text the model was sent. */
  text: string;
}

/** The text the tool executor sends the model for `failure` of a call of `tool` (before any truncation). */
export function toolFailureText({ tool, failure }: ToolFailureTextOptions): string {
  if (failure.how === "timed_out") return failure.message;
  const { threw, unserialisable } = prefixes(tool);
  return `${failure.how === "unserialisable" ? unserialisable : threw}${failure.type}: ${failure.message}`;
}

/**
 * The failure a text the executor sent the model stands for, read back from the text (for a trace recorded
 * before `tool_result` records carried their failure): `Tool "x" failed: Type: message`, `Tool "x" returned
 * a value that cannot be sent as JSON: Type: message` or `Tool "x" timed out after N ms`. Undefined for any
 * other text (an aborted call, invalid arguments, an unknown tool: failures the executor makes itself).
 */
export function parseToolFailure({ tool, text }: ParseToolFailureOptions): RecordedToolFailure | undefined {
  const { threw, unserialisable } = prefixes(tool);
  if (text.startsWith(threw)) {
    const typed = splitTyped(text.slice(threw.length));
    return typed && { how: "threw", ...typed };
  }
  if (text.startsWith(unserialisable)) {
    const typed = splitTyped(text.slice(unserialisable.length));
    return typed && { how: "unserialisable", ...typed };
  }
  if (text.startsWith(`Tool ${JSON.stringify(tool)}`) && TIMED_OUT.test(text)) {
    return { how: "timed_out", type: TOOL_TIMEOUT_ERROR, message: text };
  }
  return undefined;
}

/** The timeout in ms a timed-out call's text names (`... timed out after N ms`), if it names one. */
export function timeoutOf(text: string): number | undefined {
  const match = TIMED_OUT.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
