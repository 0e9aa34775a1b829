import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_CONTEXTOVERFLOWERROR = errorMarker("ContextOverflowError");

/**
 * The conversation cannot be made to fit the context budget: even the minimum that compaction must keep (the
 * system prompt, the latest user message and the turns after it) is larger than `budget` tokens. Raised before
 * the model call, instead of a provider 400.
 */
export class ContextOverflowError extends AgentloopError {
  protected readonly [MARK_CONTEXTOVERFLOWERROR] = true;
  readonly tokens: number;
  readonly budget: number;

  constructor({ tokens, budget }: { tokens: number; budget: number }) {
    super({
      message:
        `The conversation needs about ${tokens} tokens even after compaction, more than the context budget of ` +
        `${budget} tokens: shorten the latest message or raise context.maxContextTokens`,
    });
    this.name = "ContextOverflowError";
    this.tokens = tokens;
    this.budget = budget;
  }

  static override isInstance(error: unknown): error is ContextOverflowError {
    return hasMarker(error, MARK_CONTEXTOVERFLOWERROR);
  }
}
