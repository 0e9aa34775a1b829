import { applySummary } from "../context/apply-summary.js";
import { buildSummaryRequest } from "../context/build-summary-request.js";
import { compactMessages } from "../context/compact-messages.js";
import { ContextTracker } from "../context/context-tracker.js";
import { loadTokenCounter } from "../context/load-token-counter.js";
import { reportedRequestTokens } from "../context/reported-request-tokens.js";
import { findSummary } from "../context/summary-message.js";
import { COMPACTION_MARGIN, TokenCalibration } from "../context/token-calibration.js";
import type { TokenCounter } from "../context/token-counter.js";
import { ContextOverflowError } from "../errors/context-overflow-error.js";
import type { Message } from "../models/message.js";
import type { Model, ModelToolSpec } from "../models/model.js";
import { addUsage, type Usage } from "../models/usage.js";
import type { AgentEvent } from "./agent-event.js";
import type { ResolvedContextOptions } from "./context-options.js";
import { createEvent } from "./create-event.js";

/** Options of {@link ContextManager}. */
export interface ContextManagerOptions {
  /** Undefined: no compaction by threshold, only after a provider's context-length error. */
  options: ResolvedContextOptions | undefined;
  model: Model;
  /** Usage of summary calls is added here (the run's usage). */
  usage: Usage;
  /** Told about every summary call (for cost; awaited, so a shared budget is charged before the run goes on). */
  onModelUsage?: ((info: { model: Model; usage: Usage }) => void | Promise<void>) | undefined;
}

/**
 * Keeps one run's history within the context budget. Before each model call `prepare` measures the request
 * incrementally (only new messages are counted) and compacts in place when it exceeds `compactAt × maxContextTokens`;
 * `recover` compacts harder after a provider said the context was too long. The messages array is rewritten in
 * place, so the loop and its result keep one array.
 */
export class ContextManager {
  private counter: TokenCounter | undefined;
  private tracker: ContextTracker | undefined;
  private lastEstimate = 0;
  private lastFactor = 1;

  constructor(private readonly config: ContextManagerOptions) {}

  private async ready(): Promise<{ counter: TokenCounter; tracker: ContextTracker }> {
    if (this.counter === undefined || this.tracker === undefined) {
      this.counter =
        this.config.options?.counter ?? (await loadTokenCounter({ modelId: this.config.model.modelId }));
      // The model's correction is shared with the agent's other runs (learned once, kept across runs).
      const { model, options } = this.config;
      const calibration =
        options?.calibration.for({
          provider: model.provider,
          modelId: model.modelId,
          encoding: this.counter.encoding,
        }) ?? new TokenCalibration();
      this.tracker = new ContextTracker({ counter: this.counter, calibration });
    }
    return { counter: this.counter, tracker: this.tracker };
  }

  /** The estimated request size in tokens (messages + tools). */
  async measure(messages: readonly Message[], tools: readonly ModelToolSpec[] | undefined): Promise<number> {
    const { counter, tracker } = await this.ready();
    // Both parts calibrated: measure() already scales the messages by the tracker's factor.
    const toolTokens = tools === undefined ? 0 : Math.ceil(counter.countTools(tools) * tracker.factor);
    this.lastEstimate = tracker.measure(messages) + toolTokens;
    this.lastFactor = tracker.factor;
    return this.lastEstimate;
  }

  /** Feeds the provider's reported input tokens back into the estimate. */
  calibrate(inputTokens: number): void {
    if (inputTokens > 0 && this.lastEstimate > 0)
      this.tracker?.calibrate({ estimated: this.lastEstimate, actual: inputTokens, factor: this.lastFactor });
  }

