import { errorMarker, hasMarker } from "./agentloop-error.js";
import { ModelCallError } from "./model-call-error.js";

const MARK_EMPTYRESPONSEERROR = errorMarker("EmptyResponseError");

/** The message: what came, and why it may be empty (from the finish reason). */
function emptyMessage(model: string, finishReason: string, reasoningOnly: boolean): string {
  const what = reasoningOnly ? "only reasoning, no text and no tool calls" : "no text and no tool calls";
  let hint = "";
  if (finishReason === "length") {
    hint = reasoningOnly
      ? " (the output token limit was reached while the model was still reasoning: raise maxOutputTokens)"
      : " (the output token limit was reached before any text: raise maxOutputTokens)";
  } else if (finishReason === "content_filter") {
    hint = " (the provider's content filter stopped it)";
  } else if (reasoningOnly) {
    hint =
      " (the server returned the whole reply as reasoning: with llama.cpp or vLLM, check the reasoning" +
      " parser and the chat template)";
  }
  return `${model} returned an empty response: ${what} (finish reason: ${finishReason})${hint}`;
}

/**
 * The model answered, but with neither text (or only whitespace) nor tool calls. The loop ends the run with stop
 * reason `error` rather than report an empty answer as `completed`; the empty turn is not added to the history, so the run
 * (or its session) can be continued as it was. `finishReason` often says why (`length`: the output budget
 * ran out, e.g. on reasoning; `content_filter`), and `reasoningOnly` whether the model sent reasoning and
 * nothing else. Not retryable as is: the same request tends to get the same answer.
 */
export class EmptyResponseError extends ModelCallError {
  protected readonly [MARK_EMPTYRESPONSEERROR] = true;
  /** The unified finish reason of the empty response (`stop`, `length`, `content_filter`, ...). */
  readonly finishReason: string;
  /** True when the model did answer, but only with reasoning (no text, no tool calls). */
  readonly reasoningOnly: boolean;

  constructor({
    finishReason,
    model,
    reasoningOnly = false,
  }: {
    finishReason: string;
    model: string;
    /** The model sent reasoning and nothing else. */
    reasoningOnly?: boolean;
  }) {
    super({
      message: emptyMessage(model, finishReason, reasoningOnly),
      isRetryable: false,
      code: "empty_response",
    });
    this.name = "EmptyResponseError";
    this.finishReason = finishReason;
    this.reasoningOnly = reasoningOnly;
  }

  static override isInstance(error: unknown): error is EmptyResponseError {
    return hasMarker(error, MARK_EMPTYRESPONSEERROR);
  }
}
