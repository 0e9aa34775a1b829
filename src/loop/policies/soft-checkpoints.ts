import type { AgentEventOf } from "../agent-event.js";
import type { AgentLimits, LimitPrompts } from "../agent-limits.js";
import { createEvent } from "../create-event.js";
import type { LoopState } from "../loop-state.js";

/** Options of {@link SoftCheckpoints}. */
export interface SoftCheckpointsOptions {
  state: LoopState;
  /** `softMaxSteps` and `softTimeoutMs` are read; without either the policy does nothing. */
  limits: Pick<AgentLimits, "softMaxSteps" | "softTimeoutMs">;
  prompts: Pick<LimitPrompts, "softSteps" | "softTime">;
  /** When the run started (`Date.now()`): the time checkpoints count from it. */
  started: number;
}

/**
 * The soft checkpoints of a run: every `softMaxSteps` turns, or else every `softTimeoutMs` ms, a prompt asking
 * the model to wrap up or change strategy is appended as a user message before the next model call, and a
 * `soft_limit` event reports it. The run goes on; the checkpoint fires again after the next period.
 */
export class SoftCheckpoints {
  private readonly state: LoopState;
  private readonly limits: SoftCheckpointsOptions["limits"];
  private readonly prompts: SoftCheckpointsOptions["prompts"];
  private readonly started: number;
  private readonly active: boolean;
  private stepsSinceCheckpoint = 0;
  private lastTimeCheckpoint: number;

  constructor({ state, limits, prompts, started }: SoftCheckpointsOptions) {
    this.state = state;
    this.limits = limits;
    this.prompts = prompts;
    this.started = started;
    this.lastTimeCheckpoint = started;
    this.active = limits.softMaxSteps !== undefined || limits.softTimeoutMs !== undefined;
  }

  /**
   * Called before each model turn (it counts the turn). When a period has passed, appends the prompt and
   * returns the `soft_limit` event to emit; otherwise undefined. The steps checkpoint wins over the time one.
   */
  beforeTurn(): AgentEventOf<"soft_limit"> | undefined {
    if (!this.active) return undefined;
    const event = this.due();
    this.stepsSinceCheckpoint++;
    return event;
  }

  private due(): AgentEventOf<"soft_limit"> | undefined {
    const { softMaxSteps, softTimeoutMs } = this.limits;
    const now = Date.now();
    if (softMaxSteps !== undefined && this.stepsSinceCheckpoint >= softMaxSteps) {
      this.stepsSinceCheckpoint = 0;
      return this.prompt("steps", this.prompts.softSteps({ steps: this.state.turns }));
    }
    if (softTimeoutMs !== undefined && now - this.lastTimeCheckpoint >= softTimeoutMs) {
      this.lastTimeCheckpoint = now;
      return this.prompt("time", this.prompts.softTime({ elapsedMs: now - this.started }));
    }
    return undefined;
  }

  private prompt(reason: "steps" | "time", prompt: string): AgentEventOf<"soft_limit"> {
    this.state.messages.push({ role: "user", content: prompt });
    return createEvent("soft_limit", this.state.turns, { reason, prompt });
  }
}
