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
import type { GuardrailStop, ToolGuardrails } from "./policies/guardrails-tools.js";
import type { PausedTurn, StepCaller, SubAgents } from "./policies/sub-agents.js";

/** A tool call waiting for a human's decision. */
export interface PendingApproval {
  toolCallId: string;
  toolName: string;
  arguments: unknown;
  /**
   * For a call inside a sub-agent (`agent.asTool`): the sub-agent's path (`"lead/researcher"`). Decide it like
   * any other pending call, by its `toolCallId`.
   */
  agent?: string;
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
  /** The run's tool guardrails (runs with some): calls are checked before they run, results before they count. */
  guardrails?: ToolGuardrails | undefined;
  /** The run's side of its sub-agent tools (runs with some): their calls get a caller (see `CALLER_RUN`). */
  subAgents?: SubAgents | undefined;
  /** The paused turn this step resumes, when it paused inside a sub-agent: its finished calls do not run again. */
  resumed?: PausedTurn | undefined;
}

/**
 * What a tool step did: ran the turn's calls (tool messages in call order), paused for approval, or was
 * stopped by a tool guardrail (`blocked`: the run ends; `messages` answer the calls that were settled, the
 * loop's end answers the rest).
 */
export type ToolStepResult =
  | { kind: "done"; messages: ToolMessage[] }
  | { kind: "paused"; pending: PendingApproval[]; pausedTurn?: PausedTurn | undefined }
  | { kind: "blocked"; messages: ToolMessage[] };

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

