import { countMessages, TOKEN_OVERHEAD, type TokenCounter } from "../context/token-counter.js";
import type { ToolCall } from "../models/message.js";
import type { ModelRequest } from "../models/model.js";
import type { Usage } from "../models/usage.js";

/** Options of {@link estimateScriptedUsage}. */
export interface EstimateScriptedUsageOptions {
  /** The counter the context layer uses for this model (see `loadTokenCounter`). */
  counter: TokenCounter;
  /** The request answered. */
  request: ModelRequest;
  /** The answer: its text, refusal and tool calls. */
  reply: { text: string; refusal?: string | undefined; toolCalls: readonly ToolCall[] };
  /** The step's explicit usage; each field given wins over the estimate. */
  given?: Partial<Usage> | undefined;
}

/**
 * The usage a scripted answer reports, estimated the way production measures a request: `inputTokens` is what
 * the context layer estimates for the request (its messages with their framing and the reply priming, plus the
 * tool definitions), `outputTokens` the answer's text, refusal and tool calls (name, raw arguments, per-call
 * overhead). Explicit fields of `given` win; `totalTokens` is the sum unless given.
 */
export function estimateScriptedUsage({
  counter,
  request,
  reply,
  given,
}: EstimateScriptedUsageOptions): Usage {
  const inputTokens =
    given?.inputTokens ??
    countMessages({ counter, messages: request.messages }) +
      (request.tools === undefined ? 0 : counter.countTools(request.tools));
  let estimatedOutput = counter.countText(reply.text) + counter.countText(reply.refusal ?? "");
  for (const call of reply.toolCalls) {
    estimatedOutput +=
      TOKEN_OVERHEAD.toolCall + counter.countText(call.name) + counter.countText(call.rawArguments);
  }
  const outputTokens = given?.outputTokens ?? estimatedOutput;
  const usage: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: given?.totalTokens ?? inputTokens + outputTokens,
  };
  if (given?.cachedInputTokens !== undefined) usage.cachedInputTokens = given.cachedInputTokens;
  if (given?.reasoningTokens !== undefined) usage.reasoningTokens = given.reasoningTokens;
  return usage;
}
