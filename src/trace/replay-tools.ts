import { TraceError } from "../errors/trace-error.js";
import { contentText } from "../models/content-part.js";
import { replayToolResult } from "../run-log/replay-tool-result.js";
import {
  parseToolFailure,
  type RecordedToolFailure,
  timeoutOf,
  toolFailureText,
} from "../run-log/tool-failure.js";
import { describeContent } from "../tools/describe-content.js";
import type { Tool, ToolContext } from "../tools/tool.js";
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

/**
 * The recorded failure of a call, as the executor will report it again: the record's `failure` when it gives
 * back the recorded text (a trace recorded before `failure` existed, or redacted so that the two differ, is
 * read from the text instead). Undefined when the failure cannot be reproduced.
 */
function failureOf(name: string, recorded: TraceToolResult): RecordedToolFailure | undefined {
  const { failure } = recorded;
  const result = contentText(recorded.result);
  if (failure !== undefined && toolFailureText({ tool: name, failure }) === result) return failure;
  return parseToolFailure({ tool: name, text: result });
}

/** What `execute` does so the executor reports exactly the recorded result (see {@link recordedTools}). */
function replayRecorded(name: string, recorded: TraceToolResult, ctx: ToolContext): unknown {
  if (recorded.ok) return replayToolResult({ recorded: { ok: true, content: recorded.result } });
  const failure = failureOf(name, recorded);
  if (failure === undefined) {
    throw new TraceError({
      message: `Replay cannot reproduce the recorded failure of tool call ${recorded.toolCallId}: ${describeContent(recorded.result)}`,
    });
  }
  return replayToolResult({
    recorded: { ok: false, content: recorded.result, failure },
    // Waited out again: the stand-in's timeout is the recorded one, so the executor reports the same text.
    waitOutTimeout: ctx.signal,
  });
}

/**
 * Stand-ins for `tools` that answer each call with its recorded `tool_result` (looked up by
 * `ctx.toolCallId`) instead of running: same name, description, schema and argument validation, so the model
 * sees the same tools and invalid arguments fail the same way. Recorded failures are reproduced with the same
 * text by the run log's one tool replay path (`replayToolResult`, as a durable run's resume does), from the
 * record's structured `failure` (read back from the text for traces recorded before it existed): a throw, a
 * result JSON cannot represent, a timeout (waited out again: the stand-in's timeout is the recorded one). Any
 * other failure (e.g. an aborted call) fails with a different text. A call with no recorded result fails
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
    const timeoutMs = record.data.ok ? undefined : timeoutOf(contentText(record.data.result));
    if (timeoutMs !== undefined) timeouts.set(record.data.toolName, timeoutMs);
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
      return replayRecorded(original.name, recorded, ctx);
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
