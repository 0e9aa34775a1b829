import type { AgentEvent } from "../loop/agent-event.js";

/** What a run has used so far, as {@link RunTotals} counts it from the events. */
export interface RunTotalsSnapshot {
  /** Model calls. */
  turns: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costUsd: number;
  /** True when a model call had no known price (its cost is the fallback's). */
  unpriced: boolean;
  /** From the first `loop_start` to the last event seen, in ms. */
  durationMs: number;
}

/**
 * Counts a run's totals from its events: model calls, tokens, cost and time. A run paused for approval and
 * then resumed counts as one run: the totals start again only at a `loop_start` that does not follow an
 * `awaiting_approval` end.
 */
export class RunTotals {
  private turns = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private totalTokens = 0;
  private costUsd = 0;
  private unpriced = false;
  private startedAt: number | undefined;
  private lastAt: number | undefined;
  private paused = false;

  /** Adds one event. */
  add(event: AgentEvent): void {
    if (event.type === "loop_start" && !this.paused) this.reset(event.timestamp);
    this.startedAt ??= event.timestamp;
    this.lastAt = event.timestamp;
    if (event.type === "model_call") {
      const { usage } = event.data;
      this.turns++;
      this.inputTokens += usage.inputTokens;
      this.outputTokens += usage.outputTokens;
      this.totalTokens += usage.totalTokens;
      this.costUsd += event.data.costUsd;
      if (!event.data.priced) this.unpriced = true;
    } else if (event.type === "loop_end") {
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
