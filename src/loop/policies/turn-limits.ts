import type { ModelRequest, ModelResponse } from "../../models/model.js";
import type { AgentEvent } from "../agent-event.js";
import type { AgentLimits, LimitPrompts } from "../agent-limits.js";
import { closeOpenToolCalls } from "../history-helpers.js";
import type { LoopState } from "../loop-state.js";

/** What the wrap-up call runs on: one model turn with request overrides (see `ModelTurn`). */
export interface TurnRunner {
  /** One model turn; undefined when the cost policy refused the call. */
  run(overrides?: Partial<ModelRequest>): AsyncGenerator<AgentEvent, ModelResponse | undefined>;
}

/** Options of {@link TurnLimits}. */
export interface TurnLimitsOptions {
  state: LoopState;
  limits: AgentLimits;
  prompts: LimitPrompts;
}

/** The wrap-up call's request: no tool calls allowed (made once, reused). */
const WRAP_UP_REQUEST: Partial<ModelRequest> = Object.freeze({ toolChoice: "none" });

/**
 * The hard limits of a run that are checked between turns: `maxTotalTokens` (cumulative total tokens) and
 * `maxTurns`, with the optional wrap-up call at `maxTurns` (`limits.wrapUp`).
 */
export class TurnLimits {
  private readonly state: LoopState;
  private readonly limits: AgentLimits;
  private readonly prompts: LimitPrompts;

  constructor({ state, limits, prompts }: TurnLimitsOptions) {
    this.state = state;
    this.limits = limits;
    this.prompts = prompts;
  }

  /** Before a turn: `token_limit` when the tokens are spent, else `max_turns` when the turns are; else undefined. */
  beforeTurn(): "token_limit" | "max_turns" | undefined {
    if (this.tokensSpent()) return "token_limit";
    return this.state.turns >= this.limits.maxTurns ? "max_turns" : undefined;
  }

  /** True when `usage.totalTokens` reached `limits.maxTotalTokens` (checked again before a turn's tools run). */
  tokensSpent(): boolean {
    const { maxTotalTokens } = this.limits;
    return maxTotalTokens !== undefined && this.state.usage.totalTokens >= maxTotalTokens;
  }

  /**
   * At `maxTurns`: with `limits.wrapUp`, asks for the best answer so far in one last call without tools (the
   * wrap-up prompt appended as a user message), then closes any call it still made. Returns the stop reason:
   * `max_turns`, or `cost_limit` when the cost policy refused the wrap-up call.
   */
  async *atMaxTurns(turn: TurnRunner): AsyncGenerator<AgentEvent, "max_turns" | "cost_limit"> {
    if (!this.limits.wrapUp) return "max_turns";
    this.state.messages.push({ role: "user", content: this.prompts.wrapUp });
    const wrapped = yield* turn.run(WRAP_UP_REQUEST);
    closeOpenToolCalls(this.state.messages, "the step limit was reached");
    return wrapped === undefined ? "cost_limit" : "max_turns";
  }
}
