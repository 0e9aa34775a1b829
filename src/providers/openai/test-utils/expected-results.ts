import { expect } from "vitest";
import type { ModelResponse } from "../../../models/model.js";

/**
 * The expected folded answers of the recorded OpenAI Chat fixtures (values read off the files by hand).
 */

/** The folded answer each success fixture must produce (tool-call arguments parsed). */
export type Expected = Omit<ModelResponse, "raw" | "providerData">;

const r0 = { reasoningTokens: 0 };
const details = { cachedInputTokens: 0, reasoningTokens: 0 };
const stop = { unified: "stop", raw: "stop" } as const;
const toolCalls = { unified: "tool_calls", raw: "tool_calls" } as const;
/** The usage of the two prompt-cache fixtures, but for the cache counts. */
const cacheUsage = { inputTokens: 4020, outputTokens: 4, totalTokens: 4024, reasoningTokens: 0 };

/** The first call of the parallel tool-call fixtures. */
export const weather = {
  id: "call_JMW1whyEaYG438VE1OIflxA2",
  name: "GetWeatherArgs",
  arguments: { city: "Edinburgh", country: "GB", units: "c" },
  rawArguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}',
};
const stock = {
  id: "call_DNYTawLBoN8fj3KN6qU9N1Ou",
  name: "get_stock_price",
  arguments: { ticker: "AAPL", exchange: "NASDAQ" },
  rawArguments: '{"ticker": "AAPL", "exchange": "NASDAQ"}',
};

/** Streamed fixtures → their folded result. The long texts are checked by `expectFolded`. */
export const STREAM_EXPECTED: Record<string, Expected> = {
  "stream-text.sse": {
    text: "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app.",
    toolCalls: [],
    usage: { inputTokens: 14, outputTokens: 30, totalTokens: 44, ...r0 },
    finishReason: stop,
  },
  "stream-text-obfuscation.chunks.txt": {
    text: "(checked below)",
    toolCalls: [],
    usage: { inputTokens: 16, outputTokens: 300, totalTokens: 316, ...details },
    finishReason: stop,
  },
  "stream-tool-call.sse": {
    text: "",
    toolCalls: [
      {
        id: "call_4XzlGBLtUe9dy3GVNV4jhq7h",
        name: "get_weather",
        arguments: { city: "New York City" },
        rawArguments: '{"city":"New York City"}',
      },
    ],
    usage: { inputTokens: 44, outputTokens: 16, totalTokens: 60, ...r0 },
    finishReason: toolCalls,
  },
  "stream-tool-call-include-usage.sse": {
    text: "",
    toolCalls: [
      {
        id: "call_ZR5UUuTt3pf61kjwAJIYdVMj",
        name: "get_capital",
        arguments: { country: "UK" },
        rawArguments: '{"country":"UK"}',
      },
    ],
    usage: { inputTokens: 53, outputTokens: 15, totalTokens: 68, ...details },
    finishReason: toolCalls,
  },
  "stream-text-after-tool-result.sse": {
    text: "The capital of the UK is London.",
    toolCalls: [],
    usage: { inputTokens: 78, outputTokens: 9, totalTokens: 87, ...details },
    finishReason: stop,
  },
  "stream-parallel-tool-calls.sse": {
    text: "",
    toolCalls: [weather, stock],
    usage: { inputTokens: 149, outputTokens: 60, totalTokens: 209, ...r0 },
    finishReason: toolCalls,
  },
  "stream-finish-length.sse": {
    text: '{"',
    toolCalls: [],
    usage: { inputTokens: 79, outputTokens: 1, totalTokens: 80, ...r0 },
    finishReason: { unified: "length", raw: "length" },
  },
  "stream-n3-interleaved-choices.sse": {
    // Choice 0 only (choices 1 and 2 say 61 and 59).
    text: '{"city":"San Francisco","temperature":65,"units":"f"}',
    toolCalls: [],
    usage: { inputTokens: 79, outputTokens: 42, totalTokens: 121, ...r0 },
    finishReason: stop,
  },
  "stream-refusal.sse": {
    text: "",
    refusal: "I'm sorry, I can't assist with that request.",
    toolCalls: [],
    usage: { inputTokens: 79, outputTokens: 11, totalTokens: 90, ...r0 },
    finishReason: stop,
  },
};

