import type { ToolCall, ToolMessage } from "../models/message.js";
import type { RunState } from "../sessions/run-state.js";
import { describeContent } from "../tools/describe-content.js";
import { executeToolCalls } from "../tools/execute-tool-calls.js";
import { setObservationContent } from "../tools/observation-content.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import { AsyncChannel } from "../util/async-channel.js";
import type { AgentEvent } from "./agent-event.js";
import { createEvent } from "./create-event.js";

/** A tool call waiting for a human's decision. */
export interface PendingApproval {
  toolCallId: string;
  toolName: string;
  arguments: unknown;
}

/** A human's decisions on pending calls, by tool call id. Calls in neither list are denied. */
export interface ApprovalDecisions {
  approve: ReadonlySet<string>;
  deny: ReadonlySet<string>;
}

/** Options of {@link toolStep}: the one options type of the tool path (the loop builds it once per run). */
export interface ToolStepOptions {
  /** The calls of one model turn. */
  calls: ToolCall[];
  registry: ToolRegistry;
  /** The turn, passed to tools as `ctx.turn` and set on the turn's events. */
  turn: number;
  /** The run's signal: aborting it aborts every running tool. */
  signal: AbortSignal;
  parallel: boolean;
  concurrency: number | undefined;
  /** Timeout of tools that set none. */
  timeoutMs: number;
  maxResultChars: number | undefined;
  sessionId?: string | undefined;
  state?: RunState | undefined;
  /** Set when resuming a paused turn; without it, calls that need approval pause the turn. */
  decisions?: ApprovalDecisions | undefined;
}

/** What a tool step did: ran the turn's calls (tool messages in call order), or paused for approval. */
export type ToolStepResult =
  | { kind: "done"; messages: ToolMessage[] }
  | { kind: "paused"; pending: PendingApproval[] };

/** The tool result of a call a human denied (or did not approve). */
export const DENIED_RESULT = "The user denied this tool call; it was not executed.";

const DENIED_ERROR = Object.freeze({ type: "ApprovalDenied", message: DENIED_RESULT });

async function needsApproval(call: ToolCall, registry: ToolRegistry): Promise<boolean> {
  const tool = registry.get(call.name);
  if (tool === undefined || call.parseError !== undefined) return false; // it fails anyway, with a clear result
  try {
    return await tool.requiresApproval(call.arguments);
  } catch {
    return true; // a failing approval check must not let the call through
  }
}

function toolMessage(outcome: ToolOutcome): ToolMessage {
  const message: ToolMessage = {
    role: "tool",
    toolCallId: outcome.toolCallId,
    toolName: outcome.toolName,
    content: outcome.content,
  };
  if (!outcome.ok) message.isError = true;
  return message;
}

/** The `observation` of an outcome: its result as text (media parts as notes, kept aside for the trace). */
function observation(outcome: ToolOutcome, turn: number): AgentEvent {
  const event = createEvent("observation", turn, {
    toolCallId: outcome.toolCallId,
    toolName: outcome.toolName,
    result: describeContent(outcome.content),
    ok: outcome.ok,
    durationMs: outcome.durationMs,
    ...(outcome.error !== undefined && { error: outcome.error }),
  });
  if (typeof outcome.content !== "string")
    setObservationContent({ data: event.data, parts: outcome.content });
  return event;
}

function deniedOutcome(call: ToolCall): ToolOutcome {
  const error = { ...DENIED_ERROR };
  return {
    toolCallId: call.id,
    toolName: call.name,
    ok: false,
    content: DENIED_RESULT,
    error,
    durationMs: 0,
  };
}

/**
 * One run of the executor over a turn's runnable calls: `events` yields an `observation` as each call
 * finishes (every call exactly one, also when it was aborted) and closes when all are done; `outcomes` is
 * then in call order.
 */
class ToolRun {
  readonly events = new AsyncChannel<AgentEvent>();
  outcomes: ToolOutcome[] = [];

  constructor({ options, calls }: { options: ToolStepOptions; calls: ToolCall[] }) {
    const { turn } = options;
    const observed = new Set<string>();
    executeToolCalls({
      calls,
      registry: options.registry,
      turn,
      sessionId: options.sessionId,
      state: options.state,
      signal: options.signal,
      parallel: options.parallel,
      approved: options.decisions?.approve,
      defaultTimeoutMs: options.timeoutMs,
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      ...(options.maxResultChars !== undefined && { maxResultChars: options.maxResultChars }),
      onEnd: (outcome) => {
        observed.add(outcome.toolCallId);
        this.events.push(observation(outcome, turn));
      },
    }).then(
      (outcomes) => {
        this.outcomes = outcomes;
        for (const outcome of outcomes)
          if (!observed.has(outcome.toolCallId)) this.events.push(observation(outcome, turn));
        this.events.close();
      },
      (error: unknown) => this.events.fail(error),
    );
  }
}

/**
 * The tool half of a turn, over `executeToolCalls`. Calls whose tool `needsApproval` pause the whole turn
 * (nothing runs; an `approval_requested` event) unless `decisions` are given: then approved and ungated calls
 * run, denied ones (and gated ones in neither list) get a "denied" result. Approval is decided per call id by
 * the human, so a tool result that tells the model to call a gated tool cannot get around it. Otherwise: an
 * `action` event for every call, then an `observation` as each finishes; the tool messages in call order.
 */
export async function* toolStep(options: ToolStepOptions): AsyncGenerator<AgentEvent, ToolStepResult> {
  const { calls, registry, turn, decisions } = options;
  const gated = new Set<string>();
  for (const call of calls) {
    // Most tools never need approval: decide those synchronously (no promise per call on the hot path).
    if (registry.get(call.name)?.needsApproval === false) continue;
    if (await needsApproval(call, registry)) gated.add(call.id);
  }
  if (gated.size > 0 && decisions === undefined) {
    const pending = calls
      .filter((call) => gated.has(call.id))
      .map((call) => ({
        toolCallId: call.id,
        toolName: call.name,
        arguments: call.arguments ?? call.rawArguments,
      }));
    yield createEvent("approval_requested", turn, { calls: pending });
    return { kind: "paused", pending };
  }
  for (const call of calls) {
    const args = call.arguments ?? call.rawArguments;
    yield createEvent("action", turn, { toolCallId: call.id, toolName: call.name, arguments: args });
  }
  const denied =
    gated.size === 0 ? undefined : new Set([...gated].filter((id) => !decisions?.approve.has(id)));
  const runnable = denied === undefined ? calls : calls.filter((call) => !denied.has(call.id));
  const outcomes = new Map<string, ToolOutcome>();
  if (runnable.length > 0) {
    const run = new ToolRun({ options, calls: runnable });
    for await (const event of run.events) yield event;
    for (const outcome of run.outcomes) outcomes.set(outcome.toolCallId, outcome);
  }
  if (denied !== undefined) {
    for (const call of calls) {
      if (!denied.has(call.id)) continue;
      const outcome = deniedOutcome(call);
      outcomes.set(call.id, outcome);
      yield observation(outcome, turn);
    }
  }
  return { kind: "done", messages: inCallOrder({ calls, outcomes }) };
}

/** The tool messages of `calls`, in call order (a call without an outcome has none). */
function inCallOrder({
  calls,
  outcomes,
}: {
  calls: ToolCall[];
  outcomes: ReadonlyMap<string, ToolOutcome>;
}): ToolMessage[] {
  const messages: ToolMessage[] = [];
  for (const call of calls) {
    const outcome = outcomes.get(call.id);
    if (outcome !== undefined) messages.push(toolMessage(outcome));
  }
  return messages;
}
