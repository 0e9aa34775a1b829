import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { createToolCall, type Message } from "../../models/message.js";
import type { ModelRequest, ModelToolSpec } from "../../models/model.js";
import {
  type AnthropicWireCacheControl,
  addCacheBreakpoints,
  MAX_CACHE_BREAKPOINTS,
  resolveAnthropicPromptCaching,
} from "./add-cache-breakpoints.js";
import type { AnthropicWireBlock } from "./anthropic-wire-types.js";
import { buildAnthropicBody } from "./build-anthropic-body.js";
import { convertToAnthropicTools } from "./convert-to-anthropic-tools.js";
import { createAnthropic } from "./create-anthropic.js";

const BP = { type: "ephemeral" } as const;

const tools: ModelToolSpec[] = [
  { name: "a", description: "tool a", parameters: { type: "object", properties: {} } },
  { name: "b", description: "tool b", parameters: { type: "object", properties: {} } },
];

type Body = {
  system?: unknown;
  tools?: Record<string, unknown>[];
  messages: { role: string; content: string | Record<string, unknown>[] }[];
  cache_control?: unknown;
};

/** The sent body of `request`, with breakpoints like `cacheControl` ("off": none). */
function body(request: ModelRequest, cacheControl: AnthropicWireCacheControl | "off" = BP): Body {
  const json = buildAnthropicBody({
    modelId: "claude-haiku-4-5",
    request,
    defaultMaxOutputTokens: 100,
    stream: false,
    cacheControl: cacheControl === "off" ? undefined : cacheControl,
  });
  return JSON.parse(json) as Body;
}

/** Every breakpoint in the JSON text of a body. */
function countBreakpoints(value: unknown): number {
  return JSON.stringify(value).split('"cache_control"').length - 1;
}

/** A tool-using history: user → assistant(2 calls) → 2 tool results. */
const history: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in Paris and Rome?" },
  {
    role: "assistant",
    content: "Checking.",
    toolCalls: [
      createToolCall({ id: "c1", name: "a", rawArguments: "{}" }),
      createToolCall({ id: "c2", name: "b", rawArguments: "{}" }),
    ],
  },
  { role: "tool", toolCallId: "c1", toolName: "a", content: "sunny" },
  { role: "tool", toolCallId: "c2", toolName: "b", content: "rain" },
];

describe("Anthropic prompt-cache breakpoints", () => {
  it("marks the last tool, the system prompt and the last message (a first call)", () => {
    const sent = body({ messages: [history[0] as Message, history[1] as Message], tools });
    expect(sent.tools?.[0]).not.toHaveProperty("cache_control");
    expect(sent.tools?.[1]?.cache_control).toEqual(BP);
    expect(sent.system).toEqual([{ type: "text", text: "Be brief.", cache_control: BP }]);
    expect(sent.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?", cache_control: BP }] },
    ]);
    expect(countBreakpoints(sent)).toBe(3);
  });

  it("puts the moving breakpoint on the last tool result, and the 4th on the previous turn's last block", () => {
    const sent = body({ messages: history, tools });
    const [first, assistant, results] = sent.messages;
    expect(first?.content).toEqual([{ type: "text", text: "Weather in Paris and Rome?", cache_control: BP }]);
    expect(JSON.stringify(assistant)).not.toContain("cache_control");
    expect(results?.content).toEqual([
      { type: "tool_result", tool_use_id: "c1", content: "sunny" },
      { type: "tool_result", tool_use_id: "c2", content: "rain", cache_control: BP },
    ]);
    expect(countBreakpoints(sent)).toBe(MAX_CACHE_BREAKPOINTS);
  });

  it("places the same breakpoint the previous call placed last (an exact hit for the next call)", () => {
    const after = body({
      messages: [
        ...history,
        { role: "assistant", content: "Sunny, then rain." },
        { role: "user", content: "Thanks" },
      ],
      tools,
    });
    // The tool results were the previous call's last message: marked exactly as that call marked them.
    expect(after.messages[2]).toEqual(body({ messages: history, tools }).messages[2]);
    expect(after.messages[4]?.content).toEqual([{ type: "text", text: "Thanks", cache_control: BP }]);
    expect(countBreakpoints(after)).toBe(MAX_CACHE_BREAKPOINTS);
  });

  it("never places more than 4, counting breakpoints already in a block-form system", () => {
    for (let given = 0; given <= MAX_CACHE_BREAKPOINTS; given++) {
      const system = Array.from({ length: MAX_CACHE_BREAKPOINTS }, (_, i) => ({
        type: "text",
        text: `part ${i}`,
        ...(i < given && { cache_control: BP }),
      }));
      const sent = body({ messages: history, tools, providerOptions: { system } });
      expect(countBreakpoints(sent)).toBe(MAX_CACHE_BREAKPOINTS);
      // The given system blocks are left as they are, and the moving breakpoint comes first.
      expect(sent.system).toEqual(
        given === 0 ? [...system.slice(0, -1), { ...system[3], cache_control: BP }] : system,
      );
      if (given < MAX_CACHE_BREAKPOINTS)
        expect(JSON.stringify(sent.messages.at(-1))).toContain("cache_control");
    }
  });

  it("sends none when caching is off, and none for a request whose options say cache_control: null", () => {
    expect(countBreakpoints(body({ messages: history, tools }, "off"))).toBe(0);
    const sent = body({ messages: history, tools, providerOptions: { cache_control: null } });
    expect(countBreakpoints(sent)).toBe(0);
    expect(sent).not.toHaveProperty("cache_control");
  });

  it("leaves a body with the API's automatic (top-level) cache_control alone", () => {
    const automatic = { type: "ephemeral", ttl: "5m" };
    const sent = body({ messages: history, tools, providerOptions: { cache_control: automatic } });
    expect(sent.cache_control).toEqual(automatic);
    expect(countBreakpoints(sent)).toBe(1);
    expect(sent.system).toBe("Be brief.");
  });

  it("sends each system message as its own block and marks the first: compaction keeps that prefix", () => {
    const summary = { role: "system", content: "Summary of the earlier conversation: weather." } as const;
    const compacted = body({
      messages: [history[0] as Message, summary, { role: "user", content: "And now?" }],
      tools,
    });
    expect(compacted.system).toEqual([
      { type: "text", text: "Be brief.", cache_control: BP },
      { type: "text", text: summary.content },
    ]);
    // Tools and system are sent byte for byte as before compaction, so their breakpoints still hit.
    const uncompacted = body({ messages: history, tools });
    expect(JSON.stringify(compacted.tools)).toBe(JSON.stringify(uncompacted.tools));
    expect(JSON.stringify((compacted.system as unknown[])[0])).toBe(
      JSON.stringify((uncompacted.system as unknown[])[0]),
    );
  });

  it("carries the ttl of promptCaching: { ttl: '1h' }", () => {
    const hour = resolveAnthropicPromptCaching({ ttl: "1h" });
    expect(hour).toEqual({ type: "ephemeral", ttl: "1h" });
    const sent = body({ messages: history, tools }, hour);
    expect(JSON.stringify(sent).match(/"cache_control":\{"type":"ephemeral","ttl":"1h"\}/g)).toHaveLength(4);
  });

  it("mutates nothing shared: the cached tools array and the provider's thinking blocks stay unmarked", () => {
    const thinking: AnthropicWireBlock[] = [
      { type: "thinking", thinking: "hmm", signature: "sig" },
      { type: "text", text: "Let me look." },
    ];
    const messages: Message[] = [
      { role: "user", content: "q" },
      { role: "assistant", content: "Let me look.", providerData: { anthropic: { content: thinking } } },
    ];
    const sent = body({ messages, tools });
    // A prefill-style last assistant message: the breakpoint skips back over no thinking block.
    expect(sent.messages[1]?.content).toEqual([thinking[0], { ...thinking[1], cache_control: BP }]);
    expect(JSON.stringify(thinking)).not.toContain("cache_control");
    expect(JSON.stringify(convertToAnthropicTools(tools))).not.toContain("cache_control");
    expect(JSON.stringify(body({ messages, tools }, "off"))).not.toContain("cache_control");
  });
});

