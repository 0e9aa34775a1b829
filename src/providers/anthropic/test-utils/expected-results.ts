import { expect } from "vitest";
import type { ModelResponse } from "../../../models/model.js";
import { readFixture } from "./fixtures.js";

/** The folded answer each success fixture must produce (values read off the files by hand). */
export type Expected = Omit<ModelResponse, "raw">;

const stop = { unified: "stop", raw: "end_turn" } as const;
const toolUse = { unified: "tool_calls", raw: "tool_use" } as const;
/** Usage with `cache_read_input_tokens: 0` and `cache_creation_input_tokens: 0` reported. */
const usage = (input: number, output: number, extra: { reasoningTokens?: number } = {}) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  ...extra,
});

/** The thinking block of `stream-thinking-then-tool-use.sse`, rebuilt from its deltas. */
export const THINKING_THEN_TOOL_BLOCKS = [
  {
    type: "thinking",
    thinking:
      "The user wants me to:\n1. Use the fixed_version tool\n2. Tell them the version\n3. Make a short joke about it\n\nLet me first call the fixed_version tool to see what version it returns.",
    signature:
      "EoQDCm0IDhgCKkCDzGs2kL2PgnDCZU/nM2wG2P1VIXCRHVnhDDzBQxNF1fl4QBXEKLxRItNJ2MwFdW9eeZPhsxSQIxD54cv3zs29MhljbGF1ZGUtaGFpa3UtNC01LTIwMjUxMDAxOABCCHRoaW5raW5nEgy/OWlwTmmqUjC6L70aDJ4P0R5NfuIe9U5zAiIwCxPduXS2UxCNxJCee3i91qK3cAyAgxCjL2wkQ5UD56iX1hXGOyuNaiH5k+dF5OCQKsQBxiAo+NjC61hV8nRYtaiP+C4inOcuMKuTG9Z1rysxTXkKBTl3oMiOlnEPHHPpKpg4sYF2G5VoTg8JTon20hdZw4GfTEVupnU1qAmnMqyAgke9SoV7HBW/PyA/FxL/q33xJ2gKFiD+BsgI9Z0koMmFKCvm2MoYE6u+ONEwKdFQXL1FKRW6t/bYbJGrLJLwxilsL82h9j4xjggjMn8Npvpn+zsrDPW/8PuLd4Pu+/EsjoneYwyxQQtUVgzhVGhhANWRjSBwUxgB",
  },
  {
    type: "tool_use",
    id: "toolu_01825dXWLSoJwCst1qTsiWdb",
    name: "fixed_version",
    input: {},
    caller: { type: "direct" },
  },
];

