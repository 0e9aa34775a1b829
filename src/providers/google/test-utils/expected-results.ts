import { expect } from "vitest";
import type { ModelResponse } from "../../../models/model.js";

/** The folded answer each success fixture must produce (values read off the files by hand). */
export type Expected = Omit<ModelResponse, "raw">;

const stop = { unified: "stop", raw: "STOP" } as const;
const toolCallsStop = { unified: "tool_calls", raw: "STOP" } as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A string of exactly `length` characters that starts and ends as given: long texts and thought signatures
 * are checked this way (the values were read off the files by hand).
 */
export function textLike(length: number, start: string, end: string): unknown {
  const middle = length - start.length - end.length;
  return expect.stringMatching(new RegExp(`^${escapeRegExp(start)}[\\s\\S]{${middle}}${escapeRegExp(end)}$`));
}

/** A base64 thought signature of `length` characters with the given first and last 16. */
const signature = (length: number, start: string, end: string) => textLike(length, start, end);

/** The signature of `stream-function-call-thought-signature.sse` (on the call's part). */
export const GET_COUNTRY_SIGNATURE = signature(1408, "EpwICpkIAXLI2nxl", "noBDAXOk15QuFyU=");
/** The signature of `nonstream-parallel-function-calls.json` (on the first of three calls). */
export const GENERATE_TOPIC_SIGNATURE = signature(964, "Es8FCswFAXLI2nxF", "T3783UHrkQCEaZs=");

const THINKING_TEXT = textLike(
  1938,
  "This is a great question! Safely crossing the street is all about bein",
  " alert and be predictable**. Always assume a driver might not see you.",
);

/** Streamed fixtures (SSE, the JSON-array stream, Vertex chunks) → their folded result. */
export const STREAM_EXPECTED: Record<string, Expected> = {
  "stream-text.sse": {
    text: "The capital of France is Paris.\n",
    toolCalls: [],
    // promptTokenCount is 15 in the first chunks and 13 in the last: the last one wins.
    usage: { inputTokens: 13, outputTokens: 8, totalTokens: 21 },
    finishReason: stop,
    model: "gemini-2.0-flash-exp",
  },
  "stream-function-call.sse": {
    text: "",
    toolCalls: [
      {
        id: "call_1lpeaMTxIpW1nvgP-O3vwQY_0",
        name: "get_capital",
        arguments: { country: "France" },
        rawArguments: '{"country":"France"}',
      },
    ],
    usage: { inputTokens: 52, outputTokens: 5, totalTokens: 57 },
    finishReason: toolCallsStop,
    model: "gemini-2.0-flash",
    providerData: {
      google: { parts: [{ functionCall: { name: "get_capital", args: { country: "France" } } }] },
    },
  },
  "stream-function-call-thought-signature.sse": {
    text: "",
    toolCalls: [
      { id: "call_QUVVadTSNJ6_qtsPvN7J8Q0_0", name: "get_country", arguments: {}, rawArguments: "{}" },
    ],
    usage: { inputTokens: 29, outputTokens: 212, totalTokens: 241, reasoningTokens: 202 },
    finishReason: toolCallsStop,
    model: "gemini-3-pro-preview",
    providerData: {
      google: {
        parts: [{ functionCall: { name: "get_country", args: {} }, thoughtSignature: GET_COUNTRY_SIGNATURE }],
      },
    },
  },
  "stream-thinking.sse": {
    text: THINKING_TEXT,
    reasoning: textLike(
      1575,
      "**Clarifying User Goals**\n\nI'm currently focused on defining",
      "rally, regardless of specific circumstances or locations.\n\n\n",
    ),
    toolCalls: [],
    usage: { inputTokens: 34, outputTokens: 1256, totalTokens: 1290, reasoningTokens: 787 },
    finishReason: stop,
    model: "gemini-2.5-pro",
    providerData: {
      google: {
        parts: [
          {
            text: THINKING_TEXT,
            thoughtSignature: signature(6152, "CiIB0e2Kb6Syj1a9", "FZ1EgMKlqm/dH8k="),
          },
        ],
      },
    },
  } as Expected,
  "stream-json-array-function-call-id.json": {
    text: "",
    toolCalls: [
      {
        id: "c9bjmkfz",
        name: "pelican_name_generator",
        arguments: { type: "funny" },
        rawArguments: '{"type":"funny"}',
      },
    ],
    usage: { inputTokens: 28, outputTokens: 267, totalTokens: 295, reasoningTokens: 248 },
    finishReason: toolCallsStop,
    model: "gemini-3-flash-preview",
    providerData: {
      google: {
        parts: [
          {
            functionCall: { name: "pelican_name_generator", args: { type: "funny" }, id: "c9bjmkfz" },
            thoughtSignature: signature(1556, "EosJCogJAb4+9vvm", "kFY0biJPY02K7Fg="),
          },
        ],
      },
    },
  },
  "stream-vertex-parallel-partial-args.chunks.txt": {
    text: "",
    reasoning: textLike(
      320,
      "**Processing User Requests**\n\nI've started by understanding",
      ' with screen "A," then proceeding with "B" and "C" in parallel as instructed.\n\n\n',
    ),
    toolCalls: [
      { id: "call__vr4aYiWEJnYodAPkujX0QM_0", name: "read_theme", arguments: {}, rawArguments: "{}" },
      ...["A", "B", "C"].map((screen, i) => ({
        id: `call__vr4aYiWEJnYodAPkujX0QM_${i + 1}`,
        name: "read_screen",
        arguments: { id: screen },
        rawArguments: `{"id":"${screen}"}`,
      })),
    ],
    usage: { inputTokens: 249, outputTokens: 241, totalTokens: 490, reasoningTokens: 183 },
    finishReason: toolCallsStop,
    model: "gemini-3-flash-preview",
    providerData: {
      google: {
        parts: [
          {
            functionCall: { name: "read_theme", args: {} },
            thoughtSignature: signature(1060, "AY89a18a8/Loc2wl", "tGJB49ZeNTtCJA=="),
          },
          { functionCall: { name: "read_screen", args: { id: "A" } } },
          { functionCall: { name: "read_screen", args: { id: "B" } } },
          { functionCall: { name: "read_screen", args: { id: "C" } } },
        ],
      },
    },
  } as Expected,
};

