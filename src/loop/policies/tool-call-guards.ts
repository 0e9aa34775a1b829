import type { ToolCall } from "../../models/message.js";
import type { AgentEvent } from "../agent-event.js";
import { createEvent } from "../create-event.js";
import { closeOpenToolCalls, detectLoop, tooManyToolCalls } from "../history-helpers.js";
import { type LoopDetectionOptions, LoopDetector } from "../loop-detector.js";
import type { LoopState } from "../loop-state.js";
import type { TurnLimits } from "./turn-limits.js";

/**
 * Why a response's tool calls do not run. Either way every call was answered "Not executed: …" in the history.
 * - `refused`: none ran, the run goes on (the model is told why and may retry).
 * - `stop`: the run ends with `stopReason`.
 */
export type ToolCallVerdict =
  | { kind: "refused"; event: AgentEvent }
  | { kind: "stop"; stopReason: "loop_detected" | "token_limit"; event?: AgentEvent | undefined };

/** Options of {@link ToolCallGuards}. */
export interface ToolCallGuardsOptions {
  state: LoopState;
  /** `limits.maxToolCallsPerTurn`. */
  maxToolCallsPerTurn: number;
  /** The run's loop detection; `false` disables it. */
  loopDetection: LoopDetectionOptions | false;
  /** Asked whether the run's tokens are spent (the token limit is checked again before tools run). */
  limits: Pick<TurnLimits, "tokensSpent">;
}

/**
 * The checks between a response and its tools, in this order: too many calls in one response (refused, the
 * run goes on), loop detection (stop `loop_detected`), the token limit (stop `token_limit`). `check` returns
 * undefined when the calls may run (the common case: nothing is allocated).
 */
export class ToolCallGuards {
  private readonly state: LoopState;
  private readonly maxToolCallsPerTurn: number;
  private readonly detector: LoopDetector | undefined;
  private readonly limits: Pick<TurnLimits, "tokensSpent">;

  constructor({ state, maxToolCallsPerTurn, loopDetection, limits }: ToolCallGuardsOptions) {
    this.state = state;
    this.maxToolCallsPerTurn = maxToolCallsPerTurn;
    this.detector = loopDetection === false ? undefined : new LoopDetector(loopDetection);
    this.limits = limits;
  }

  /** The verdict on the calls of the response just appended to the history; undefined: run them. */
  check(calls: ToolCall[]): ToolCallVerdict | undefined {
    if (calls.length > this.maxToolCallsPerTurn) {
      const reason = tooManyToolCalls({ calls: calls.length, limit: this.maxToolCallsPerTurn });
      closeOpenToolCalls(this.state.messages, reason);
      return { kind: "refused", event: this.error("TooManyToolCalls", reason) };
    }
    const loop = detectLoop(this.detector, calls);
    if (loop !== undefined) {
      const reason = `agentloop stopped the run because a loop was detected (${loop})`;
      closeOpenToolCalls(this.state.messages, reason);
      return { kind: "stop", stopReason: "loop_detected", event: this.error("LoopDetected", loop) };
    }
    if (this.limits.tokensSpent()) {
      closeOpenToolCalls(this.state.messages, "the run's token limit was reached");
      return { kind: "stop", stopReason: "token_limit" };
    }
    return undefined;
  }

  private error(name: string, message: string): AgentEvent {
    return createEvent("error", this.state.turns, { name, message, fatal: false });
  }
}
