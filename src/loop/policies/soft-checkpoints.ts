import type { AgentEventOf } from "../agent-event.js";
import type { AgentLimits, LimitPrompts } from "../agent-limits.js";
import { createEvent } from "../create-event.js";
import type { LoopState } from "../loop-state.js";

/** Options of {@link SoftCheckpoints}. */
export interface SoftCheckpointsOptions {
  state: LoopState;
  /** `softMaxTurns` and `softTimeoutMs` are read; without either the policy does nothing. */
  limits: Pick<AgentLimits, "softMaxTurns" | "softTimeoutMs">;
  prompts: Pick<LimitPrompts, "softTurns" | "softTime">;
  /** When the run started (`Date.now()`): the time checkpoints count from it. */
  started: number;
}

/**
 * The soft checkpoints of a run: every `softMaxTurns` turns, or else every `softTimeoutMs` ms, a prompt asking
 * the model to wrap up or change strategy is appended as a user message before the next model call, and a
 * `soft_limit` event reports it. The run goes on; the checkpoint fires again after the next period.
 */
export class SoftCheckpoints {
  private readonly state: LoopState;
  private readonly limits: SoftCheckpointsOptions["limits"];
  private readonly prompts: SoftCheckpointsOptions["prompts"];
  private readonly started: number;
  private readonly active: boolean;
  private turnsSinceCheckpoint = 0;
  private lastTimeCheckpoint: number;

  constructor({ state, limits, prompts, started }: SoftCheckpointsOptions) {
    this.state = state;
    this.limits = limits;
    this.prompts = prompts;
    this.started = started;
    this.lastTimeCheckpoint = started;
    this.active = limits.softMaxTurns !== undefined || limits.softTimeoutMs !== undefined;
  }

  /**
   * Called before each model turn (it counts the turn). When a period has passed, appends the prompt and
   * returns the `soft_limit` event to emit; otherwise undefined. The turns checkpoint wins over the time one.
   */
  beforeTurn(): AgentEventOf<"soft_limit"> | undefined {
    if (!this.active) return undefined;
    const event = this.due();
    this.turnsSinceCheckpoint++;
    return event;
  }

  private due(): AgentEventOf<"soft_limit"> | undefined {
    const { softMaxTurns, softTimeoutMs } = this.limits;
    const now = Date.now();
    if (softMaxTurns !== undefined && this.turnsSinceCheckpoint >= softMaxTurns) {
      this.turnsSinceCheckpoint = 0;
      return this.prompt("turns", this.prompts.softTurns({ turns: this.state.turns }));
    }
    if (softTimeoutMs !== undefined && now - this.lastTimeCheckpoint >= softTimeoutMs) {
      this.lastTimeCheckpoint = now;
      return this.prompt("time", this.prompts.softTime({ elapsedMs: now - this.started }));
    }
    return undefined;
  }

  private prompt(reason: "turns" | "time", prompt: string): AgentEventOf<"soft_limit"> {
    this.state.messages.push({ role: "user", content: prompt });
    return createEvent("soft_limit", this.state.turns, { reason, prompt });
  }
}