/** Streamed fixtures → their folded result. Long texts and thinking blocks are checked by `expectFolded`. */
export const STREAM_EXPECTED: Record<string, Expected> = {
  "stream-text.sse": { text: "Hello", toolCalls: [], usage: usage(10, 4), finishReason: stop },
  "stream-text.chunks.txt": {
    text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    toolCalls: [],
    usage: usage(12, 30),
    finishReason: stop,
  },
  "stream-tool-use.sse": {
    text: "I'll check the current weather in Paris for you.",
    toolCalls: [
      {
        id: "toolu_01NRLabsLyVHZPKxbKvkfSMn",
        name: "get_weather",
        arguments: { location: "Paris" },
        rawArguments: '{"location": "Paris"}',
      },
    ],
    usage: usage(377, 65),
    finishReason: toolUse,
  },
  "stream-parallel-tool-use-empty-input.sse": {
    text: "",
    toolCalls: [
      {
        id: "toolu_01LtHJmixrs9NcWQkK8hu8hj",
        name: "pelican_name_generator",
        arguments: {},
        rawArguments: "",
      },
      {
        id: "toolu_01N8a4jWyf116qKTMqKKmjyt",
        name: "pelican_name_generator",
        arguments: {},
        rawArguments: "",
      },
    ],
    usage: usage(542, 62),
    finishReason: toolUse,
  },
  "stream-tool-use-empty-input.chunks.txt": {
    text: "I'll update the issue list for you.",
    toolCalls: [
      { id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", name: "updateIssueList", arguments: {}, rawArguments: "" },
    ],
    usage: usage(565, 48),
    finishReason: toolUse,
  },
  "stream-max-tokens-partial-tool-input.sse": {
    text: "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called taxes.txt. Let me do that for you now.",
    toolCalls: [
      {
        id: "toolu_01EKqbqmZrGRXy18eN7m9kvY",
        name: "make_file",
        arguments: undefined,
        rawArguments:
          '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes',
        parseError: expect.any(String) as unknown as string,
      },
    ],
    usage: usage(450, 124),
    finishReason: { unified: "length", raw: "max_tokens" },
  },
  "stream-thinking.sse": {
    text: "(checked below)",
    toolCalls: [],
    usage: usage(43, 282),
    finishReason: stop,
    reasoning:
      "This is a straightforward question about pedestrian safety. I should provide clear, helpful advice about how to safely cross a street. This is basic safety information that could help prevent accidents.",
  },
  "stream-redacted-thinking.sse": {
    text: "(checked below)",
    toolCalls: [],
    usage: usage(92, 189),
    finishReason: stop,
  },
  "stream-thinking-then-tool-use.sse": {
    text: "",
    toolCalls: [
      { id: "toolu_01825dXWLSoJwCst1qTsiWdb", name: "fixed_version", arguments: {}, rawArguments: "" },
    ],
    usage: usage(598, 92, { reasoningTokens: 53 }),
    finishReason: toolUse,
    providerData: { anthropic: { content: THINKING_THEN_TOOL_BLOCKS } },
    reasoning: THINKING_THEN_TOOL_BLOCKS[0]?.thinking,
  },
  "stream-stop-sequence.sse": {
    text: '\ndef pelican():\n    return "A large waterbird with a long bill and a throat pouch for catching fish."\n',
    toolCalls: [],
    usage: usage(16, 28),
    finishReason: { unified: "stop", raw: "stop_sequence" },
    providerData: { anthropic: { stopSequence: "```" } },
  },
  // The answer to an image block (src/providers/anthropic/anthropic-content.test.ts).
  "stream-image-input.sse": {
    text: "Red square, green square.",
    toolCalls: [],
    usage: usage(83, 9),
    finishReason: stop,
  },
};

/** Non-streaming fixtures → their parsed result. */
export const NONSTREAM_EXPECTED: Record<string, Expected> = {
  "nonstream-text.json": {
    text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
    toolCalls: [],
    usage: usage(12, 29),
    finishReason: stop,
  },
  "nonstream-tool-use-empty-input.json": {
    text: "<thinking>\nThe updateIssueList tool was provided in the list of available functions. The tool has no required parameters, so it can be called without any additional information needed from the user.\n</thinking>\n\nOkay, I will update the current issue list:",
    toolCalls: [
      { id: "toolu_01LRmxn9vGM1d2DZSDBowdZ1", name: "updateIssueList", arguments: {}, rawArguments: "{}" },
    ],
    usage: usage(602, 93),
    finishReason: toolUse,
  },
  "nonstream-thinking.json": {
    text: "(checked below)",
    toolCalls: [],
    usage: usage(51, 1699, { reasoningTokens: 139 }),
    finishReason: stop,
    reasoning:
      "I need to find all roots of this cubic polynomial and verify them. The Rational Root Theorem suggests checking factors of 6, and I can confirm that 1, 2, and 3 are indeed roots. I'll use synthetic division to factor it as (x-1)(x-2)(x-3), then verify by expanding and confirm this accounts for all roots since a degree 3 polynomial has exactly 3 roots.",
  },
  // The answer to a one-page PDF document block (src/providers/anthropic/anthropic-content.test.ts).
  "nonstream-pdf-input.json": {
    text: 'The document simply contains the text "Dummy PDF file" at the top of what appears to be an otherwise blank page.',
    toolCalls: [],
    usage: usage(1615, 28),
    finishReason: stop,
  },
  // input_tokens (3) counts only the uncached tail: the whole prompt is 3 + 1111 read + 418 written.
  "nonstream-prompt-cache.json": {
    text: "Python is a beginner-friendly, versatile programming language widely used for web development, data science, machine learning, automation, and scientific computing.",
    toolCalls: [],
    usage: {
      inputTokens: 1532,
      outputTokens: 33,
      totalTokens: 1565,
      cachedInputTokens: 1111,
      cacheWriteTokens: 418,
    },
    finishReason: stop,
  },
};

/** Recorded request bodies (`*.request.json`), compared with what the provider sends, never served. */
export const REQUEST_FIXTURES = [
  "nonstream-prompt-cache.request.json",
  "stream-image-input.request.json",
  "nonstream-pdf-input.request.json",
];

/** Entry 2 of the nock fixture: a text block and two parallel tool_use blocks. */
export const NOCK_PARALLEL_EXPECTED: Expected = {
  text: "I'll use the test_tool twice as requested - first with count 1, then with count 2.",
  toolCalls: [
    {
      id: "toolu_01L8GVQapA1HmggQcrwboukH",
      name: "test_tool",
      arguments: { count: 1 },
      rawArguments: '{"count":1}',
    },
    {
      id: "toolu_01J5Fvzxu7DP1Uh59c1kr5JD",
      name: "test_tool",
      arguments: { count: 2 },
      rawArguments: '{"count":2}',
    },
  ],
  usage: usage(418, 113),
  finishReason: toolUse,
};

/** Error envelopes, served with status 400. */
export const ERROR_FIXTURES = ["error-400-invalid-request.json"];

function blockOf(response: ModelResponse, index: number): Record<string, unknown> {
  const content = (response.providerData?.anthropic as { content?: Record<string, unknown>[] } | undefined)
    ?.content;
  return content?.[index] ?? {};
}

/** Checks a folded answer; long texts and thinking blocks are compared by markers, lengths and signatures. */
export function expectFolded(name: string, response: ModelResponse, expected: Expected): void {
  const { raw: _raw, model, ...rest } = response;
  // The model the recorded response names (calls are priced by it), when the wire carried one.
  if (model !== undefined) expect(model).toMatch(/^claude-/);
  if (name === "stream-thinking.sse") {
    expect(rest.text).toHaveLength(1021);
    expect(rest.text.startsWith("Here are the basic steps for safely crossing the street:\n\n")).toBe(true);
    expect(rest.text.endsWith(". Always prioritize safety over speed when crossing streets.")).toBe(true);
    const thinking = blockOf(response, 0);
    expect(Object.keys(thinking)).toEqual(["type", "thinking", "signature"]);
    expect(thinking.thinking).toBe(
      "This is a straightforward question about pedestrian safety. I should provide clear, helpful advice about how to safely cross a street. This is basic safety information that could help prevent accidents.",
    );
    expect(thinking.signature).toHaveLength(504);
    expect(String(thinking.signature).endsWith("gb7wwzDvP/UhjfQYAQ==")).toBe(true);
    expect(blockOf(response, 1)).toEqual({ type: "text", text: rest.text });
    expect({ ...rest, text: expected.text, providerData: undefined }).toEqual({
      ...expected,
      providerData: undefined,
    });
  } else if (name === "stream-redacted-thinking.sse") {
    expect(rest.text).toHaveLength(359);
    expect(
      rest.text.startsWith("I notice that you've sent what appears to be some kind of test string"),
    ).toBe(true);
    const content = (rest.providerData?.anthropic as { content?: unknown[] } | undefined)?.content ?? [];
    expect(content.map((block) => (block as { type: string }).type)).toEqual([
      "redacted_thinking",
      "redacted_thinking",
      "text",
    ]);
    expect(String(blockOf(response, 0).data).startsWith("EqkECkYIBxgCKkA8AZ4noDfV5VcOJe")).toBe(true);
    expect(String(blockOf(response, 1).data).endsWith("dZ1J0GAE=")).toBe(true);
    expect(blockOf(response, 2)).toEqual({ type: "text", text: rest.text });
    expect({ ...rest, text: expected.text, providerData: undefined }).toEqual({
      ...expected,
      providerData: undefined,
    });
  } else if (name === "nonstream-thinking.json") {
    const recorded = JSON.parse(readFixture(name).toString("utf8")) as { content: { text?: string }[] };
    expect(rest.text).toBe(recorded.content[1]?.text);
    expect(rest.text).toHaveLength(2644);
    expect(rest.providerData).toEqual({ anthropic: { content: recorded.content } });
    expect({ ...rest, text: expected.text, providerData: undefined }).toEqual({
      ...expected,
      providerData: undefined,
    });
  } else {
    expect(rest).toEqual(expected);
  }
}
