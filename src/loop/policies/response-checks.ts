import { EmptyResponseError } from "../../errors/empty-response-error.js";
import type { ModelResponse } from "../../models/model.js";
import { refuseDeepArguments } from "../history-helpers.js";

/** No text at all, or only whitespace: not an answer. */
const isBlank = (text: string | undefined): boolean => text === undefined || text.trim() === "";

/** Options of {@link ResponseChecks}. */
export interface ResponseChecksOptions {
  /** `provider:modelId`, named in the errors. */
  modelName: string;
}

/**
 * The checks on a model response before it enters the history: a response with neither text (or only
 * whitespace), nor tool calls, nor a refusal is not an answer; tool-call arguments nested too deeply are
 * refused (see `refuseDeepArguments`).
 */
export class ResponseChecks {
  private readonly modelName: string;

  constructor({ modelName }: ResponseChecksOptions) {
    this.modelName = modelName;
  }

  /**
   * The response to keep: `response` itself, or a copy whose too-deep calls carry a `parseError` instead of
   * their arguments. Throws {@link EmptyResponseError} for an empty response (the run ends with `error` and
   * the history stays as it was, so the run can be resumed).
   */
  accept(response: ModelResponse): ModelResponse {
    if (isBlank(response.text) && response.toolCalls.length === 0 && isBlank(response.refusal)) {
      throw new EmptyResponseError({
        finishReason: response.finishReason.unified,
        model: this.modelName,
        reasoningOnly: !isBlank(response.reasoning),
      });
    }
    const toolCalls = refuseDeepArguments(response.toolCalls);
    return toolCalls === response.toolCalls ? response : { ...response, toolCalls };
  }
}