describe("addCacheBreakpoints on wire bodies (images, thinking, empty text)", () => {
  const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };

  it("marks an image when it is the last block", () => {
    const wire = { messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, image] }] };
    addCacheBreakpoints({ body: wire, mark: BP });
    expect(wire.messages[0]?.content).toEqual([
      { type: "text", text: "What is this?" },
      { ...image, cache_control: BP },
    ]);
  });

  it("skips thinking blocks and empty text blocks, going back to the last block that can carry it", () => {
    const blocks = [
      image,
      { type: "thinking", thinking: "t", signature: "s" },
      { type: "redacted_thinking", data: "x" },
      { type: "text", text: "" },
    ];
    const wire: Record<string, unknown> = { messages: [{ role: "assistant", content: blocks }] };
    addCacheBreakpoints({ body: wire, mark: BP });
    expect((wire.messages as { content: unknown[] }[])[0]?.content).toEqual([
      { ...image, cache_control: BP },
      ...blocks.slice(1),
    ]);
    expect(blocks[0]).not.toHaveProperty("cache_control");
  });

  it("counts breakpoints nested in tool_result content, and adds no second one on a marked last block", () => {
    const result = { type: "tool_result", tool_use_id: "t", content: [{ ...image, cache_control: BP }] };
    const wire = {
      system: [1, 2, 3].map((i) => ({ type: "text", text: `s${i}`, cache_control: BP })),
      messages: [{ role: "user", content: [result, { type: "text", text: "see above", cache_control: BP }] }],
    };
    addCacheBreakpoints({ body: wire, mark: BP });
    expect(countBreakpoints(wire)).toBe(5); // the caller's own 5: nothing added
  });
});

describe("promptCaching option", () => {
  it.each([["auto"], [undefined], [{}], [{ ttl: "5m" }]])("accepts %j", (value) => {
    expect(resolveAnthropicPromptCaching(value)?.type).toBe("ephemeral");
  });

  it.each([["on"], [true], [{ ttl: "2h" }], [{ ttl: "1h", mode: "x" }], [null]])("refuses %j", (value) => {
    expect(() => resolveAnthropicPromptCaching(value)).toThrow(InvalidArgumentError);
    expect(() => createAnthropic({ promptCaching: value as "auto" })).toThrow(/promptCaching/);
  });

  it("turns caching off with 'off'", () => {
    expect(resolveAnthropicPromptCaching("off")).toBeUndefined();
  });
});
