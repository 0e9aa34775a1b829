import type { ToolCall } from "../models/message.js";
import type { RunState } from "../sessions/run-state.js";
import { executeToolCalls, type ToolOutcome } from "../tools/execute-tool-calls.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import { AsyncChannel } from "../util/async-channel.js";
import type { AgentEvent } from "./agent-event.js";
import { createEvent } from "./create-event.js";

/** Options of {@link runTools}. */
export interface RunToolsOptions {
  calls: ToolCall[];
  registry: ToolRegistry;
  step: number;
  signal: AbortSignal;
  parallel: boolean;
  concurrency: number | undefined;
  timeoutMs: number;
  maxResultChars: number | undefined;
  sessionId?: string | undefined;
  state?: RunState | undefined;
  /** Ids of gated calls a human approved (see {@link executeToolCalls}). */
  approved?: ReadonlySet<string> | undefined;
}

function observation(outcome: ToolOutcome, step: number): AgentEvent {
  return createEvent("observation", step, {
    toolCallId: outcome.toolCallId,
    tool: outcome.toolName,
    result: outcome.content,
    ok: outcome.ok,
    durationMs: outcome.durationMs,
    ...(outcome.error !== undefined && { error: outcome.error }),
  });
}

/**
 * Runs one turn's tool calls through the executor, yielding an `observation` event as each call finishes and
 * returning the outcomes in call order. Every call gets exactly one observation, also when it was aborted.
 */
export async function* runTools(options: RunToolsOptions): AsyncGenerator<AgentEvent, ToolOutcome[]> {
  const { step } = options;
  const channel = new AsyncChannel<AgentEvent>();
  const observed = new Set<string>();
  let outcomes: ToolOutcome[] = [];
  executeToolCalls({
    calls: options.calls,
    registry: options.registry,
    step,
    sessionId: options.sessionId,
    state: options.state,
    signal: options.signal,
    parallel: options.parallel,
    approved: options.approved,
    defaultTimeoutMs: options.timeoutMs,
    ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
    ...(options.maxResultChars !== undefined && { maxResultChars: options.maxResultChars }),
    onEnd: (outcome) => {
      observed.add(outcome.toolCallId);
      channel.push(observation(outcome, step));
    },
  }).then(
    (result) => {
      outcomes = result;
      for (const outcome of result)
        if (!observed.has(outcome.toolCallId)) channel.push(observation(outcome, step));
      channel.close();
    },
    (error: unknown) => channel.fail(error),
  );
  for await (const event of channel) yield event;
  return outcomes;
}
