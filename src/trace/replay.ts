import type { Agent } from "../agent.js";
import { TraceError } from "../errors/trace-error.js";
import type { AgentResult } from "../loop/agent-result.js";
import { type Divergence, ReplayModel } from "./replay-model.js";
import { childPath, recordedEnd } from "./replay-through-pauses.js";
import { recordedTools } from "./replay-tools.js";
import type { Trace, TraceMeta } from "./trace-types.js";
import { upgradeTrace } from "./upgrade-trace.js";
import { verifyTrace } from "./verify-trace.js";

/** Options of {@link replay}. */
export interface ReplayOptions {
  /** The agent to replay with (its options: system prompt, tools, limits…); its model is not called. */
  agent: Agent;
  /** Run the agent's real tools instead of answering tool calls with the recorded results. Default false. */
  liveTools?: boolean;
}

/** What {@link replay} found. */
export interface ReplayOutcome {
  /** The replayed run's result. */
  result: AgentResult;
  /** Where the replay first went a different way than the recording; null when it did not. */
  divergence: Divergence | null;
}

/**
 * Runs a recorded run again without calling a model: model call N is answered with the recorded response N
 * ({@link ReplayModel}) and, unless `liveTools`, each tool call with its recorded result. The trace is verified
 * first (a broken one is rejected with a {@link TraceError} naming the bad record); a trace recorded by
 * agentloop 0.1 is then read in the current shape. The replay starts from the
 * recorded input and prior conversation, with `agent.with({ model, tools })`.
 *
 * `divergence` is the first difference: a model request that differs from the recorded one (path inside the
 * request, e.g. `"messages[3].content"`), a tool call with no recorded result (`"toolResults.<id>"`), a model
 * call the recording does not have or a recorded one the replay did not make (path `""`), or, when every
 * request matched, a different final text (`"result.text"`) or stop reason (`"result.stopReason"`).
 *
 * @example
 * const { result, divergence } = await replay(await loadTrace("run.jsonl"), { agent });
 */
export async function replay(recorded: Trace, options: ReplayOptions): Promise<ReplayOutcome> {
  const { agent, liveTools = false } = options;
  const check = verifyTrace(recorded);
  if (!check.ok) {
    throw new TraceError({
      message: `The trace is broken at record ${check.brokenAt}: ${check.reason}`,
      seq: check.brokenAt,
    });
  }
  const trace = upgradeTrace(recorded);
  const meta = (trace.records[0] as { data: TraceMeta }).data;
  let divergence: Divergence | null = null;
  const note = (found: Divergence): void => {
    divergence ??= found;
  };
  const model = new ReplayModel({ trace, onDivergence: note });
  const replayAgent = liveTools
    ? agent.with({ model })
    : agent.with({
        model,
        tools: recordedTools({
          tools: agent.tools.list(),
          trace,
          onMissing: ({ toolCallId, tool }) =>
            note({
              call: Math.max(0, model.calls - 1),
              path: childPath("toolResults", toolCallId),
              expected: undefined,
              actual: { toolCallId, tool },
            }),
        }),
      });
  const result = await replayAgent.run(meta.input, { messages: meta.messages });

  if (divergence === null && model.calls < model.recordedCalls) {
    note({ call: model.calls, path: "", expected: model.recordedRequest(model.calls), actual: undefined });
  }
  if (divergence === null) {
    const last = Math.max(0, model.calls - 1);
    const end = recordedEnd(trace);
    if (end !== undefined && end.text !== result.text) {
      note({ call: last, path: "result.text", expected: end.text, actual: result.text });
    } else if (end !== undefined && end.stopReason !== result.stopReason) {
      note({ call: last, path: "result.stopReason", expected: end.stopReason, actual: result.stopReason });
    }
  }
  return { result, divergence };
}