/** The tool message of a result a guardrail withheld (`Withheld: …`), and of calls its block cut off. */
function stoppedContent(stop: GuardrailStop, withheld: boolean): string {
  const name = JSON.stringify(stop.error.guardrailName);
  return withheld
    ? `Withheld: guardrail ${name} blocked this result; the run stopped.`
    : `Cancelled: guardrail ${name} stopped the run.`;
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
 * then in call order. With result guardrails, each outcome is reviewed before it counts; a block stops the
 * batch there (`stopped`): the blocked result is withheld (its observation says so), and calls the block cut
 * off (not started, or still running) are cancelled.
 */
class ToolRun {
  readonly events = new AsyncChannel<AgentEvent>();
  outcomes: ToolOutcome[] = [];
  /** The block that stopped the batch, and the call whose result it withheld. */
  stopped: { stop: GuardrailStop; toolCallId: string } | undefined;
  /** Calls whose results were kept: reported before the executor stopped (only tracked with result guardrails). */
  readonly kept: Set<string> | undefined;
  /** Blocks found by reviews, by call id (the executor stops on the first one it records); made on the first. */
  private blocks: Map<string, GuardrailStop> | undefined;
  /** What the step's sub-agent calls get from the run (runs with sub-agent tools); collects their pauses. */
  readonly caller: StepCaller | undefined;

  constructor({ options, calls }: { options: ToolStepOptions; calls: ToolCall[] }) {
    const { turn, guardrails } = options;
    const observed = new Set<string>();
    this.caller = options.subAgents?.step({
      turn,
      decisions: options.decisions,
      emit: (event) => this.events.push(event),
      resumed: options.resumed,
    });
    this.kept = guardrails?.checksResults === true ? new Set() : undefined;
    const review =
      guardrails?.checksResults === true
        ? (outcome: ToolOutcome) => this.review({ guardrails, calls, outcome, turn })
        : undefined;
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
      ...(review !== undefined && { review }),
      ...(this.caller !== undefined && { caller: this.caller }),
      onEnd: (outcome) => {
        observed.add(outcome.toolCallId);
        this.observe(outcome, turn, guardrails);
      },
    }).then(
      (outcomes) => {
        this.outcomes = outcomes;
        for (const outcome of outcomes) {
          if (observed.has(outcome.toolCallId) || this.caller?.pauses.has(outcome.toolCallId) === true)
            continue;
          this.events.push(observation(outcome, turn));
        }
        this.events.close();
      },
      (error: unknown) => this.events.fail(error),
    );
  }

  /** The executor's review of an outcome: the result guardrails' verdict. */
  private async review(args: {
    guardrails: ToolGuardrails;
    calls: ToolCall[];
    outcome: ToolOutcome;
    turn: number;
  }): Promise<{ stop: unknown } | undefined> {
    const { guardrails, calls, outcome, turn } = args;
    const call = calls.find((c) => c.id === outcome.toolCallId);
    if (call === undefined || this.stopped !== undefined) return undefined;
    const stop = await guardrails.checkResult({ call, outcome, turn });
    if (stop === undefined) return undefined;
    this.blocks ??= new Map();
    this.blocks.set(call.id, stop);
    return { stop: stop.error };
  }

  /**
   * An outcome as the executor reports it. Reports are in the order the executor counted them, so the call it
   * stopped on tells apart the results it kept (before) from the calls it cut off (after).
   */
  private observe(outcome: ToolOutcome, turn: number, guardrails: ToolGuardrails | undefined): void {
    if (this.caller?.pauses.has(outcome.toolCallId) === true) return; // no result yet: the turn pauses
    const stop = this.stopped === undefined ? this.blocks?.get(outcome.toolCallId) : undefined;
    if (stop === undefined || guardrails === undefined) {
      if (this.stopped === undefined) this.kept?.add(outcome.toolCallId);
      this.events.push(observation(outcome, turn));
      return;
    }
    this.stopped = { stop, toolCallId: outcome.toolCallId };
    guardrails.record(stop);
    for (const event of stop.events) this.events.push(event);
    const content = stoppedContent(stop, true);
    const error = { type: stop.error.name, message: stop.error.message };
    this.events.push(observation({ ...outcome, ok: false, content, error }, turn));
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
  const { registry, turn, decisions } = options;
  // A turn resumed after a pause inside a sub-agent: the calls that had finished keep their results.
  const prior = priorResults(options.resumed);
  const calls = prior === undefined ? options.calls : options.calls.filter((call) => !prior.has(call.id));
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
  const denied =
    gated.size === 0 ? undefined : new Set([...gated].filter((id) => !decisions?.approve.has(id)));
  const runnable = denied === undefined ? calls : calls.filter((call) => !denied.has(call.id));
  const { guardrails } = options;
  if (guardrails?.checksCalls === true && runnable.length > 0) {
    // Every call that would run is checked before any runs: a block stops the turn with nothing executed.
    const stop = await guardrails.checkCalls({ calls: runnable, turn });
    if (stop !== undefined) {
      guardrails.record(stop);
      yield* stop.events;
      return { kind: "blocked", messages: [] };
    }
  }
  for (const call of calls) {
    const args = call.arguments ?? call.rawArguments;
    yield createEvent("action", turn, { toolCallId: call.id, toolName: call.name, arguments: args });
  }
  const outcomes = new Map<string, ToolOutcome>();
  let run: ToolRun | undefined;
  if (runnable.length > 0) {
    run = new ToolRun({ options, calls: runnable });
    const { events } = run;
    for (;;) {
      const event = events.take();
      if (event !== undefined) yield event;
      else if (!(await events.ready())) break;
    }
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
  const all = options.calls;
  const stopped = run?.stopped;
  if (stopped !== undefined) {
    return {
      kind: "blocked",
      messages: afterBlock({ calls: all, outcomes, stopped, kept: run?.kept, denied, prior }),
    };
  }
  const pauses = run?.caller?.pauses;
  if (pauses !== undefined && pauses.size > 0)
    return yield* pausedInside({ calls: all, outcomes, prior, pauses, turn });
  return { kind: "done", messages: inCallOrder({ calls: all, outcomes, prior }) };
}

/** The results a resumed turn kept from before its pause, by call id. */
function priorResults(resumed: PausedTurn | undefined): Map<string, ToolMessage> | undefined {
  if (resumed === undefined || resumed.results.length === 0) return undefined;
  return new Map(resumed.results.map((message) => [message.toolCallId, message]));
}

/**
 * A turn whose calls paused inside sub-agents: the turn pauses with their pending calls (an
 * `approval_requested` event naming them), keeping what it did (the finished calls' results, the paused runs).
 */
function* pausedInside(args: {
  calls: readonly ToolCall[];
  outcomes: Map<string, ToolOutcome>;
  prior: ReadonlyMap<string, ToolMessage> | undefined;
  pauses: StepCaller["pauses"];
  turn: number;
}): Generator<AgentEvent, ToolStepResult> {
  const { calls, pauses, turn } = args;
  const pending = calls.flatMap((call) => pauses.get(call.id)?.pending ?? []);
  const outcomes = new Map([...args.outcomes].filter(([id]) => !pauses.has(id)));
  const results = inCallOrder({ calls, outcomes, prior: args.prior });
  const agents: PausedTurn["agents"] = {};
  for (const [id, { run }] of pauses) agents[id] = run;
  yield createEvent("approval_requested", turn, { calls: pending });
  return { kind: "paused", pending, pausedTurn: { results, agents } };
}

/**
 * The tool messages of a turn a result guardrail stopped, in call order: results kept before the block as
 * they were, the blocked one withheld, calls the block cut off cancelled (denied calls keep their answer).
 */
function afterBlock(args: {
  calls: readonly ToolCall[];
  outcomes: ReadonlyMap<string, ToolOutcome>;
  stopped: { stop: GuardrailStop; toolCallId: string };
  kept: ReadonlySet<string> | undefined;
  denied: ReadonlySet<string> | undefined;
  prior: ReadonlyMap<string, ToolMessage> | undefined;
}): ToolMessage[] {
  const { calls, outcomes, stopped, kept, denied } = args;
  return calls.map((call): ToolMessage => {
    const before = args.prior?.get(call.id);
    if (before !== undefined) return before;
    const outcome = outcomes.get(call.id);
    if (outcome !== undefined && (kept?.has(call.id) === true || denied?.has(call.id) === true))
      return toolMessage(outcome);
    const withheld = call.id === stopped.toolCallId;
    const content = stoppedContent(stopped.stop, withheld);
    return { role: "tool", toolCallId: call.id, toolName: call.name, content, isError: true };
  });
}

/** The tool messages of `calls`, in call order (a call without an outcome has none). */
function inCallOrder({
  calls,
  outcomes,
  prior,
}: {
  calls: readonly ToolCall[];
  outcomes: ReadonlyMap<string, ToolOutcome>;
  /** Results kept from before a pause (a resumed turn). */
  prior?: ReadonlyMap<string, ToolMessage> | undefined;
}): ToolMessage[] {
  const messages: ToolMessage[] = [];
  for (const call of calls) {
    const before = prior?.get(call.id);
    if (before !== undefined) {
      messages.push(before);
      continue;
    }
    const outcome = outcomes.get(call.id);
    if (outcome !== undefined) messages.push(toolMessage(outcome));
  }
  return messages;
}
