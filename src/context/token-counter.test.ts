import { describe, expect, it, vi } from "vitest";
import { createToolCall, type Message } from "../models/message.js";
import type { ModelToolSpec } from "../models/model.js";
import { countMessages, createTokenCounter, TOKEN_OVERHEAD } from "./token-counter.js";

/** A counter whose text tokens are one per character, with a spy on the text counting. */
function charCounter() {
  const countText = vi.fn((text: string) => text.length);
  return { counter: createTokenCounter({ encoding: "chars", exact: false, countText }), countText };
}

const tools: ModelToolSpec[] = [
  {
    name: "search",
    description: "Search the web",
    parameters: { type: "object", properties: { q: { type: "string" } } },
  },
  { name: "noop", description: "", parameters: { type: "object" } },
];

describe("createTokenCounter", () => {
  it("adds the per-message overhead: framing + role + content", () => {
    const { counter } = charCounter();
    expect(counter.countMessage({ role: "user", content: "hello" })).toBe(
      TOKEN_OVERHEAD.message + TOKEN_OVERHEAD.role + 5,
    );
    expect(counter.countMessage({ role: "user", content: "" })).toBe(
      TOKEN_OVERHEAD.message + TOKEN_OVERHEAD.role,
    );
  });

  it("counts each tool call's name and raw arguments plus its overhead", () => {
    const { counter } = charCounter();
    const message: Message = {
      role: "assistant",
      content: "ok",
      toolCalls: [
        createToolCall({ id: "a", name: "search", rawArguments: '{"q":"x"}' }),
        createToolCall({ id: "b", name: "noop", rawArguments: "" }),
      ],
    };
    const expected =
      TOKEN_OVERHEAD.message +
      TOKEN_OVERHEAD.role +
      2 +
      (TOKEN_OVERHEAD.toolCall + 6 + 9) +
      (TOKEN_OVERHEAD.toolCall + 4);
    expect(counter.countMessage(message)).toBe(expected);
  });

  it("caches per message object: a second count does not re-encode", () => {
    const { counter, countText } = charCounter();
    const message: Message = { role: "tool", toolCallId: "a", toolName: "search", content: "result text" };
    const first = counter.countMessage(message);
    const calls = countText.mock.calls.length;
    expect(calls).toBe(1);
    expect(counter.countMessage(message)).toBe(first);
    expect(countText.mock.calls.length).toBe(calls);
    // An equal but distinct object is not encoded again either: its text's count is cached by the text.
    expect(counter.countMessage({ ...message })).toBe(first);
    expect(countText.mock.calls.length).toBe(calls);
  });

  it("without the text cache, an equal but distinct object is encoded again (identity is the key)", () => {
    const countText = vi.fn((text: string) => text.length);
    const counter = createTokenCounter({ encoding: "chars", exact: false, countText, textCache: false });
    const message: Message = { role: "user", content: "result text" };
    const first = counter.countMessage(message);
    expect(counter.countMessage({ ...message })).toBe(first);
    expect(countText).toHaveBeenCalledTimes(2);
  });

  it("caches texts across message objects within its bounds: a system prompt per run is encoded once", () => {
    const countText = vi.fn((text: string) => text.length);
    const counter = createTokenCounter({
      encoding: "chars",
      exact: false,
      countText,
      textCache: { maxEntries: 2 },
    });
    const system = "You are a careful assistant.";
    for (let run = 0; run < 5; run++) counter.countMessage({ role: "system", content: system });
    expect(countText).toHaveBeenCalledTimes(1);
    // Two other texts push it out of a two-entry cache: it is encoded again, with the same count.
    counter.countText("a");
    counter.countText("b");
    expect(counter.countMessage({ role: "system", content: system })).toBe(
      TOKEN_OVERHEAD.message + TOKEN_OVERHEAD.role + system.length,
    );
    expect(countText).toHaveBeenCalledTimes(4);
  });

  it("counts tools as compact JSON plus a constant per tool and per block, cached per array and per spec", () => {
    const { counter, countText } = charCounter();
    const expected =
      TOKEN_OVERHEAD.toolsBlock +
      tools.reduce(
        (sum, tool) =>
          sum +
          JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters })
            .length +
          TOKEN_OVERHEAD.toolDefinition,
        0,
      );
    expect(counter.countTools(tools)).toBe(expected);
    const calls = countText.mock.calls.length;
    expect(counter.countTools(tools)).toBe(expected);
    expect(countText.mock.calls.length).toBe(calls);
    // A new array of the same specs reuses the per-spec counts.
    expect(counter.countTools([...tools])).toBe(expected);
    expect(countText.mock.calls.length).toBe(calls);
    expect(counter.countTools([])).toBe(0);
  });

  it("never calls countText for empty strings", () => {
    const { counter, countText } = charCounter();
    expect(counter.countText("")).toBe(0);
    expect(countText).not.toHaveBeenCalled();
  });

  it("countMessages sums the messages and adds the reply priming", () => {
    const { counter } = charCounter();
    const messages: Message[] = [
      { role: "system", content: "be brief" },
      { role: "user", content: "hi" },
    ];
    expect(countMessages({ counter, messages })).toBe(
      TOKEN_OVERHEAD.replyPriming + 2 * (TOKEN_OVERHEAD.message + TOKEN_OVERHEAD.role) + 8 + 2,
    );
    expect(countMessages({ counter, messages: [] })).toBe(TOKEN_OVERHEAD.replyPriming);
  });
});
