import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../models/message.js";
import { createToolCall } from "../../models/message.js";
import type { ModelRequest } from "../../models/model.js";
import { sseOf } from "../openai/test-utils/compatible-fixtures.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { readParts } from "../openai/test-utils/stream-parts.js";
import { createOpenAICompatible } from "./create-openai-compatible.js";
import { mistralToolCallId, withMistralToolCallIds } from "./mistral-tool-call-ids.js";

const MISTRAL_FORM = /^[A-Za-z0-9]{9}$/;

describe("mistralToolCallId", () => {
  it("keeps ids already in Mistral's form", () => {
    expect(mistralToolCallId("gSIMJiOkT")).toBe("gSIMJiOkT");
  });

  it("maps any other id to 9 characters of a-z, A-Z, 0-9, the same every time, distinct for distinct ids", () => {
    const ids = [
      "call_4XzlGBLtUe9dy3GVNV4jhq7h",
      "toolu_01A09q90qw90lq917835lq9",
      "call_0",
      "call_1",
      "",
      "é✓",
    ];
    const mapped = ids.map(mistralToolCallId);
    for (const id of mapped) expect(id).toMatch(MISTRAL_FORM);
    expect(ids.map(mistralToolCallId)).toEqual(mapped);
    expect(new Set(mapped).size).toBe(ids.length);
  });

  it("has no collisions over 100 000 sequential ids", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(mistralToolCallId(`call_${i}`));
    expect(seen.size).toBe(100_000);
  });
});

/** A history that started on OpenAI: its tool-call ids are not in Mistral's form. */
function openAIHistory(): Message[] {
  return [
    { role: "user", content: "Weather in Paris and Rome?" },
    {
      role: "assistant",
      content: "",
      toolCalls: [
        createToolCall({
          id: "call_4XzlGBLtUe9dy3GVNV4jhq7h",
          name: "weather",
          rawArguments: '{"city":"Paris"}',
        }),
        createToolCall({ id: "gSIMJiOkT", name: "weather", rawArguments: '{"city":"Rome"}' }),
      ],
    },
    { role: "tool", toolCallId: "call_4XzlGBLtUe9dy3GVNV4jhq7h", toolName: "weather", content: "Sunny" },
    { role: "tool", toolCallId: "gSIMJiOkT", toolName: "weather", content: "Rainy" },
  ];
}

describe("withMistralToolCallIds", () => {
  it("returns the request itself when every id already has the form", () => {
    const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
    expect(withMistralToolCallIds(request)).toBe(request);
  });

  it("rewrites calls and results alike, leaves the history untouched, and gives the same copy each turn", () => {
    const messages = openAIHistory();
    const first = withMistralToolCallIds({ messages });
    const second = withMistralToolCallIds({ messages });
    expect(first.messages[0]).toBe(messages[0]);
    expect(second.messages[1]).toBe(first.messages[1]);
    expect(second.messages[2]).toBe(first.messages[2]);
    const assistant = first.messages[1] as Extract<Message, { role: "assistant" }>;
    const mapped = mistralToolCallId("call_4XzlGBLtUe9dy3GVNV4jhq7h");
    expect(assistant.toolCalls?.map((c) => c.id)).toEqual([mapped, "gSIMJiOkT"]);
    expect(first.messages[2]).toMatchObject({ role: "tool", toolCallId: mapped });
    expect(first.messages[3]).toBe(messages[3]);
    expect((messages[1] as Extract<Message, { role: "assistant" }>).toolCalls?.[0]?.id).toBe(
      "call_4XzlGBLtUe9dy3GVNV4jhq7h",
    );
  });
});

describe("through the presets", () => {
  let server: FixtureServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const ANSWER = sseOf([{ choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }]);

  async function sentMessages(preset: "mistral" | "groq") {
    server = await startFixtureServer({ body: ANSWER });
    const model = createOpenAICompatible({ preset, baseURL: server.baseURL, apiKey: "k" })("m");
    await readParts(model.stream({ messages: openAIHistory() }));
    const body = server.requests[0]?.body as { messages: Array<Record<string, unknown>> } | undefined;
    return body?.messages ?? [];
  }

  it("Mistral gets every id in its form, a call and its result still matching", async () => {
    const messages = await sentMessages("mistral");
    const mapped = mistralToolCallId("call_4XzlGBLtUe9dy3GVNV4jhq7h");
    const calls = messages[1]?.tool_calls as Array<{ id: string }>;
    expect(calls.map((c) => c.id)).toEqual([mapped, "gSIMJiOkT"]);
    expect(messages.slice(2).map((m) => m.tool_call_id)).toEqual([mapped, "gSIMJiOkT"]);
  });

  it("other presets send the ids as they are", async () => {
    const messages = await sentMessages("groq");
    const calls = messages[1]?.tool_calls as Array<{ id: string }>;
    expect(calls.map((c) => c.id)).toEqual(["call_4XzlGBLtUe9dy3GVNV4jhq7h", "gSIMJiOkT"]);
  });
});
