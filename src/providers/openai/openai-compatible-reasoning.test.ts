import { describe, expect, it } from "vitest";
import type { Message } from "../../models/message.js";
import type { ModelRequest } from "../../models/model.js";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import {
  OpenAICompatibleReasoning,
  reasoningWireFields,
  serverOf,
  toolCallExtraContent,
  withOwnReasoning,
} from "./openai-compatible-reasoning.js";

const URL_A = "http://127.0.0.1:8080/v1/chat/completions";

describe("OpenAICompatibleReasoning", () => {
  it("shows reasoning_content, else reasoning, else the text of reasoning_details, once per delta", () => {
    const collector = new OpenAICompatibleReasoning(URL_A);
    expect(collector.addDelta({ reasoning_content: "a", reasoning: "a" })).toBe("a");
    expect(
      collector.addDelta({ reasoning: "b", reasoning_details: [{ type: "reasoning.text", text: "b" }] }),
    ).toBe("b");
    expect(collector.addDelta({ reasoning_details: [{ type: "reasoning.summary", summary: "c" }] })).toBe(
      "c",
    );
    expect(collector.addDelta({ reasoning_details: [{ type: "reasoning.encrypted", data: "xyz" }] })).toBe(
      "",
    );
    expect(collector.addDelta({ reasoning_content: null, reasoning: "" })).toBe("");
  });

  it("keeps reasoning_content over reasoning (servers that send both), stamped with the server's host", () => {
    const collector = new OpenAICompatibleReasoning(URL_A);
    collector.addDelta({ reasoning_content: "x", reasoning: "x" });
    expect(collector.providerData()).toEqual({
      openaiCompatible: { server: "127.0.0.1:8080", reasoningContent: "x" },
    });
  });

  it("keeps nothing (undefined) for an answer without reasoning or extras", () => {
    const collector = new OpenAICompatibleReasoning(URL_A);
    collector.addDelta({ reasoning_content: "" });
    collector.addToolCallExtra("c1", "not an object");
    expect(collector.providerData()).toBeUndefined();
  });

  it("joins streamed fragments of one reasoning_details item; other items stay whole and in order", () => {
    const collector = new OpenAICompatibleReasoning(URL_A);
    collector.addDelta({
      reasoning_details: [{ type: "reasoning.text", text: "", signature: "", format: "f", index: 0 }],
    });
    collector.addDelta({
      reasoning_details: [{ type: "reasoning.text", text: "Hel", format: "f", index: 0 }],
    });
    collector.addDelta({
      reasoning_details: [{ type: "reasoning.text", text: "lo", format: "f", index: 0 }],
    });
    collector.addDelta({
      reasoning_details: [{ type: "reasoning.text", signature: "SIG", format: "f", index: 0 }],
    });
    collector.addDelta({ reasoning_details: [{ type: "reasoning.encrypted", data: "E1", index: 1 }] });
    collector.addDelta({
      reasoning_details: [{ type: "reasoning.text", text: "next", index: 2 }, "junk", null],
    });
    expect(collector.providerData()).toEqual({
      openaiCompatible: {
        server: "127.0.0.1:8080",
        reasoningDetails: [
          { type: "reasoning.text", text: "Hello", signature: "SIG", format: "f", index: 0 },
          { type: "reasoning.encrypted", data: "E1", index: 1 },
          { type: "reasoning.text", text: "next", index: 2 },
        ],
      },
    });
  });

  it("never merges a `__proto__` key into an item", () => {
    const collector = new OpenAICompatibleReasoning(URL_A);
    collector.addDelta({ reasoning_details: [{ type: "reasoning.text", text: "a", index: 0 }] });
    collector.addDelta({
      reasoning_details: [JSON.parse('{"type":"reasoning.text","text":"b","index":0,"__proto__":{"x":1}}')],
    });
    const data = collector.providerData()?.openaiCompatible as { reasoningDetails: object[] };
    const [item] = data.reasoningDetails;
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    expect(item).toEqual({ type: "reasoning.text", text: "ab", index: 0 });
  });

  it("keeps non-streamed reasoning_details as they came (no joining)", () => {
    const collector = new OpenAICompatibleReasoning(URL_A);
    const details = [
      { type: "reasoning.text", text: "a", index: 0 },
      { type: "reasoning.text", text: "b", index: 0 },
    ];
    expect(collector.addMessage({ reasoning_details: details })).toBe("ab");
    expect(collector.providerData()).toEqual({
      openaiCompatible: { server: "127.0.0.1:8080", reasoningDetails: details },
    });
  });
});

