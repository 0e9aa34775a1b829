import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/** Hard limits end a run; soft checkpoints add a prompt and let it go on. */
export interface AgentLimits {
  /** Hard: at most this many model turns. Default 20. */
  maxTurns: number;
  /**
   * Hard: wall-clock budget of a run; aborts the in-flight model call and tools. Default 300 000 ms;
   * `Infinity` for none.
   */
  timeoutMs: number;
  /** Hard: cumulative total tokens of a run (`usage.totalTokens`). Default: no limit. */
  maxTotalTokens?: number;
  /**
   * Hard: USD a run may spend. Before each model call, if the cost so far plus the call's worst case (its input
   * plus `maxOutputTokens`, or 4,096 output tokens when unset) would exceed it, the run stops with `cost_limit`.
   */
  maxCostUsd?: number;
  /** Soft: every this many model turns, ask the model to wrap up or change strategy. */
  softMaxTurns?: number;
  /** Soft: every this many ms, ask the model to wrap up or change strategy. */
  softTimeoutMs?: number;
  /** On `maxTurns`, make one last model call without tools asking for the best answer so far. Default false. */
  wrapUp: boolean;
  /**
   * Hard, per response: a model response with more tool calls than this runs none of them; every call is
   * answered "Not executed: ..." (the model is told the limit and can retry with fewer) and an `error` event
   * (`TooManyToolCalls`, not fatal) is emitted. Default 128; `Infinity` for none.
   */
  maxToolCallsPerTurn: number;
}

/** The texts injected by soft checkpoints and the wrap-up; replace any of them through `Agent` options. */
export interface LimitPrompts {
  softTurns: (info: { turns: number }) => string;
  softTime: (info: { elapsedMs: number }) => string;
  wrapUp: string;
}

/** Default limits. */
export const DEFAULT_LIMITS: Readonly<AgentLimits> = Object.freeze({
  maxTurns: 20,
  timeoutMs: 300_000,
  wrapUp: false,
  maxToolCallsPerTurn: 128,
});

/** The prompts used unless replaced. */
export const DEFAULT_LIMIT_PROMPTS: Readonly<LimitPrompts> = Object.freeze({
  softTurns: ({ turns }: { turns: number }) =>
    `[checkpoint] You have used ${turns} steps so far. If you have enough information, give your final answer now. ` +
    "If you are stuck or repeating yourself, change your strategy.",
  softTime: ({ elapsedMs }: { elapsedMs: number }) =>
    `[checkpoint] ${Math.round(elapsedMs / 1000)} seconds have passed. If you have enough information, give your ` +
    "final answer now. If you are stuck or repeating yourself, change your strategy.",
  wrapUp:
    "[final turn] You have reached the step limit and cannot call tools any more. Give the best answer you can " +
    "with what you have found so far, and say what is missing.",
});

function checkPositive(
  name: string,
  value: number | undefined,
  { integer, infinite = false }: { integer: boolean; infinite?: boolean },
): void {
  if (value === undefined || (infinite && value === Number.POSITIVE_INFINITY)) return;
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (integer && !Number.isInteger(value))
  ) {
    throw new InvalidArgumentError({
      argument: `limits.${name}`,
      message: `expected a positive ${integer ? "integer" : "number"}, got ${String(value)}`,
    });
  }
}

/**
 * Fills defaults (an `undefined` value means the default, never "no limit") and validates; throws
 * {@link InvalidArgumentError} for negative or non-numeric limits.
 */
export function resolveLimits(limits: Partial<AgentLimits> | undefined): AgentLimits {
  const resolved: AgentLimits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (value !== undefined) (resolved as unknown as Record<string, unknown>)[key] = value;
  }
  checkPositive("maxTurns", resolved.maxTurns, { integer: true });
  checkPositive("timeoutMs", resolved.timeoutMs, { integer: false, infinite: true });
  checkPositive("maxTotalTokens", resolved.maxTotalTokens, { integer: false });
  checkPositive("maxCostUsd", resolved.maxCostUsd, { integer: false });
  checkPositive("softMaxTurns", resolved.softMaxTurns, { integer: true });
  checkPositive("softTimeoutMs", resolved.softTimeoutMs, { integer: false });
  checkPositive("maxToolCallsPerTurn", resolved.maxToolCallsPerTurn, { integer: true, infinite: true });
  return resolved;
}