  /** Compacts when the request would exceed the threshold. Yields a `compaction` event when it did. */
  async *prepare(args: CompactArgs): AsyncGenerator<AgentEvent, boolean> {
    const options = this.config.options;
    if (options === undefined) return false;
    const tokens = await this.measure(args.messages, args.tools);
    // With a margin for the provider's count varying around the learned factor (docs/context.md).
    if (tokens * (1 + COMPACTION_MARGIN) <= options.compactAt * options.maxContextTokens) return false;
    const target = Math.floor(
      (options.targetRatio * options.compactAt * options.maxContextTokens) / (1 + COMPACTION_MARGIN),
    );
    return yield* this.compact({ ...args, tokens, target, reason: "threshold" });
  }

  /** Compacts after a context-length error: to the configured target, or to 60% of the current estimate. */
  async *recover(args: CompactArgs & { error?: unknown }): AsyncGenerator<AgentEvent, boolean> {
    const options = this.config.options;
    let tokens = await this.measure(args.messages, args.tools);
    // The refusal may say how many tokens the server counted (llama.cpp, OpenAI, Anthropic): learn from it.
    const reported = args.error instanceof Error ? reportedRequestTokens(args.error.message) : undefined;
    if (reported !== undefined) {
      this.calibrate(reported);
      tokens = await this.measure(args.messages, args.tools);
    }
    const configured =
      options === undefined
        ? Infinity
        : Math.floor(options.targetRatio * options.compactAt * options.maxContextTokens);
    const target = Math.min(configured, Math.floor(tokens * 0.6));
    return yield* this.compact({ ...args, tokens, target, reason: "context_length_exceeded" });
  }

  private async *compact(
    args: CompactArgs & { tokens: number; target: number; reason: "threshold" | "context_length_exceeded" },
  ): AsyncGenerator<AgentEvent, boolean> {
    const { counter, tracker } = await this.ready();
    const options = this.config.options;
    const toolTokens = args.tools === undefined ? 0 : counter.countTools(args.tools);
    // The target is in calibrated tokens (what the provider will count); compactMessages counts raw ones.
    const budget = Math.floor(args.target / tracker.factor) - toolTokens;
    const result = compactMessages({
      messages: args.messages,
      counter,
      budget,
      keepLastMessages: options?.keepLastMessages ?? 6,
      truncateToolResultsTo: options?.truncateToolResultsTo ?? 2000,
    });
    if (!result.fits) {
      // The minimum compaction must keep misses the target. It is still sent when it fits the window itself
      // (`maxContextTokens`; after a context-length error without options: less than what was refused).
      const needed = Math.ceil((result.tokensAfter + toolTokens) * tracker.factor);
      const ceiling = options === undefined ? args.tokens - 1 : options.maxContextTokens;
      if (needed > ceiling) throw new ContextOverflowError({ tokens: needed, budget: ceiling });
    }
    if (result.removed.length === 0 && result.truncated === 0) return false;
    const strategy = options?.strategy ?? "sliding_window";
    let compacted = result.messages;
    if (strategy === "summarize" && result.removed.length > 0) {
      const summaryModel = options?.summaryModel ?? this.config.model;
      const previous = findSummary(args.messages);
      const response = await summaryModel.generate(
        buildSummaryRequest({ removed: result.removed, previousSummary: previous }),
        { signal: args.signal },
      );
      addUsage(this.config.usage, response.usage);
      await this.config.onModelUsage?.({ model: summaryModel, usage: response.usage });
      compacted = applySummary({ compacted, summary: response.text });
    }
    args.messages.length = 0;
    for (const message of compacted) args.messages.push(message);
    tracker.reset();
    const tokensAfter = await this.measure(args.messages, args.tools);
    yield createEvent("compaction", args.turn, {
      removedMessages: result.removed.length,
      truncatedToolResults: result.truncated,
      tokensBefore: args.tokens,
      tokensAfter,
      strategy,
      reason: args.reason,
    });
    return true;
  }
}

/** What compaction works on. */
export interface CompactArgs {
  messages: Message[];
  tools: readonly ModelToolSpec[] | undefined;
  signal: AbortSignal;
  turn: number;
}
