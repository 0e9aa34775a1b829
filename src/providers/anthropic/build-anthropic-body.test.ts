import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContentPart } from "../../models/content-part.js";
import { type AssistantMessage, createToolCall, type Message } from "../../models/message.js";
import type { ModelRequest, ModelToolSpec } from "../../models/model.js";
import type { AnthropicWireCacheControl } from "./add-cache-breakpoints.js";
import { type BuildAnthropicBodyOptions, buildAnthropicBody } from "./build-anthropic-body.js";
import { parseAnthropicMessage } from "./parse-anthropic-message.js";
import { THINKING_THEN_TOOL_BLOCKS } from "./test-utils/expected-results.js";
import { readFixture } from "./test-utils/fixtures.js";
import { referenceAnthropicBody } from "./test-utils/reference-anthropic-body.js";

// The body is assembled from per-message JSON caches; it must be the same text the former builder (kept in
// test-utils/reference-anthropic-body.ts) produced by converting and serialising the whole request each turn.

const BP: AnthropicWireCacheControl = { type: "ephemeral" };
const HOUR: AnthropicWireCacheControl = { type: "ephemeral", ttl: "1h" };

const recordedJson = (name: string) => JSON.parse(readFixture(name).toString("utf8"));
/** The recorded image (stream-image-input.request.json) and PDF (nonstream-pdf-input.request.json), base64. */
const image = recordedJson("stream-image-input.request.json").messages[0].content[0].source;
const pdf = recordedJson("nonstream-pdf-input.request.json").messages[0].content[1].source;
const structured = recordedJson("stream-structured-output.request.json").output_config.format.schema;

/** The assistant message the loop builds from a recorded non-streaming response. */
function assistantFrom(fixture: string): AssistantMessage {
  const response = parseAnthropicMessage(readFixture(fixture).toString("utf8"), "http://test/v1/messages");
  return {
    role: "assistant",
    content: response.text,
    ...(response.toolCalls.length > 0 && { toolCalls: response.toolCalls }),
    ...(response.providerData !== undefined && { providerData: response.providerData }),
  };
}

const tools: ModelToolSpec[] = [
  { name: "a", description: "tool a", parameters: { type: "object", properties: {} } },
  {
    name: "b",
    description: "tool b",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];

const media: ContentPart[] = [
  { type: "text", text: "Two attachments:" },
  { type: "image", data: image.data, mediaType: image.media_type },
  { type: "text", text: "" },
  { type: "file", data: pdf.data, mediaType: "application/pdf", filename: "dummy.pdf" },
  { type: "file", data: Buffer.from("plain notes").toString("base64"), mediaType: "text/plain" },
  { type: "image", url: "https://example.com/cat.png" },
];

const calls = [
  createToolCall({ id: "c1", name: "a", rawArguments: "{}" }),
  createToolCall({ id: "c2", name: "b", rawArguments: '{"city":"Rome"}' }),
  createToolCall({ id: "c3", name: "b", rawArguments: "{not json" }),
];

/** Every message kind the converter treats differently, in one valid-looking history. */
const history: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in Paris and Rome?" },
  { role: "assistant", content: "Checking.", toolCalls: calls },
  { role: "tool", toolCallId: "c1", toolName: "a", content: "sunny" },
  { role: "tool", toolCallId: "c2", toolName: "b", content: media },
  { role: "tool", toolCallId: "c3", toolName: "b", content: "invalid arguments", isError: true },
  { role: "user", content: "and a summary?" },
  { role: "system", content: "Summary of earlier turns: none." },
  { role: "assistant", content: "" },
  { role: "user", content: "" },
  { role: "user", content: [{ type: "text", text: "text-only parts" }] },
  { role: "assistant", content: "", providerData: { anthropic: { content: THINKING_THEN_TOOL_BLOCKS } } },
  { role: "tool", toolCallId: "toolu_01825dXWLSoJwCst1qTsiWdb", toolName: "fixed_version", content: "1.2.3" },
  assistantFrom("nonstream-thinking.json"),
  { role: "user", content: media },
  assistantFrom("nonstream-tool-use-empty-input.json"),
  {
    role: "assistant",
    content: "kept blocks with their own breakpoint",
    providerData: {
      anthropic: {
        content: [
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "marked", cache_control: { type: "ephemeral" } },
        ],
      },
    },
  },
  { role: "user", content: "last" },
];

