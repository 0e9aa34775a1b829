import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createToolCall, type Message } from "../models/message.js";
import { createEstimatingCounter } from "./create-estimating-counter.js";
import { encodingForModel, loadTokenCounter } from "./load-token-counter.js";
import { TOKEN_OVERHEAD } from "./token-counter.js";

const SAMPLES = [
  "Hello, world!",
  "The quick brown fox jumps over the lazy dog.",
  'export const answer = { value: 42, list: [1, 2, 3] } as const; // "typed"',
  "今天天气很好，我们去公园散步吧。",
  "Привет! Как дела? 🚀🎉",
  '{"results":[{"id":1,"title":"A"},{"id":2,"title":"B"}],"next":null}',
];

describe("encodingForModel", () => {
  it.each([
    ["gpt-4o", "o200k_base"],
    ["gpt-4o-mini-2024-07-18", "o200k_base"],
    ["chatgpt-4o-latest", "o200k_base"],
    ["gpt-4.1-nano", "o200k_base"],
    ["gpt-4.5-preview", "o200k_base"],
    ["gpt-5", "o200k_base"],
    ["gpt-5-mini", "o200k_base"],
    ["o1", "o200k_base"],
    ["o1-mini", "o200k_base"],
    ["o3-mini", "o200k_base"],
    ["o4-mini-2025-04-16", "o200k_base"],
    ["gpt-oss-120b", "o200k_base"],
    ["openai:gpt-4o", "o200k_base"],
    ["ft:gpt-4o-mini-2024-07-18:acme::abc123", "o200k_base"],
    ["GPT-4O", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-4-turbo", "cl100k_base"],
    ["gpt-4-0613", "cl100k_base"],
    ["gpt-3.5-turbo", "cl100k_base"],
    ["ft:gpt-3.5-turbo-0125:acme::xyz", "cl100k_base"],
    ["gpt-7-preview", "cl100k_base"],
    ["o9", "cl100k_base"],
    ["text-embedding-3-small", "cl100k_base"],
  ])("%s → %s", (modelId, encoding) => {
    expect(encodingForModel(modelId)).toBe(encoding);
  });

  it.each([
    "claude-sonnet-4-5",
    "claude-3-5-haiku-latest",
    "llama3.2",
    "llama-3.1-70b",
    "mistral-large",
    "gemini-2.0-flash",
    "qwen2.5",
    "omni",
  ])("%s is not an OpenAI model", (modelId) => {
    expect(encodingForModel(modelId)).toBeUndefined();
  });
});

describe("loadTokenCounter", () => {
  it("counts exactly like gpt-tokenizer's o200k_base", async () => {
    const counter = await loadTokenCounter({ modelId: "gpt-4o-mini" });
    expect(counter).toMatchObject({ encoding: "o200k_base", exact: true });
    for (const text of SAMPLES) expect(counter.countText(text)).toBe(o200k.countTokens(text));
  });

  it("counts exactly like gpt-tokenizer's cl100k_base", async () => {
    const counter = await loadTokenCounter({ modelId: "gpt-4-turbo" });
    expect(counter).toMatchObject({ encoding: "cl100k_base", exact: true });
    for (const text of SAMPLES) expect(counter.countText(text)).toBe(cl100k.countTokens(text));
  });

  it("matches gpt-tokenizer's chat accounting for plain messages (content + 4 each, + 3 priming)", async () => {
    const counter = await loadTokenCounter({ modelId: "gpt-4o" });
    const chat = [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "What is the capital of France?" },
    ] as const;
    const ours =
      chat.reduce((sum, message) => sum + counter.countMessage({ ...message }), 0) +
      TOKEN_OVERHEAD.replyPriming;
    expect(ours).toBe(o200k.encodeChat(chat, "gpt-4o").length);
  });

  it("treats special-token strings in user text as text instead of throwing", async () => {
    const counter = await loadTokenCounter({ modelId: "gpt-4o" });
    expect(counter.countText("before <|endoftext|> after")).toBeGreaterThan(5);
  });

  it("shares one counter (and its caches) per encoding", async () => {
    const a = await loadTokenCounter({ modelId: "gpt-4o" });
    const b = await loadTokenCounter({ modelId: "gpt-5-mini" });
    const c = await loadTokenCounter({ modelId: "gpt-4" });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    const message: Message = {
      role: "assistant",
      content: "",
      toolCalls: [createToolCall({ id: "1", name: "search", rawArguments: '{"q":"paris"}' })],
    };
    expect(a.countMessage(message)).toBe(
      TOKEN_OVERHEAD.message +
        TOKEN_OVERHEAD.role +
        TOKEN_OVERHEAD.toolCall +
        o200k.countTokens("search") +
        o200k.countTokens('{"q":"paris"}'),
    );
  });

  it("estimates for models that are not OpenAI's", async () => {
    for (const modelId of ["claude-sonnet-4-5", "llama3.2"]) {
      const counter = await loadTokenCounter({ modelId });
      expect(counter).toMatchObject({ encoding: "estimate", exact: false });
      expect(counter).toBe(createEstimatingCounter());
    }
  });
});

describe("loadTokenCounter without gpt-tokenizer", () => {
  afterEach(() => {
    vi.doUnmock("gpt-tokenizer/encoding/o200k_base");
    vi.resetModules();
  });

  it("falls back to the estimate when the import fails", async () => {
    vi.resetModules();
    vi.doMock("gpt-tokenizer/encoding/o200k_base", () => {
      throw new Error("Cannot find package 'gpt-tokenizer'");
    });
    const { loadTokenCounter: load } = await import("./load-token-counter.js");
    const counter = await load({ modelId: "gpt-4o" });
    expect(counter).toMatchObject({ encoding: "estimate", exact: false });
    expect(counter.countText("hello world")).toBeGreaterThan(0);
  });
});