/** Non-streaming fixtures → their parsed result. */
export const NONSTREAM_EXPECTED: Record<string, Expected> = {
  "nonstream-text.json": {
    text: "(checked below)",
    toolCalls: [],
    usage: { inputTokens: 16, outputTokens: 363, totalTokens: 379, ...details },
    finishReason: stop,
  },
  "nonstream-tool-call.json": {
    text: "",
    toolCalls: [
      {
        id: "call_TTY8UFNo7rNCaOBUNtlRSvMG",
        name: "lookup_population",
        arguments: { country: "Crumpet" },
        rawArguments: '{"country":"Crumpet"}',
      },
    ],
    usage: { inputTokens: 92, outputTokens: 17, totalTokens: 109, ...details },
    finishReason: toolCalls,
  },
  "nonstream-parallel-tool-calls.json": {
    text: "",
    toolCalls: [
      { ...weather, id: "call_fdNz3vOBKYgOIpMdWotB9MjY" },
      { ...stock, id: "call_h1DWI1POMJLb0KwIyQHWXD4p" },
    ],
    usage: { inputTokens: 149, outputTokens: 60, totalTokens: 209, ...r0 },
    finishReason: toolCalls,
  },
  // prompt_tokens (4020) includes the cache writes and reads.
  // Answers to image and PDF input (src/providers/openai/openai-chat-content.test.ts).
  "nonstream-image-url-input.json": {
    text: "The image shows a potato.",
    toolCalls: [],
    usage: { inputTokens: 503, outputTokens: 8, totalTokens: 511, ...details },
    finishReason: stop,
  },
  "nonstream-pdf-input.json": {
    text: 'The document contains the text "Dummy PDF file" on its single page.',
    toolCalls: [],
    usage: { inputTokens: 235, outputTokens: 16, totalTokens: 251, ...details },
    finishReason: stop,
  },
  "nonstream-prompt-cache-write.json": {
    text: "OK",
    toolCalls: [],
    usage: { ...cacheUsage, cachedInputTokens: 0, cacheWriteTokens: 4012 },
    finishReason: stop,
  },
  "nonstream-prompt-cache-read.json": {
    text: "OK",
    toolCalls: [],
    usage: { ...cacheUsage, cachedInputTokens: 4012, cacheWriteTokens: 0 },
    finishReason: stop,
  },
};

/** Recorded request bodies (`*.request.json`), compared with what the provider sends, never served. */
export const REQUEST_FIXTURES = [
  "nonstream-prompt-cache.request.json",
  "nonstream-image-url-input.request.json",
  "nonstream-pdf-input.request.json",
];

/** Error envelopes, served with status 400. */
export const ERROR_FIXTURES = ["error-400-unsupported-parameter.json"];

/** Checks a folded answer, with the long texts compared by content markers and length. */
export function expectFolded(name: string, response: ModelResponse, expected: Expected): void {
  const { raw: _raw, model, ...rest } = response;
  // The model the recorded response names (calls are priced by it), when the wire carried one.
  if (model !== undefined) expect(model).toMatch(/^gpt-/);
  if (name === "stream-text-obfuscation.chunks.txt") {
    expect(rest.text).toHaveLength(1724);
    expect(rest.text.startsWith("**Holiday Name:** Harmony Day\n\n**Date:**")).toBe(true);
    expect(rest.text.endsWith("shared human experiences and mutual respect.")).toBe(true);
    expect(rest.text).toContain("different cultures—flags, traditional art");
    expect(rest.text).toContain("about various cultures’ histories");
    expect({ ...rest, text: expected.text }).toEqual(expected);
  } else if (name === "nonstream-text.json") {
    expect(rest.text).toHaveLength(1842);
    expect(rest.text.startsWith("**Holiday Name:** Galaxy Day  \n\n**Date:** October 31st")).toBe(true);
    expect(rest.text).toContain("illuminate vast darkness\u2014mirroring our quest");
    expect(rest.text.endsWith("look up and dream beyond our world.")).toBe(true);
    expect({ ...rest, text: expected.text }).toEqual(expected);
  } else {
    expect(rest).toEqual(expected);
  }
}