describe("sending kept reasoning back", () => {
  const providerData = {
    openaiCompatible: {
      server: "api.example.com",
      reasoningContent: "rc",
      reasoning: "r",
      reasoningDetails: [{ type: "reasoning.encrypted", data: "E" }],
      toolCallExtras: { c1: { google: { thought_signature: "S" } } },
    },
  };

  it("sends reasoning_content and reasoning_details; `reasoning` only without details", () => {
    expect(reasoningWireFields(providerData)).toEqual({
      reasoning_content: "rc",
      reasoning_details: [{ type: "reasoning.encrypted", data: "E" }],
    });
    expect(reasoningWireFields({ openaiCompatible: { server: "h", reasoning: "r" } })).toEqual({
      reasoning: "r",
    });
    expect(toolCallExtraContent(providerData, "c1")).toEqual({ google: { thought_signature: "S" } });
    expect(toolCallExtraContent(providerData, "c2")).toBeUndefined();
    expect(toolCallExtraContent(providerData, "toString")).toBeUndefined();
  });

  it("ignores malformed or foreign provider data", () => {
    expect(reasoningWireFields(undefined)).toEqual({});
    expect(reasoningWireFields({ anthropic: { content: [] } })).toEqual({});
    expect(reasoningWireFields({ openaiCompatible: "x" })).toEqual({});
    expect(
      reasoningWireFields({
        openaiCompatible: { reasoningContent: 5, reasoning: null, reasoningDetails: ["x", 1] },
      }),
    ).toEqual({});
    expect(toolCallExtraContent({ openaiCompatible: { toolCallExtras: { c1: "S" } } }, "c1")).toBeUndefined();
  });

  it("converts an assistant message with the fields in place", () => {
    const message: Message = {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "t", arguments: {}, rawArguments: "{}" }],
      providerData,
    };
    expect(convertToOpenAIMessages([message])).toEqual([
      {
        role: "assistant",
        content: null,
        reasoning_content: "rc",
        reasoning_details: [{ type: "reasoning.encrypted", data: "E" }],
        tool_calls: [
          {
            id: "c1",
            type: "function",
            function: { name: "t", arguments: "{}" },
            extra_content: { google: { thought_signature: "S" } },
          },
        ],
      },
    ]);
  });
});

describe("withOwnReasoning", () => {
  const own: Message = {
    role: "assistant",
    content: "a",
    providerData: { openaiCompatible: { server: "127.0.0.1:8080", reasoningContent: "mine" } },
  };
  const foreign: Message = {
    role: "assistant",
    content: "b",
    providerData: { openaiCompatible: { server: "api.deepseek.com", reasoningContent: "theirs" }, other: 1 },
  };
  const user: Message = { role: "user", content: "hi" };

  it("returns the request itself when no message carries another server's data", () => {
    const request: ModelRequest = { messages: [user, own] };
    expect(withOwnReasoning({ request, url: URL_A })).toBe(request);
  });

  it("drops another server's data (keeping the rest of providerData), one stable copy per message", () => {
    const request: ModelRequest = { messages: [user, foreign, own] };
    const sent = withOwnReasoning({ request, url: URL_A });
    expect(sent.messages[0]).toBe(user);
    expect(sent.messages[2]).toBe(own);
    expect(sent.messages[1]).toEqual({ role: "assistant", content: "b", providerData: { other: 1 } });
    expect(withOwnReasoning({ request, url: URL_A }).messages[1]).toBe(sent.messages[1]);
    expect(foreign.providerData).toHaveProperty("openaiCompatible");
  });

  it("compares hosts, port included", () => {
    expect(serverOf("https://api.deepseek.com/v1/chat/completions")).toBe("api.deepseek.com");
    expect(serverOf("http://127.0.0.1:8080/v1")).toBe("127.0.0.1:8080");
  });
});