/** Options of one body variant: builder options, and request fields added to the history. */
type Variant = Omit<Partial<BuildAnthropicBodyOptions>, "request"> & { request?: Partial<ModelRequest> };

/** Every option that changes the body, each on its own. */
const variants: [string, Variant][] = [
  ["defaults", {}],
  ["streaming", { stream: true }],
  ["no breakpoints", { cacheControl: undefined }],
  ["a one-hour breakpoint", { cacheControl: HOUR }],
  [
    "tools, choice and no parallel calls",
    { request: { tools, toolChoice: "required", parallelToolCalls: false } },
  ],
  ["structured output", { request: { output: { name: "Dog", schema: structured } } }],
  [
    "extraBody then providerOptions",
    { extraBody: { top_k: 1, stream: true }, request: { providerOptions: { top_k: 5, temperature: 1 } } },
  ],
  [
    "a block-form system in the options",
    { request: { providerOptions: { system: [{ type: "text", text: "S", cache_control: BP }] } } },
  ],
  ["a top-level cache_control", { request: { providerOptions: { cache_control: BP } } }],
  ["cache_control: null", { request: { tools, providerOptions: { cache_control: null } } }],
  [
    "an output_config in the options",
    {
      request: {
        output: { name: "Dog", schema: structured },
        providerOptions: { output_config: { effort: "low" } },
      },
    },
  ],
  [
    "options emptying the body",
    { request: { providerOptions: { model: undefined, max_tokens: undefined } } },
  ],
];

function options(messages: readonly Message[], variant: Variant = {}): BuildAnthropicBodyOptions {
  const { request, ...rest } = variant;
  return {
    modelId: "claude-haiku-4-5",
    defaultMaxOutputTokens: 1024,
    stream: false,
    cacheControl: BP,
    ...rest,
    request: { messages: [...messages], temperature: 0.5, ...request },
  };
}

/** Builds with both builders (the cached one first, so its cache is used by later turns) and compares. */
function expectSameBody(built: BuildAnthropicBodyOptions): string {
  const body = buildAnthropicBody(built);
  expect(body).toBe(referenceAnthropicBody(built));
  return body;
}

/** A user message whose `content` getter counts how often the converter reads it. */
function countedUser(text: string): { message: Message; reads: () => number } {
  let reads = 0;
  const message = {
    role: "user",
    get content() {
      reads++;
      return text;
    },
  } as Message;
  return { message, reads: () => reads };
}

