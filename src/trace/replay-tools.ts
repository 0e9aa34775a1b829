import type { Tool, ToolContext } from "../tools/tool.js";
import { TraceError } from "./trace-error.js";
import type { Trace, TraceToolResult } from "./trace-types.js";

/** Options of {@link recordedTools}. */
export interface RecordedToolsOptions {
  /** The tools to imitate (an agent's `tools.list()`). */
  tools: readonly Tool[];
  /** The recording whose `tool_result` records answer the calls. */
  trace: Trace;
  /** Called for a call that has no recorded result (the call then fails with a {@link TraceError}). */
  onMissing?: (call: { toolCallId: string; tool: string }) => void;
}

/** Results longer than this are never cut again: the recorded text is already what the model was sent. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

const TIMED_OUT = / timed out after (\d+) ms$/;

function errorNamed(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** Splits `"Type: message"`. */
function splitTyped(text: string): { type: string; message: string } | undefined {
  const colon = text.indexOf(": ");
  return colon <= 0 ? undefined : { type: text.slice(0, colon), message: text.slice(colon + 2) };
}

/**
 * What `execute` does so the executor reports exactly the recorded failure text. The executor wraps a throw
 * as `Tool "x" failed: Type: message` and a value JSON cannot represent as `Tool "x" returned a value that
 * cannot be sent as JSON: Type: message`: both are rebuilt from the text. A timeout is waited out again (the
 * tool gets the recorded timeout). Anything else cannot be reproduced and fails with a {@link TraceError}.
 */
function replayFailure(name: string, recorded: TraceToolResult, ctx: ToolContext): unknown {
  const quoted = JSON.stringify(name);
  const text = recorded.result;
  const thrown = text.startsWith(`Tool ${quoted} failed: `)
    ? splitTyped(text.slice(`Tool ${quoted} failed: `.length))
    : undefined;
  if (thrown !== undefined) throw errorNamed(thrown.type, thrown.message);
  const unserialisablePrefix = `Tool ${quoted} returned a value that cannot be sent as JSON: `;
  const unserialisable = text.startsWith(unserialisablePrefix)
    ? splitTyped(text.slice(unserialisablePrefix.length))
    : undefined;
  if (unserialisable !== undefined) {
    const error = errorNamed(unserialisable.type, unserialisable.message);
    return {
      toJSON: () => {
        throw error;
      },
    };
  }
  if (text.startsWith(`Tool ${quoted}`) && TIMED_OUT.test(text)) {
    // Never settles by itself: the executor's timer (the tool's recorded timeout) ends the call.
    return new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
  }
  throw new TraceError({
    message: `Replay cannot reproduce the recorded failure of tool call ${recorded.toolCallId}: ${text}`,
  });
}

/**
 * Stand-ins for `tools` that answer each call with its recorded `tool_result` (looked up by
 * `ctx.toolCallId`) instead of running: same name, description, schema and argument validation, so the model
 * sees the same tools and invalid arguments fail the same way. Recorded failures are reproduced with the same
 * text when the executor allows it: a throw, a result JSON cannot represent, a timeout (waited out again);
 * any other failure (e.g. an aborted call) fails with a different text. A call with no recorded result fails
 * with a {@link TraceError} and is reported to `onMissing`.
 */
export function recordedTools({ tools, trace, onMissing }: RecordedToolsOptions): Tool[] {
  const results = new Map<string, TraceToolResult[]>();
  const timeouts = new Map<string, number>();
  for (const record of trace.records) {
    if (record.kind !== "tool_result") continue;
    const queue = results.get(record.data.toolCallId);
    if (queue === undefined) results.set(record.data.toolCallId, [record.data]);
    else queue.push(record.data);
    const timedOut = record.data.ok ? null : TIMED_OUT.exec(record.data.result);
    if (timedOut?.[1] !== undefined) timeouts.set(record.data.tool, Number(timedOut[1]));
  }
  return tools.map((original) => {
    const execute = (_args: unknown, ctx: ToolContext): unknown => {
      const recorded = results.get(ctx.toolCallId)?.shift();
      if (recorded === undefined) {
        onMissing?.({ toolCallId: ctx.toolCallId, tool: original.name });
        throw new TraceError({
          message: `Replay: tool call ${ctx.toolCallId} (${original.name}) was not recorded`,
        });
      }
      return recorded.ok ? recorded.result : replayFailure(original.name, recorded, ctx);
    };
    const stand: Tool = {
      ...original,
      timeoutMs: timeouts.get(original.name) ?? Number.POSITIVE_INFINITY,
      maxResultChars: NO_LIMIT,
      execute,
    };
    return Object.freeze(stand);
  });
}
