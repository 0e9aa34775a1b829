import { CalibrationRegistry } from "../context/token-calibration.js";
import type { TokenCounter } from "../context/token-counter.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Model } from "../models/model.js";

/** How the history is kept within the model's context window (`new Agent({ context })`). */
export interface ContextOptions {
  /** The context budget in tokens (the model's window, or less). Required. */
  maxContextTokens: number;
  /** Compact before a model call whose request would exceed `compactAt × maxContextTokens`. Default 0.75. */
  compactAt?: number;
  /**
   * After compacting, the request is at most `targetRatio × compactAt × maxContextTokens`, so compaction does not
   * run again on the very next turn. Default 0.7.
   */
  targetRatio?: number;
  /** "sliding_window" drops the oldest turns (with a marker); "summarize" folds them into a running summary. */
  strategy?: "sliding_window" | "summarize";
  /** Keep at least this many latest messages when possible. Default 6. */
  keepLastMessages?: number;
  /** Old tool results are first truncated to this many characters. Default 2,000. */
  truncateToolResultsTo?: number;
  /** The model that writes summaries (strategy "summarize"). Default: the agent's model. */
  summaryModel?: Model;
  /** Counts tokens. Default: the tokenizer of the agent's model (gpt-tokenizer when installed), else an estimate. */
  counter?: TokenCounter;
  /**
   * The learned token corrections (per model, from reported usage), kept across this agent's runs. Default: a
   * new registry per Agent; pass one to share it between agents or to restore a saved one. See docs/context.md.
   */
  calibration?: CalibrationRegistry;
}

/** {@link ContextOptions} with defaults applied. */
export type ResolvedContextOptions = Required<Omit<ContextOptions, "summaryModel" | "counter">> &
  Pick<ContextOptions, "summaryModel" | "counter">;

/** Applies defaults and validates; throws {@link InvalidArgumentError} at construction. */
export function resolveContextOptions(options: ContextOptions): ResolvedContextOptions {
  const resolved: ResolvedContextOptions = {
    compactAt: 0.75,
    targetRatio: 0.7,
    strategy: "sliding_window",
    keepLastMessages: 6,
    truncateToolResultsTo: 2000,
    ...options,
    calibration: options.calibration ?? new CalibrationRegistry(),
  };
  const check = (name: string, ok: boolean, value: unknown) => {
    if (!ok) throw new InvalidArgumentError({ argument: `context.${name}`, message: `got ${String(value)}` });
  };
  check(
    "maxContextTokens",
    Number.isFinite(resolved.maxContextTokens) && resolved.maxContextTokens > 0,
    resolved.maxContextTokens,
  );
  if ((resolved.strategy as string) === "sliding-window") {
    throw new InvalidArgumentError({
      argument: "context.strategy",
      message: 'renamed to "sliding_window" in agentloop 0.2; use "sliding_window" or "summarize"',
    });
  }
  check("compactAt", resolved.compactAt > 0 && resolved.compactAt <= 1, resolved.compactAt);
  check("targetRatio", resolved.targetRatio > 0 && resolved.targetRatio <= 1, resolved.targetRatio);
  check(
    "strategy",
    resolved.strategy === "sliding_window" || resolved.strategy === "summarize",
    resolved.strategy,
  );
  check(
    "keepLastMessages",
    Number.isInteger(resolved.keepLastMessages) && resolved.keepLastMessages >= 0,
    resolved.keepLastMessages,
  );
  check(
    "truncateToolResultsTo",
    Number.isInteger(resolved.truncateToolResultsTo) && resolved.truncateToolResultsTo > 0,
    resolved.truncateToolResultsTo,
  );
  return resolved;
}