describe("buildAnthropicBody from cached message JSON", () => {
  it.each(variants)(
    "is byte-identical to the whole-body builder on every turn of a growing history: %s",
    (_, variant) => {
      // Every prefix is a turn: each message is first the last (marked), then the previous turn's breakpoint,
      // then plain history, and its cached JSON must never carry a mark into a later turn.
      for (let end = 1; end <= history.length; end++) expectSameBody(options(history.slice(0, end), variant));
      const body = JSON.parse(expectSameBody(options(history, variant)));
      expect(body.messages.length).toBeGreaterThan(5);
    },
  );

  it("marks the last message, the system prompt, the last tool and the previous turn as before", () => {
    const body = JSON.parse(expectSameBody(options(history, { request: { tools } })));
    const marks = JSON.stringify(body).split('"cache_control"').length - 1;
    expect(marks).toBe(4); // the kept breakpoint, the last message, the system prompt and the last tool
    expect(body.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "last", cache_control: BP }],
    });
    expect(body.tools.at(-1).cache_control).toEqual(BP);
  });

  it("splices messages into a body the options emptied", () => {
    const built: BuildAnthropicBodyOptions = {
      ...options([]),
      request: {
        messages: [{ role: "user", content: "hi" }],
        providerOptions: { model: undefined, max_tokens: undefined },
      },
    };
    expect(expectSameBody(built)).toBe(
      '{"messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}]}',
    );
  });

  it("refuses messages and tools in the options as before", () => {
    for (const extra of [{ extraBody: { messages: [] } }, { request: { providerOptions: { tools: [] } } }]) {
      const built = options(history, extra);
      expect(() => buildAnthropicBody(built)).toThrow(/messages and tools cannot be set/);
      expect(() => referenceAnthropicBody(built)).toThrow(/messages and tools cannot be set/);
    }
  });

  it("converts a history message once across turns, however often it is sent", () => {
    const first = countedUser("first question");
    const turns: Message[] = [{ role: "system", content: "S" }, first.message];
    expect(buildAnthropicBody(options(turns))).toContain("first question");
    expect(first.reads()).toBe(1);
    for (let turn = 0; turn < 5; turn++) {
      turns.push({ role: "assistant", content: `answer ${turn}` }, { role: "user", content: `next ${turn}` });
      expect(expectSameBody(options(turns))).toContain("first question");
    }
    // The reference builder (called once per turn above) reads it every turn; the cached one never again.
    const byReference = first.reads() - 1;
    expect(byReference).toBeGreaterThanOrEqual(5);
    buildAnthropicBody(options(turns));
    expect(first.reads() - byReference).toBe(1);
  });

  it("serialises a changed copy of a message again (the cache is keyed by the message object)", () => {
    const question: Message = { role: "user", content: "original" };
    const answer: Message = {
      role: "assistant",
      content: "ok",
      toolCalls: [calls[1] as NonNullable<(typeof calls)[1]>],
    };
    const result: Message = { role: "tool", toolCallId: "c2", toolName: "b", content: "old result" };
    const turn = [question, answer, result, { role: "user", content: "go on" } satisfies Message];
    expect(expectSameBody(options(turn))).toContain("old result");
    const edited = [
      { ...question, content: "edited" },
      answer,
      { ...result, content: "new result" },
      turn[3] as Message,
    ];
    const body = expectSameBody(options(edited));
    expect(body).toContain("edited");
    expect(body).toContain("new result");
    expect(body).not.toContain("original");
    expect(body).not.toContain("old result");
  });
});

const textArbitrary = fc.oneof(fc.constant(""), fc.string({ maxLength: 12 }));
const partArbitrary: fc.Arbitrary<ContentPart> = fc.oneof(
  textArbitrary.map((text) => ({ type: "text" as const, text })),
  fc.constant<ContentPart>({ type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" }),
  fc.constant<ContentPart>({ type: "file", url: "https://example.com/a.pdf", mediaType: "application/pdf" }),
);
const contentArbitrary = fc.oneof(textArbitrary, fc.array(partArbitrary, { maxLength: 3 }));
const blockArbitrary = fc.oneof(
  fc.constant({ type: "thinking", thinking: "t", signature: "s" }),
  fc.constant({ type: "redacted_thinking", data: "r" }),
  textArbitrary.map((text) => ({ type: "text", text })),
  fc.constant({ type: "text", text: "kept mark", cache_control: { type: "ephemeral" } }),
);
const messageArbitrary: fc.Arbitrary<Message> = fc.oneof(
  textArbitrary.map((content) => ({ role: "system" as const, content })),
  contentArbitrary.map((content) => ({ role: "user" as const, content })),
  fc
    .tuple(textArbitrary, fc.array(fc.constantFrom(...calls), { maxLength: 2 }))
    .map(([content, toolCalls]) => ({
      role: "assistant" as const,
      content,
      ...(toolCalls.length > 0 && { toolCalls }),
    })),
  fc.tuple(textArbitrary, fc.array(blockArbitrary, { maxLength: 3 })).map(([content, blocks]) => ({
    role: "assistant" as const,
    content,
    providerData: { anthropic: { content: blocks } },
  })),
  fc.tuple(contentArbitrary, fc.boolean()).map(([content, isError]) => ({
    role: "tool" as const,
    toolCallId: "c1",
    toolName: "a",
    content,
    ...(isError && { isError }),
  })),
);

describe("buildAnthropicBody properties (random histories, every turn)", () => {
  it("sends the same text as the whole-body builder", () => {
    fc.assert(
      fc.property(
        fc.array(messageArbitrary, { maxLength: 14 }),
        fc.constantFrom(BP, HOUR, undefined),
        fc.boolean(),
        (messages, cacheControl, withTools) => {
          for (let end = 0; end <= messages.length; end++) {
            expectSameBody(
              options(messages.slice(0, end), { cacheControl, request: withTools ? { tools } : {} }),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
