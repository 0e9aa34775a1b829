import { afterEach, describe, expect, it } from "vitest";
import { createToolCall, type Message } from "../../models/message.js";
import type { ModelRequest, ModelResponse } from "../../models/model.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { foldParts, readParts } from "../openai/test-utils/stream-parts.js";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";
import { convertToAnthropicTools } from "./convert-to-anthropic-tools.js";
import { createAnthropic } from "./create-anthropic.js";
import { THINKING_THEN_TOOL_BLOCKS } from "./test-utils/expected-results.js";
import { readNockEntries, streamBody } from "./test-utils/fixtures.js";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("Anthropic request conversion", () => {
  it("hoists every system message (a later running summary too) into `system`, in order", () => {
    const prompt = convertToAnthropicMessages([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello" },
      { role: "system", content: "Summary of the earlier conversation: greetings." },
      { role: "user", content: "Again" },
    ]);
    expect(prompt.system).toBe("Be brief.\n\nSummary of the earlier conversation: greetings.");
    expect(prompt.messages).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: [{ type: "text", text: "Hello" }] },
      { role: "user", content: "Again" },
    ]);
    expect(convertToAnthropicMessages([{ role: "user", content: "x" }]).system).toBeUndefined();
  });

  it("merges parallel tool results (and a user message right after them) into ONE user message", () => {
    const messages: Message[] = [
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          createToolCall({ id: "toolu_1", name: "get_weather", rawArguments: '{"city":"Paris"}' }),
          createToolCall({ id: "toolu_2", name: "get_weather", rawArguments: '{"city": "Rome"' }),
        ],
      },
      { role: "tool", toolCallId: "toolu_1", toolName: "get_weather", content: "18C" },
      {
        role: "tool",
        toolCallId: "toolu_2",
        toolName: "get_weather",
        content: "Invalid arguments",
        isError: true,
      },
      { role: "user", content: "You have 2 steps left." },
    ];
    expect(convertToAnthropicMessages(messages).messages).toEqual([
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
          // rawArguments did not parse: the API needs an object, so `{}` is sent.
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "18C" },
          { type: "tool_result", tool_use_id: "toolu_2", content: "Invalid arguments", is_error: true },
          { type: "text", text: "You have 2 steps left." },
        ],
      },
    ]);
  });

  it("merges any consecutive same-role messages and leaves out empty assistant messages", () => {
    expect(
      convertToAnthropicMessages([
        { role: "user", content: "one" },
        { role: "user", content: "two" },
        { role: "assistant", content: "" },
        { role: "user", content: "three" },
        { role: "assistant", content: "a" },
        { role: "assistant", content: "b" },
      ]).messages,
    ).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "one" },
          { type: "text", text: "two" },
          { type: "text", text: "three" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    ]);
  });

  describe.each(["stream", "generate"] as const)("thinking round trip (%s)", (mode) => {
    it("sends the thinking and tool_use blocks back unchanged, first, on the next turn", async () => {
      server = await startFixtureServer(
        mode === "stream"
          ? { body: streamBody("stream-thinking-then-tool-use.sse") }
          : {
              body: JSON.stringify({
                type: "message",
                content: THINKING_THEN_TOOL_BLOCKS,
                stop_reason: "tool_use",
              }),
              contentType: "application/json",
            },
      );
      const model = createAnthropic({ baseURL: server.baseURL, apiKey: "k" })("claude-haiku-4-5");
      const first: ModelRequest = { messages: [{ role: "user", content: "Version?" }] };
      const response: ModelResponse =
        mode === "stream" ? foldParts(await readParts(model.stream(first))) : await model.generate(first);
      // The assistant message exactly as the agent loop builds it.
      const assistant: Message = {
        role: "assistant",
        content: response.text,
        toolCalls: response.toolCalls,
        ...(response.providerData !== undefined && { providerData: response.providerData }),
      };
      const next = convertToAnthropicMessages([
        ...first.messages,
        assistant,
        {
          role: "tool",
          toolCallId: "toolu_01825dXWLSoJwCst1qTsiWdb",
          toolName: "fixed_version",
          content: "1.2.3",
        },
      ]);
      expect(next.messages[1]).toEqual({ role: "assistant", content: THINKING_THEN_TOOL_BLOCKS });
      expect(JSON.stringify(next.messages[1]?.content)).toBe(JSON.stringify(THINKING_THEN_TOOL_BLOCKS));
      expect(next.messages[2]).toEqual({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_01825dXWLSoJwCst1qTsiWdb", content: "1.2.3" }],
      });
    });
  });

  it("sends redacted_thinking blocks back unchanged, in order", async () => {
    server = await startFixtureServer({ body: streamBody("stream-redacted-thinking.sse") });
    const model = createAnthropic({ baseURL: server.baseURL, apiKey: "k" })("claude-sonnet-4-5");
    const response = foldParts(await readParts(model.stream({ messages: [{ role: "user", content: "x" }] })));
    const assistant: Message = {
      role: "assistant",
      content: response.text,
      providerData: response.providerData ?? {},
    };
    const sent = convertToAnthropicMessages([assistant]).messages[0]?.content as { type: string }[];
    expect(sent.map((block) => block.type)).toEqual(["redacted_thinking", "redacted_thinking", "text"]);
    expect(sent).toBe((response.providerData?.anthropic as { content?: unknown } | undefined)?.content);
  });

  it.each([1, 3, 5])("rebuilds the recorded request of nock entry %i from the previous turn", (index) => {
    const entries = readNockEntries();
    const previous = entries[index - 1];
    const recorded = entries[index]?.body;
    if (previous === undefined || recorded === undefined) throw new Error("missing nock entry");
    const user = previous.body.messages[0]?.content as string;
    const answer = (previous.response.content ?? []).map((block) => block as Record<string, unknown>);
    const calls = answer.filter((block) => block.type === "tool_use");
    const results = (recorded.messages[2]?.content as { tool_use_id: string; content: string }[]) ?? [];
    const messages: Message[] = [
      { role: "user", content: user },
      {
        role: "assistant",
        content: answer.map((block) => (block.type === "text" ? block.text : "")).join(""),
        toolCalls: calls.map((call) =>
          createToolCall({
            id: String(call.id),
            name: String(call.name),
            rawArguments: JSON.stringify(call.input),
          }),
        ),
      },
      ...results.map(
        (result): Message => ({
          role: "tool",
          toolCallId: result.tool_use_id,
          toolName: "test_tool",
          content: result.content,
        }),
      ),
    ];
    expect(convertToAnthropicMessages(messages).messages).toEqual(recorded.messages);
    const spec = recorded.tools?.[0];
    if (spec === undefined) throw new Error("no tool recorded");
    const converted = convertToAnthropicTools([
      {
        name: spec.name,
        description: spec.description,
        parameters: spec.input_schema as Record<string, unknown>,
      },
    ]);
    expect(converted).toEqual([
      { name: spec.name, description: spec.description, input_schema: spec.input_schema },
    ]);
  });
});
