import { describe, expect, it } from "vitest";
import { createToolCall } from "../../models/message.js";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";

describe("mapOpenAIFinishReason", () => {
  it.each([
    ["stop", "stop"],
    ["length", "length"],
    ["tool_calls", "tool_calls"],
    ["function_call", "tool_calls"],
    ["content_filter", "content_filter"],
    ["eos", "other"],
  ])("%s → %s, keeping the raw value", (raw, unified) => {
    expect(mapOpenAIFinishReason(raw)).toEqual({ unified, raw });
  });

  it("maps a missing value to other with raw undefined", () => {
    expect(mapOpenAIFinishReason(null)).toEqual({ unified: "other", raw: undefined });
    expect(mapOpenAIFinishReason(undefined)).toEqual({ unified: "other", raw: undefined });
  });
});

describe("mapOpenAIUsage", () => {
  it("maps the token counts and the details only when present", () => {
    expect(
      mapOpenAIUsage({
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 8 },
      }),
    ).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      totalTokens: 120,
      cachedInputTokens: 64,
      reasoningTokens: 8,
    });
    expect(mapOpenAIUsage({ prompt_tokens: 3, completion_tokens: 4 })).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      totalTokens: 7,
    });
    expect(
      mapOpenAIUsage({ prompt_tokens: 3, completion_tokens: 4, prompt_tokens_details: null }),
    ).not.toHaveProperty("cachedInputTokens");
  });

  it("maps a missing usage to zero", () => {
    expect(mapOpenAIUsage(null)).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(mapOpenAIUsage(undefined)).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });
});

describe("convertToOpenAIMessages", () => {
  it("converts every role", () => {
    const call = createToolCall({ id: "c1", name: "f", rawArguments: "{}" });
    expect(
      convertToOpenAIMessages([
        { role: "system", content: "s" },
        { role: "user", content: "u" },
        { role: "assistant", content: "", toolCalls: [call] },
        { role: "assistant", content: "with text", toolCalls: [call] },
        { role: "assistant", content: "" },
        { role: "assistant", content: "a", toolCalls: [] },
        { role: "tool", toolCallId: "c1", toolName: "f", content: "r", isError: true },
      ]),
    ).toEqual([
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      {
        role: "assistant",
        content: "with text",
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "assistant", content: "" },
      { role: "assistant", content: "a" },
      { role: "tool", tool_call_id: "c1", content: "r" },
    ]);
  });
});
