import { describe, expect, it } from "vitest";
import { readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { mapOpenAIResponsesFinishReason, mapOpenAIResponsesUsage } from "./map-openai-responses.js";
import { readOpenAIResponsesStream } from "./read-openai-responses-stream.js";

// Hand-written event sequences for server behaviours the recordings do not show (labelled synthetic).

const url = "http://test/v1/responses";

async function* bodyOf(events: readonly unknown[]): AsyncGenerator<string> {
  for (const event of events) yield `data: ${JSON.stringify(event)}\n\n`;
}

const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: '{"x":1}' };
const reasoning = { type: "reasoning", id: "rs_1", summary: [] };

describe("readOpenAIResponsesStream (synthetic sequences)", () => {
  it("emits the whole arguments as one delta when the server streams none", async () => {
    const parts = await readParts(
      readOpenAIResponsesStream({
        body: bodyOf([
          { type: "response.output_item.added", output_index: 0, item: { ...call, arguments: "" } },
          { type: "response.output_item.done", output_index: 0, item: call },
          { type: "response.completed", response: { status: "completed", output: [call] } },
        ]),
        url,
      }),
    );
    expect(streamContractViolation(parts)).toBeUndefined();
    expect(parts.slice(0, 3)).toEqual([
      { type: "tool_call_start", id: "call_1", name: "f" },
      { type: "tool_call_delta", id: "call_1", delta: '{"x":1}' },
      {
        type: "tool_call_end",
        toolCall: { id: "call_1", name: "f", arguments: { x: 1 }, rawArguments: '{"x":1}' },
      },
    ]);
  });

  it("ends function calls that appear only in the final output", async () => {
    const parts = await readParts(
      readOpenAIResponsesStream({
        body: bodyOf([{ type: "response.completed", response: { status: "completed", output: [call] } }]),
        url,
      }),
    );
    expect(streamContractViolation(parts)).toBeUndefined();
    expect(parts.map((part) => part.type)).toEqual([
      "tool_call_start",
      "tool_call_delta",
      "tool_call_end",
      "finish",
    ]);
    expect(parts.at(-1)).toMatchObject({ finishReason: { unified: "tool_calls" } });
  });

  it("keeps the done item's encrypted_content when the final item lacks it, and uses done items for an empty output", async () => {
    const done = { ...reasoning, encrypted_content: "gAAAA-done" };
    const withFinal = await readParts(
      readOpenAIResponsesStream({
        body: bodyOf([
          { type: "response.output_item.done", output_index: 0, item: done },
          { type: "response.completed", response: { status: "completed", output: [reasoning] } },
        ]),
        url,
      }),
    );
    expect(withFinal).toContainEqual({
      type: "provider_data",
      data: { openaiResponses: { output: [done] } },
    });
    const withoutFinal = await readParts(
      readOpenAIResponsesStream({
        body: bodyOf([
          { type: "response.output_item.done", output_index: 0, item: done },
          { type: "response.completed", response: { status: "completed", output: [] } },
        ]),
        url,
      }),
    );
    expect(withoutFinal).toContainEqual({
      type: "provider_data",
      data: { openaiResponses: { output: [done] } },
    });
  });

  it("matches argument deltas by output_index when item_id is missing", async () => {
    const parts = await readParts(
      readOpenAIResponsesStream({
        body: bodyOf([
          { type: "response.output_item.added", output_index: 2, item: { ...call, arguments: "" } },
          { type: "response.function_call_arguments.delta", output_index: 2, delta: '{"x":' },
          { type: "response.function_call_arguments.delta", output_index: 2, delta: "1}" },
          { type: "response.completed", response: { status: "completed" } },
        ]),
        url,
      }),
    );
    expect(streamContractViolation(parts)).toBeUndefined();
    expect(parts).toContainEqual({
      type: "tool_call_end",
      toolCall: { id: "call_1", name: "f", arguments: { x: 1 }, rawArguments: '{"x":1}' },
    });
  });
});

describe("Responses mapping", () => {
  it("maps usage with and without details", () => {
    expect(mapOpenAIResponsesUsage({ input_tokens: 3, output_tokens: 4 })).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      totalTokens: 7,
    });
    expect(mapOpenAIResponsesUsage(null)).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(
      mapOpenAIResponsesUsage({
        input_tokens: 10,
        output_tokens: 5,
        total_tokens: 15,
        input_tokens_details: { cached_tokens: 8 },
        output_tokens_details: { reasoning_tokens: 2 },
      }),
    ).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 15,
      cachedInputTokens: 8,
      reasoningTokens: 2,
    });
  });

  it("maps statuses to finish reasons", () => {
    const map = (status: string, incompleteReason?: string, hasToolCalls = false) =>
      mapOpenAIResponsesFinishReason({ status, incompleteReason, hasToolCalls });
    expect(map("completed")).toEqual({ unified: "stop", raw: "completed" });
    expect(map("completed", undefined, true)).toEqual({ unified: "tool_calls", raw: "completed" });
    expect(map("incomplete", "max_output_tokens")).toEqual({ unified: "length", raw: "max_output_tokens" });
    expect(map("incomplete", "content_filter")).toEqual({ unified: "content_filter", raw: "content_filter" });
    expect(map("incomplete")).toEqual({ unified: "other", raw: "incomplete" });
    expect(map("failed")).toEqual({ unified: "error", raw: "failed" });
    expect(map("cancelled")).toEqual({ unified: "other", raw: "cancelled" });
  });
});
