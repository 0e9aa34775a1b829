import type { AgentEvent } from "../loop/agent-event.js";

/** What a run has used so far, as {@link RunTotals} counts it from the events. */
export interface RunTotalsSnapshot {
  /** Model calls of the run itself (a sub-agent's are not its turns). */
  turns: number;
  /** Tokens and cost: the run's own model calls and those of the sub-agents it ran (as `result.usage` counts). */
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costUsd: number;
  /** True when a model call had no known price (its cost is the fallback's). */
  unpriced: boolean;
  /** From the first `loop_start` to the last event seen, in ms. */
  durationMs: number;
}

/** Options of {@link RunTotals}. */
export interface RunTotalsOptions {
  /**
   * Whose run to count: a sub-agent's path (`"lead/researcher"`, as in `event.agent`). Default: the run whose
   * events have no `agent` (the run the events came from).
   */
  agent?: string;
}

/**
 * Counts a run's totals from its events: model calls, tokens, cost and time. A run paused for approval and
 * then resumed counts as one run: the totals start again only at a `loop_start` that does not follow an
 * `awaiting_approval` end.
 *
 * Sub-agents (`agent.asTool`): the run's `turns` are its own model calls; its tokens and cost also count the
 * model calls of the sub-agents it ran (events whose `agent` path is below its own), because their usage and
 * cost are part of the run's result. A sub-agent's `loop_start` and `loop_end` neither reset nor pause the run's
 * totals. Events of other agents are ignored.
 */
export class RunTotals {
  private readonly agent: string | undefined;
  private turns = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private totalTokens = 0;
  private costUsd = 0;
  private unpriced = false;
  private startedAt: number | undefined;
  private lastAt: number | undefined;
  private paused = false;

  constructor(options: RunTotalsOptions = {}) {
    this.agent = options.agent;
  }

  /** Adds one event. */
  add(event: AgentEvent): void {
    const own = event.agent === this.agent;
    if (!own && !this.isBelow(event.agent)) return;
    if (own && event.type === "loop_start" && !this.paused) this.reset(event.timestamp);
    this.startedAt ??= event.timestamp;
    this.lastAt = event.timestamp;
    if (event.type === "model_call") {
      const { usage } = event.data;
      if (own) this.turns++;
      this.inputTokens += usage.inputTokens;
      this.outputTokens += usage.outputTokens;
      this.totalTokens += usage.totalTokens;
      this.costUsd += event.data.costUsd;
      if (!event.data.priced) this.unpriced = true;
    } else if (own && event.type === "loop_end") {
      this.paused = event.data.stopReason === "awaiting_approval";
    }
  }

  /** The totals so far. */
  snapshot(): RunTotalsSnapshot {
    return {
      turns: this.turns,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      totalTokens: this.totalTokens,
      costUsd: this.costUsd,
      unpriced: this.unpriced,
      durationMs:
        this.startedAt === undefined || this.lastAt === undefined ? 0 : this.lastAt - this.startedAt,
    };
  }

  /** Whether `agent` (an event's path) is a sub-agent run by this run, at any depth. */
  private isBelow(agent: string | undefined): boolean {
    if (agent === undefined) return false;
    return this.agent === undefined || agent.startsWith(`${this.agent}/`);
  }

  private reset(timestamp: number): void {
    this.turns = 0;
    this.inputTokens = 0;
    this.outputTokens = 0;
    this.totalTokens = 0;
    this.costUsd = 0;
    this.unpriced = false;
    this.startedAt = timestamp;
  }
}
