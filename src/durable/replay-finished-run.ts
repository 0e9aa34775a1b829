import type { AgentEvent } from "../loop/agent-event.js";
import type { AgentLoopOutcome } from "../loop/agent-loop.js";
import { createEvent } from "../loop/create-event.js";
import { contentText, type MessageContent } from "../models/content-part.js";
import { journaledApprovals } from "./approval-records.js";
import type { DurableAttempt, DurableEventsOptions } from "./durable-events.js";
import type { EndRecord, JournalRecord, StartRecord } from "./journal-record.js";
import { JournalWriter } from "./journal-writer.js";
import { JournaledModel } from "./journaled-model.js";
import { journaledSteering } from "./journaled-steering.js";
import { journaledToolRegistry } from "./journaled-tool-registry.js";
import type { RunSummary } from "./run-summary.js";

/** Options of {@link replayFinishedRun}. */
export interface ReplayFinishedRunOptions extends DurableEventsOptions {
  start: StartRecord;
  end: EndRecord;
  records: readonly JournalRecord[];
  signal: AbortSignal;
}

/**
 * A finished run, answered from its log: the loop runs again on the journal alone (nothing is called or
 * executed, nothing is written, the session is not touched), so the result is whole — its events (marked
 * `replayed`), tool calls and messages. When the log cannot answer every step (it was compacted to its
 * result, or the agent changed so that the replay diverges), the journaled result is returned with the
 * events it implies: `loop_start`, an `action` and `observation` per tool call, `loop_end`.
 */
export async function* replayFinishedRun(
  options: ReplayFinishedRunOptions,
): AsyncGenerator<AgentEvent, AgentLoopOutcome> {
  const { start, end, records, signal, journal, runId } = options;
  const summary = end.result;
  const writer = new JournalWriter({ journal, runId, onFailure: () => undefined });
  const model = new JournaledModel({ model: options.model, records, writer, live: false });
  const attempt: DurableAttempt = {
    input: start.input,
    messages: start.messages,
    sessionId: undefined,
    resumed: true,
    model,
    tools: journaledToolRegistry({ tools: options.tools, runId, records, writer, live: false }),
    approvals: journaledApprovals(records),
    budget: undefined,
    signal,
    steering: journaledSteering({ records, writer, inbox: undefined, replaying: () => true }),
  };
  const events: AgentEvent[] = [];
  const run = options.run(attempt);
  let outcome: AgentLoopOutcome;
  while (true) {
    const next = await run.next();
    if (next.done) {
      outcome = next.value;
      break;
    }
    if (next.value.type !== "loop_end") next.value.replayed = true;
    events.push(next.value);
  }
  if (outcome.stopReason === summary.stopReason && outcome.text === summary.text) {
    keepDurations(events, summary);
    yield* events;
    return outcome;
  }
  yield* impliedEvents({ summary, input: start.input, model: `${model.provider}:${model.modelId}` });
  return {
    stopReason: summary.stopReason,
    text: summary.text,
    turns: summary.turns,
    usage: summary.usage,
    messages: summary.messages,
    costUsd: summary.costUsd,
    costUnknownModels: [],
    ...(summary.output !== undefined && { output: summary.output }),
  };
}

/** The events a journaled result implies (all `replayed`, but `loop_end`). */
function impliedEvents(args: { summary: RunSummary; input: MessageContent; model: string }): AgentEvent[] {
  const { summary } = args;
  const events: AgentEvent[] = [
    createEvent("loop_start", 0, { task: contentText(args.input), model: args.model }),
  ];
  for (const call of summary.toolCalls) {
    const ids = { toolCallId: call.id, toolName: call.name };
    events.push(createEvent("action", call.turn, { ...ids, arguments: call.arguments }));
    const { ok, result, durationMs } = call;
    events.push(createEvent("observation", call.turn, { ...ids, result, ok, durationMs }));
  }
  for (const event of events) event.replayed = true;
  events.push(createEvent("loop_end", summary.turns, { stopReason: summary.stopReason, text: summary.text }));
  return events;
}

/** Replayed tool calls took no time: their observations report the journaled durations instead. */
function keepDurations(events: AgentEvent[], summary: RunSummary): void {
  const durations = new Map<string, number[]>();
  for (const call of summary.toolCalls) {
    const list = durations.get(call.id);
    if (list === undefined) durations.set(call.id, [call.durationMs]);
    else list.push(call.durationMs);
  }
  for (const event of events) {
    if (event.type !== "observation") continue;
    const duration = durations.get(event.data.toolCallId)?.shift();
    if (duration !== undefined) event.data.durationMs = duration;
  }
}
