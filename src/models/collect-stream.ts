import type { FinishReason } from "./finish-reason.js";
import type { ToolCall } from "./message.js";
import type { ModelResponse } from "./model.js";
import type { ModelStreamPart } from "./model-stream-part.js";
import { emptyUsage, type Usage } from "./usage.js";

/**
 * Folds stream parts into a {@link ModelResponse}. Feed parts with `add`, read the answer with `response()`.
 * An `error` part is thrown from `add`, so a failed stream never yields a half response silently.
 */
export class StreamCollector {
  private text = "";
  private refusal = "";
  private reasoning = "";
  private readonly toolCalls: ToolCall[] = [];
  private usage: Usage = emptyUsage();
  private finishReason: FinishReason | undefined;
  private providerData: Record<string, unknown> | undefined;
  private model: string | undefined;

  /** Adds one part. Throws the error of an `error` part. */
  add(part: ModelStreamPart): void {
    switch (part.type) {
      case "text_delta":
        this.text += part.delta;
        break;
      case "refusal_delta":
        this.refusal += part.delta;
        break;
      case "reasoning_delta":
        this.reasoning += part.delta;
        break;
      case "tool_call_end":
        this.toolCalls.push(part.toolCall);
        break;
      case "provider_data":
        this.providerData = { ...this.providerData, ...part.data };
        break;
      case "finish":
        this.usage = part.usage;
        this.finishReason = part.finishReason;
        if (part.model !== undefined) this.model = part.model;
        break;
      case "error":
        throw part.error;
      default:
        break;
    }
  }

  /** True once a `finish` part was seen. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** The folded response. */
  response(): ModelResponse {
    const response: ModelResponse = {
      text: this.text,
      toolCalls: this.toolCalls,
      usage: this.usage,
      finishReason: this.finishReason ?? { unified: "other", raw: undefined },
    };
    if (this.refusal !== "") response.refusal = this.refusal;
    if (this.reasoning !== "") response.reasoning = this.reasoning;
    if (this.providerData !== undefined) response.providerData = this.providerData;
    if (this.model !== undefined) response.model = this.model;
    return response;
  }
}

/** Consumes a whole model stream and returns the folded response. */
export async function collectStream(parts: AsyncIterable<ModelStreamPart>): Promise<ModelResponse> {
  const collector = new StreamCollector();
  for await (const part of parts) collector.add(part);
  return collector.response();
}
