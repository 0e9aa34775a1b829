import { errorMarker, hasMarker } from "./agentloop-error.js";
import { ModelCallError } from "./model-call-error.js";

const MARK_EMPTYRESPONSEERROR = errorMarker("EmptyResponseError");

/**
 * The model answered, but with neither text (or only whitespace) nor tool calls. The loop ends the run with stop reason `error`
 * rather than report an empty answer as `completed`; the empty turn is not added to the history, so the run
 * (or its session) can be continued as it was. `finishReason` often says why (`length`: the output budget
 * ran out, e.g. on reasoning; `content_filter`). Not retryable as is: the same request tends to get the same
 * answer.
 */
export class EmptyResponseError extends ModelCallError {
  protected readonly [MARK_EMPTYRESPONSEERROR] = true;
  /** The unified finish reason of the empty response (`stop`, `length`, `content_filter`, ...). */
  readonly finishReason: string;

  constructor({ finishReason, model }: { finishReason: string; model: string }) {
    const hint =
      finishReason === "length"
        ? " (the output token limit was reached before any text: raise maxOutputTokens)"
        : finishReason === "content_filter" || finishReason === "content_filter"
          ? " (the provider's content filter stopped it)"
          : "";
    super({
      message: `${model} returned an empty response: no text and no tool calls (finish reason: ${finishReason})${hint}`,
      isRetryable: false,
      code: "empty_response",
    });
    this.name = "EmptyResponseError";
    this.finishReason = finishReason;
  }

  static override isInstance(error: unknown): error is EmptyResponseError {
    return hasMarker(error, MARK_EMPTYRESPONSEERROR);
  }
}
