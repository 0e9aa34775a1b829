import { afterEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { Message } from "../../models/message.js";
import type { ModelRequest, ModelToolSpec } from "../../models/model.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { readParts } from "../openai/test-utils/stream-parts.js";
import { convertToAnthropicTools } from "./convert-to-anthropic-tools.js";
import { createAnthropic } from "./create-anthropic.js";
import { readFixture, streamBody } from "./test-utils/fixtures.js";

const tools: ModelToolSpec[] = [
  {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Sends `request` to a server answering nonstream-text.json and returns the request body it received. */
async function sentBody(
  request: ModelRequest,
  options: {
    defaultMaxOutputTokens?: number;
    extraBody?: Record<string, unknown>;
    promptCaching?: "auto" | "off";
  } = {},
) {
  server = await startFixtureServer({
    body: readFixture("nonstream-text.json"),
    contentType: "application/json",
  });
  await createAnthropic({ baseURL: server.baseURL, apiKey: "k", ...options })("claude-haiku-4-5").generate(
    request,
  );
  return server.requests.at(-1)?.body as Record<string, unknown>;
}

describe("Anthropic request body", () => {
  it("always sends max_tokens: the request's, else the provider default (4096 unless configured)", async () => {
    const messages: Message[] = [{ role: "user", content: "hi" }];
    expect((await sentBody({ messages })).max_tokens).toBe(4096);
    expect((await sentBody({ messages }, { defaultMaxOutputTokens: 1000 })).max_tokens).toBe(1000);
    expect(
      (await sentBody({ messages, maxOutputTokens: 77 }, { defaultMaxOutputTokens: 1000 })).max_tokens,
    ).toBe(77);
  });

  it("sends model, system, messages, tools, tool_choice and temperature; merges extraBody then providerOptions", async () => {
    const body = await sentBody(
      {
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hi" },
        ],
        tools,
        toolChoice: { type: "tool", name: "get_weather" },
        parallelToolCalls: false,
        temperature: 0.2,
        providerOptions: { top_k: 5, stop_sequences: ["```"] },
      },
      { extraBody: { top_k: 1, metadata: { user_id: "u-1" } }, promptCaching: "off" },
    );
    expect(body).toEqual({
      model: "claude-haiku-4-5",
      max_tokens: 4096,
      system: "Be brief.",
      temperature: 0.2,
      tool_choice: { type: "tool", name: "get_weather", disable_parallel_tool_use: true },
      top_k: 5,
      metadata: { user_id: "u-1" },
      stop_sequences: ["```"],
      messages: [{ role: "user", content: "hi" }],
      tools: [
        {
          name: "get_weather",
          description: "Current weather for a city",
          input_schema: tools[0]?.parameters,
        },
      ],
    });
  });

  it.each([
    [undefined, true, undefined],
    [undefined, false, { type: "auto", disable_parallel_tool_use: true }],
    ["auto", undefined, { type: "auto" }],
    ["required", undefined, { type: "any" }],
    ["required", false, { type: "any", disable_parallel_tool_use: true }],
    ["none", false, { type: "none" }],
    [{ type: "tool", name: "get_weather" }, undefined, { type: "tool", name: "get_weather" }],
  ] as const)(
    "toolChoice %j with parallelToolCalls %j → tool_choice %j",
    async (choice, parallel, expected) => {
      const request: ModelRequest = { messages: [{ role: "user", content: "hi" }], tools };
      if (choice !== undefined) request.toolChoice = choice;
      if (parallel !== undefined) request.parallelToolCalls = parallel;
      expect((await sentBody(request)).tool_choice).toEqual(expected);
    },
  );

  it("sends no tools and no tool_choice without tools", async () => {
    const body = await sentBody({
      messages: [{ role: "user", content: "hi" }],
      toolChoice: "required",
      tools: [],
    });
    expect(body).not.toHaveProperty("tools");
    expect(body).not.toHaveProperty("tool_choice");
    expect(body).not.toHaveProperty("stream");
  });

  it("converts a tools array once (cached by identity)", () => {
    expect(convertToAnthropicTools(tools)).toBe(convertToAnthropicTools(tools));
    expect(convertToAnthropicTools([...tools])).not.toBe(convertToAnthropicTools(tools));
  });

  it("sets stream: true for streams, and refuses messages or tools in providerOptions", async () => {
    server = await startFixtureServer({ body: streamBody("stream-text.sse") });
    const model = createAnthropic({ baseURL: server.baseURL, apiKey: "k" })("claude-haiku-4-5");
    await readParts(
      model.stream({ messages: [{ role: "user", content: "hi" }], providerOptions: { stream: false } }),
    );
    expect((server.requests[0]?.body as { stream?: boolean } | undefined)?.stream).toBe(true);
    const error = await model
      .generate({ messages: [], providerOptions: { messages: [] } })
      .catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
  });
});
