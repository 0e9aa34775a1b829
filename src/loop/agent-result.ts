import type { Message } from "../models/message.js";
import type { Usage } from "../models/usage.js";
import type { Trace } from "../trace/trace-types.js";
import type { AgentEvent, StopReason } from "./agent-event.js";
import type { AgentLoopOutcome } from "./agent-loop.js";
import type { PausedTurn } from "./policies/sub-agents.js";
import type { PendingApproval } from "./tool-step.js";

/** One executed (or refused) tool call of a run. */
export interface ToolCallRecord {
  /** The model turn that requested it. */
  turn: number;
  id: string;
  name: string;
  arguments: unknown;
  ok: boolean;
  /** What the model was sent. */
  result: string;
  durationMs: number;
}

/** The outcome of `agent.run`; `TOutput` is the type of the typed answer (`Agent({ output })`). */
export interface AgentResult<TOutput = unknown> {
  /** The final answer (or, when a limit stopped the run, the last text the model wrote). */
  text: string;
  stopReason: StopReason;
  /** Model calls made. */
  turns: number;
  usage: Usage;
  toolCalls: ToolCallRecord[];
  /** Every event of the run, in order; the last is `loop_end`. */
  events: AgentEvent[];
  /** The whole conversation: pass it as `messages` to continue. */
  messages: Message[];
  durationMs: number;
  /** USD spent on model calls (summaries included), from the price table (see docs/cost.md). */
  costUsd: number;
  /** Models without a known price (costed at the fallback price): set a `pricing` entry for them. */
  costUnknownModels: string[];
  /**
   * With stop reason `awaiting_approval`: the tool calls waiting for a human. Continue with
   * `agent.resume(result, { approve, deny })` (the result is JSON: it can be stored and resumed elsewhere).
   */
  pendingApprovals?: PendingApproval[];
  /**
   * With stop reason `awaiting_approval`, when the turn paused inside a sub-agent (`agent.asTool`): what the
   * turn had done (its finished calls' results, the paused sub-agent runs). Part of the result's JSON that
   * `resume` needs; a durable run keeps it in its log instead.
   */
  pausedTurn?: PausedTurn;
  /** The trace, with `trace: true` (see docs/traces.md). */
  trace?: Trace;
  /**
   * Set when `stopReason` is "error"; for an agent with an `output` schema, also when the run ended without a
   * valid typed answer (an `OutputError`, whatever the stop reason, but `awaiting_approval`).
   */
  error?: Error;
  /**
   * For an agent with handoffs (`Agent({ handoffs })`): the name of the agent that answered (the last one the
   * conversation was handed to, or the agent itself).
   */
  agent?: string;
  /**
   * The typed final answer, validated against the agent's `output` schema (zod: parsed, with its defaults and
   * transforms). `undefined` without a schema, or when the run ended without a valid answer (see `error`).
   */
  output?: TOutput;
}

/**
 * Folds the events of a run into an {@link AgentResult}: `add` each event, then `build` with the loop's
 * outcome. The one place results are made, for `run` and `stream` alike.
 */
export class AgentResultBuilder {
  private readonly events: AgentEvent[] = [];
  private readonly toolCalls: ToolCallRecord[] = [];
  private readonly pending = new Map<string, ToolCallRecord>();
  private readonly started = Date.now();

  /** Adds one event (a sub-agent's is kept in `events`; its tool calls are not this run's). */
  add(event: AgentEvent): void {
    this.events.push(event);
    if (event.agent !== undefined) return;
    if (event.type === "action") {
      const record: ToolCallRecord = {
        turn: event.turn,
        id: event.data.toolCallId,
        name: event.data.toolName,
        arguments: event.data.arguments,
        ok: false,
        result: "",
        durationMs: 0,
      };
      this.toolCalls.push(record);
      this.pending.set(record.id, record);
    } else if (event.type === "observation") {
      const record = this.pending.get(event.data.toolCallId);
      if (record === undefined) return;
      this.pending.delete(record.id);
      record.ok = event.data.ok;
      record.result = event.data.result;
      record.durationMs = event.data.durationMs;
    }
  }

  /** The result. `outcome` is what the loop returned. */
  build(outcome: AgentLoopOutcome): AgentResult {
    const result: AgentResult = {
      text: outcome.text,
      stopReason: outcome.stopReason,
      turns: outcome.turns,
      usage: outcome.usage,
      toolCalls: this.toolCalls,
      events: this.events,
      messages: outcome.messages,
      durationMs: Date.now() - this.started,
      costUsd: outcome.costUsd,
      costUnknownModels: outcome.costUnknownModels,
    };
    if (outcome.error !== undefined) result.error = outcome.error;
    if (outcome.pendingApprovals !== undefined) result.pendingApprovals = outcome.pendingApprovals;
    if (outcome.pausedTurn !== undefined) result.pausedTurn = outcome.pausedTurn;
    if (outcome.trace !== undefined) result.trace = outcome.trace;
    if (outcome.output !== undefined) result.output = outcome.output;
    if (outcome.agent !== undefined) result.agent = outcome.agent;
    return result;
  }
}