/** Non-streaming fixtures (served as `application/json`) → their parsed result. */
export const NONSTREAM_EXPECTED: Record<string, Expected> = {
  "nonstream-text-grounding.json": {
    text: "Pydantic AI is a Python agent framework designed to make it less painful to build production grade applications with Generative AI.",
    toolCalls: [],
    // toolUsePromptTokenCount (the fetched page) is input: 32 + 2395; thoughts are output: 41 + 47.
    usage: { inputTokens: 2427, outputTokens: 88, totalTokens: 2515, reasoningTokens: 47 },
    finishReason: stop,
    model: "gemini-2.5-flash",
  },
  "nonstream-parallel-function-calls.json": {
    text: "",
    toolCalls: [0, 1, 2].map((i) => ({
      id: `call_wOd8abGuO5rgz7IP5tLEGA_${i}`,
      name: "generate_topic",
      arguments: {},
      rawArguments: "{}",
    })),
    usage: { inputTokens: 83, outputTokens: 220, totalTokens: 303, reasoningTokens: 190 },
    finishReason: toolCallsStop,
    model: "gemini-3-flash-preview",
    providerData: {
      google: {
        parts: [
          { functionCall: { name: "generate_topic", args: {} }, thoughtSignature: GENERATE_TOPIC_SIGNATURE },
          { functionCall: { name: "generate_topic", args: {} } },
          { functionCall: { name: "generate_topic", args: {} } },
        ],
      },
    },
  },
  "nonstream-cached-content.json": {
    text: "Paris.",
    toolCalls: [],
    usage: {
      inputTokens: 3520,
      outputTokens: 44,
      totalTokens: 3564,
      cachedInputTokens: 3512,
      reasoningTokens: 42,
    },
    finishReason: stop,
    model: "gemini-2.5-flash",
  },
  "nonstream-finish-safety.json": {
    text: "",
    toolCalls: [],
    usage: { inputTokens: 14, outputTokens: 0, totalTokens: 14 },
    finishReason: { unified: "content_filter", raw: "SAFETY" },
    model: "gemini-1.5-flash",
  },
  "nonstream-pdf-input.json": {
    text: "The document appears to be a dummy PDF file.\n",
    toolCalls: [],
    usage: { inputTokens: 1305, outputTokens: 11, totalTokens: 1316 },
    finishReason: stop,
    model: "gemini-2.0-flash",
  },
};

/** A refused prompt (HTTP 200, no candidates): a `prompt_blocked` error. */
export const BLOCKED_FIXTURES = ["nonstream-prompt-blocked.json"];

/** Error envelopes, served with status 400. */
export const ERROR_FIXTURES = ["error-400-invalid-argument.json"];

/** Request bodies, compared with what the provider sends (`google-request-fixtures.test.ts`). */
export const REQUEST_FIXTURES = ["nonstream-pdf-input.request.json", "thought-signature-echo.request.json"];

/** Checks a folded or parsed answer against its expectation (everything but `raw`). */
export function expectFolded(response: ModelResponse, expected: Expected): void {
  const { raw: _raw, ...rest } = response;
  expect(rest).toEqual(expected);
  const parts = (rest.providerData?.google as { parts?: Array<{ text?: string }> } | undefined)?.parts ?? [];
  // A kept text part holds the answer's text itself (the streamed pieces joined), not a copy of a piece.
  const texts = parts.filter((part) => typeof part.text === "string").map((part) => part.text);
  if (texts.length > 0) expect(texts.join("")).toBe(rest.text);
}
