import { ToolTimeoutError } from "../errors/tool-timeout-error.js";
import { contentText, type MessageContent } from "../models/content-part.js";
import { toolContent } from "../tools/tool-content.js";
import { type RecordedToolFailure, timeoutOf } from "./tool-failure.js";

/** A recorded tool call result, as a run log holds it (a journal's or a trace's `tool_result`). */
export interface RecordedToolResult {
  /** False when the call failed. */
  ok: boolean;
  /** What the model was sent: the tool's result when `ok` (text or content parts), else the error text. */
  content: MessageContent;
  /** With `ok: false`: how the call failed. A failure without it cannot be replayed (see below). */
  failure?: RecordedToolFailure | undefined;
}

/** Options of {@link replayToolResult}. */
export interface ReplayToolResultOptions {
  recorded: RecordedToolResult;
  /**
   * The tool's name: with it, a recorded timeout not waited out is thrown as a `ToolTimeoutError`, which the
   * executor reports with the recorded text (`Tool "x" timed out after N ms`).
   */
  toolName?: string | undefined;
  /**
   * The call's `ctx.signal`, to wait out a recorded timeout again: the returned promise settles only when the
   * signal aborts, so the executor's timer (the stand-in tool's `timeoutMs` set to the recorded timeout)
   * reports `Tool "x" timed out after N ms` exactly as recorded. Without it a recorded timeout is thrown at
   * once (the model then reads `Tool "x" failed: ToolTimeoutError: Tool "x" timed out after N ms`).
   */
  waitOutTimeout?: AbortSignal | undefined;
}

/** An error with this name and message (what the executor reports as `<name>: <message>`). */
export function errorNamed(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** A value the executor fails to serialise with exactly this error (so it reports the same text). */
function unserialisable(failure: RecordedToolFailure): { toJSON: () => never } {
  return {
    toJSON: () => {
      throw errorNamed(failure.type, failure.message);
    },
  };
}

/**
 * What a stand-in tool's `execute` does so that the tool executor reports a recorded result again, with the
 * same text, without running the tool: the recorded content when `ok` (content parts as `toolContent`, so
 * the model gets the same images and files); for a failure, the recorded error thrown again (`threw`), a
 * value that fails to serialise with the recorded error (`unserialisable`), or a timeout waited out or thrown
 * (see {@link ReplayToolResultOptions.waitOutTimeout}). The one replay path of recorded tool calls: a durable
 * run's resume and a trace's replay both answer calls with it. A failure with no `failure` is thrown as an
 * `Error` whose message is the recorded content.
 */
export function replayToolResult({ recorded, waitOutTimeout, toolName }: ReplayToolResultOptions): unknown {
  const { content } = recorded;
  // Parts are handed back as `toolContent`, so the executor sends the same parts (images included).
  if (recorded.ok) return typeof content === "string" ? content : toolContent(content);
  const failure = recorded.failure ?? { how: "threw", type: "Error", message: contentText(content) };
  if (failure.how === "unserialisable") return unserialisable(failure);
  if (failure.how === "timed_out" && waitOutTimeout !== undefined) {
    const signal = waitOutTimeout;
    return new Promise((resolve) => {
      if (signal.aborted) resolve(undefined);
      else signal.addEventListener("abort", () => resolve(undefined), { once: true });
    });
  }
  const timeoutMs = failure.how === "timed_out" ? timeoutOf(failure.message) : undefined;
  // Thrown as the executor's own timeout: it reports it with the same text, without waiting again.
  if (timeoutMs !== undefined && toolName !== undefined) throw new ToolTimeoutError({ toolName, timeoutMs });
  throw errorNamed(failure.type, failure.message);
}
