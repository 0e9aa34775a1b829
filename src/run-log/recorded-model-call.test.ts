import { describe, expect, it } from "vitest";
import { collectStream } from "../models/collect-stream.js";
import { createToolCall } from "../models/message.js";
import type { ModelResponse } from "../models/model.js";
import { emptyUsage } from "../models/usage.js";
import { responseToParts } from "./recorded-model-call.js";

async function* iterate<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}

describe("responseToParts", () => {
  it("folds back to the response, reasoning included", async () => {
    const response: Omit<ModelResponse, "raw"> = {
      text: "Sunny.",
      toolCalls: [createToolCall({ id: "c1", name: "weather", rawArguments: '{"location":"Paris"}' })],
      usage: { ...emptyUsage(), inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      finishReason: { unified: "tool_calls", raw: "tool_calls" },
      reasoning: "The user wants the weather.",
      providerData: { openaiCompatible: { server: "h", reasoningContent: "The user wants the weather." } },
    };
    const parts = responseToParts(response);
    expect(parts[0]).toEqual({ type: "reasoning_delta", delta: "The user wants the weather." });
    expect(await collectStream(iterate(parts))).toEqual(response);
  });
});
