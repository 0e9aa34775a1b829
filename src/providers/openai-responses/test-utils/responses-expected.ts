import type { ToolCall } from "../../../models/message.js";
import type { ModelResponse } from "../../../models/model.js";
import { RESPONSES_OUTPUT_FIXTURES } from "./output-fixtures.js";
import { MULTISTEP, multistepBodies, responsesStreamBody } from "./responses-fixtures.js";

/**
 * The expected folded answers of the recorded Responses fixtures (values read off the files by hand).
 * `providerData` is checked separately (it holds the recorded output items).
 */
export type Expected = Omit<ModelResponse, "raw" | "providerData" | "reasoning"> & {
  /** Whether the answer carries `providerData.openaiResponses.output` (it has reasoning items). */
  reasoning: boolean;
};

const stop = { unified: "stop", raw: "completed" } as const;
const toolCalls = { unified: "tool_calls", raw: "completed" } as const;

function usage(inputTokens: number, outputTokens: number, reasoningTokens = 0) {
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    cachedInputTokens: 0,
    reasoningTokens,
  };
}

function call(id: string, name: string, rawArguments: string): ToolCall {
  return { id, name, arguments: JSON.parse(rawArguments), rawArguments };
}

/** `multiply {"a":1231,"b":2331}` — the number 1231 streams as "123" + "1". */
const multiply = (id: string) => call(id, "multiply", '{"a":1231,"b":2331}');

/** The reasoning summary streamed in the first response of the multistep fixture. */
export const MULTISTEP_SUMMARY =
  "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.";

/** One streamed case: an SSE body and its folded answer. */
export interface StreamCase {
  body: Buffer;
  expected: Expected;
}

const single: Record<string, Expected> = {
  "stream-text.sse": {
    text: "The capital of France is Paris.",
    toolCalls: [],
    usage: usage(278, 9),
    finishReason: stop,
    reasoning: false,
  },
  "stream-function-call.sse": {
    text: "",
    toolCalls: [call("call_kL0PCQV7M2WMoVX8V8OtYSAL", "get_capital", '{"country":"France"}')],
    usage: usage(255, 16),
    finishReason: toolCalls,
    reasoning: false,
  },
  "stream-function-call-seqnum.sse": {
    text: "",
    toolCalls: [multiply("call_sVidsfFJ6zlzRpelrPkTPlpd")],
    usage: usage(58, 23),
    finishReason: toolCalls,
    reasoning: false,
  },
  "stream-reasoning-function-call.sse": {
    text: "",
    toolCalls: [call("call_CWXgs68YprAjp6t0371hiPOI", "final_result", '{"result":6666}')],
    usage: usage(53, 469, 448),
    finishReason: toolCalls,
    reasoning: true,
  },
  "stream-commentary-then-function-call.sse": {
    text: "I’ll check the capital lookup tool for “PotatoLand.”",
    toolCalls: [call("call_LabG58Uhrq9kZvR52BYKjToD", "get_capital", '{"country":"PotatoLand"}')],
    // This recording's usage also reports input_tokens_details.cache_write_tokens: 0.
    usage: { ...usage(63, 69, 26), cacheWriteTokens: 0 },
    finishReason: toolCalls,
    reasoning: true,
  },
};

const multistep: Expected[] = [
  {
    text: "",
    toolCalls: [call("call_AB6AaRZ1FYZB2RwS6A5vbdqn", "calculator", '{"a":12,"b":7,"op":"add"}')],
    usage: usage(134, 28),
    finishReason: toolCalls,
    reasoning: true,
  },
  {
    text: "",
    toolCalls: [call("call_Q6pW65MUgW9vF59BmItYGos3", "calculator", '{"a":19,"b":3,"op":"multiply"}')],
    usage: usage(221, 26),
    finishReason: toolCalls,
    reasoning: false,
  },
  {
    text: "",
    toolCalls: [call("call_Zl5vIMnD7dVAjgU6FkhmiCZh", "calculator", '{"a":57,"b":10,"op":"multiply"}')],
    usage: usage(260, 26),
    finishReason: toolCalls,
    reasoning: false,
  },
  {
    text: "The final result is **570**.",
    toolCalls: [],
    usage: usage(299, 12),
    finishReason: stop,
    reasoning: false,
  },
];

/** Every streamed success case; the multistep fixture contributes four (`<name>#1` … `#4`). */
export function streamCases(): Record<string, StreamCase> {
  const cases: Record<string, StreamCase> = {};
  for (const [name, expected] of Object.entries(single)) {
    cases[name] = { body: responsesStreamBody(name), expected };
  }
  const bodies = multistepBodies();
  multistep.forEach((expected, i) => {
    const body = bodies[i];
    if (body === undefined) throw new Error(`${MULTISTEP} has fewer than ${i + 1} responses`);
    cases[`${MULTISTEP}#${i + 1}`] = { body, expected };
  });
  return cases;
}

/** Non-streaming fixtures → their parsed answer. */
export const NONSTREAM_EXPECTED: Record<string, Expected> = {
  "nonstream-function-call.json": {
    text: "",
    toolCalls: [multiply("call_nJmCK7SJe3ajdYYplIbH0KgL")],
    usage: usage(58, 23),
    finishReason: toolCalls,
    reasoning: false,
  },
  // Answers to image and PDF input (src/providers/openai-responses/openai-responses-content.test.ts).
  "nonstream-image-url-input.json": {
    text: "Hello! I see you've shared an image of a potato. How can I assist you today?",
    toolCalls: [],
    usage: usage(663, 20),
    finishReason: stop,
    reasoning: false,
  },
  "nonstream-pdf-input.json": {
    text: 'The main content of this document is a simple text placeholder: "Dummy PDF file."',
    toolCalls: [],
    usage: usage(54, 18),
    finishReason: stop,
    reasoning: false,
  },
};

/** Recorded request bodies (`*.request.json`), compared with what the provider sends, never served. */
export const REQUEST_FIXTURES = [
  "nonstream-image-url-input.request.json",
  "nonstream-pdf-input.request.json",
];

/** Error bodies → the status they are served with, and the code/message the error must carry. */
export const ERROR_EXPECTED: Record<string, { status: number; code: string; message: string }> = {
  "error-400-unsupported-parameter.json": {
    status: 400,
    // `code` is null in the envelope: the error's `type` stands in.
    code: "invalid_request_error",
    message: "Unsupported parameter: 'temperature' is not supported with this model.",
  },
  "error-429-insufficient-quota.json": {
    status: 429,
    code: "insufficient_quota",
    message: "You exceeded your current quota, please check your plan and billing details.",
  },
};

/** The in-stream error fixture. */
export const STREAM_ERROR_FIXTURE = "stream-error-event.chunks.txt";

/** Every fixture file the suites cover. */
export function coveredFixtures(): string[] {
  return [
    ...Object.keys(single),
    MULTISTEP,
    ...Object.keys(NONSTREAM_EXPECTED),
    ...Object.keys(ERROR_EXPECTED),
    STREAM_ERROR_FIXTURE,
    ...RESPONSES_OUTPUT_FIXTURES,
    ...REQUEST_FIXTURES,
  ].sort();
}

/**
 * The folded answer without `raw`/`providerData`/`model`, in the shape of {@link Expected}. The model the
 * recording names (calls are priced by it) is checked to look like an OpenAI model id.
 */
export function comparable(response: ModelResponse): Expected {
  const { raw: _raw, providerData, model, ...rest } = response;
  if (model !== undefined && !/^(gpt-|o\d)/.test(model)) throw new Error(`unexpected model id ${model}`);
  return { ...rest, reasoning: providerData !== undefined };
}
