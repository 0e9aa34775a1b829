import { afterEach, describe, expect, it, vi } from "vitest";
import { ModelCallError } from "../../errors/model-call-error.js";
import { createToolCall, type Message } from "../../models/message.js";
import type { ModelRequest, ModelToolSpec } from "../../models/model.js";
import { convertToOpenAITools } from "./convert-to-openai-tools.js";
import { createOpenAI } from "./create-openai.js";
import { type FixtureServer, startFixtureServer } from "./test-utils/fixture-server.js";
import { readFixture, streamBody } from "./test-utils/fixtures.js";
import { foldParts, readParts } from "./test-utils/stream-parts.js";

const tools: ModelToolSpec[] = [
  {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];

const messages: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in Paris and Rome?" },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      createToolCall({ id: "call_1", name: "get_weather", rawArguments: '{"city":"Paris"}' }),
      createToolCall({ id: "call_2", name: "get_weather", rawArguments: '{"city": "Rome"' }),
    ],
  },
  { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: "18C, sunny" },
  {
    role: "tool",
    toolCallId: "call_2",
    toolName: "get_weather",
    content: "Invalid arguments",
    isError: true,
  },
  {
    role: "assistant",
    content: "Retrying Rome.",
    toolCalls: [createToolCall({ id: "call_3", name: "get_weather", rawArguments: '{"city":"Rome"}' })],
    providerData: { ignored: true },
  },
  { role: "tool", toolCallId: "call_3", toolName: "get_weather", content: "21C" },
  { role: "assistant", content: "Paris 18C, Rome 21C." },
  { role: "user", content: "Thanks" },
];

/** The wire form of `messages`: raw argument text is sent as the model wrote it (even when invalid). */
const wireMessages = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in Paris and Rome?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city": "Rome"' } },
    ],
  },
  { role: "tool", tool_call_id: "call_1", content: "18C, sunny" },
  { role: "tool", tool_call_id: "call_2", content: "Invalid arguments" },
  {
    role: "assistant",
    content: "Retrying Rome.",
    tool_calls: [
      { id: "call_3", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
    ],
  },
  { role: "tool", tool_call_id: "call_3", content: "21C" },
  { role: "assistant", content: "Paris 18C, Rome 21C." },
  { role: "user", content: "Thanks" },
];

const wireTools = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather for a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];

let server: FixtureServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function jsonServer() {
  server = await startFixtureServer({
    body: readFixture("nonstream-tool-call.json"),
    contentType: "application/json",
  });
  return server;
}

function lastRequest() {
  const request = server?.requests.at(-1);
  if (request === undefined) throw new Error("no request recorded");
  return request;
}

describe("OpenAI Chat request bodies", () => {
  it("sends messages, tools, tool_choice, parallel_tool_calls, temperature and max_tokens (generate)", async () => {
    const { baseURL } = await jsonServer();
    const openai = createOpenAI({ baseURL, apiKey: "sk-test", extraBody: { user: "u-1", seed: 1 } });
    await openai("gpt-4o-mini").generate({
      messages,
      tools,
      toolChoice: { type: "tool", name: "get_weather" },
      parallelToolCalls: false,
      temperature: 0.2,
      maxOutputTokens: 256,
      providerOptions: { seed: 42, top_p: 0.9 },
    });
    const request = lastRequest();
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/v1/chat/completions");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers.authorization).toBe("Bearer sk-test");
    expect(request.body).toEqual({
      model: "gpt-4o-mini",
      messages: wireMessages,
      tools: wireTools,
      tool_choice: { type: "function", function: { name: "get_weather" } },
      parallel_tool_calls: false,
      temperature: 0.2,
      max_tokens: 256,
      user: "u-1",
      seed: 42,
      top_p: 0.9,
    });
  });

  it("adds stream and stream_options.include_usage when streaming, keeping other stream_options", async () => {
    server = await startFixtureServer({ body: streamBody("stream-text.sse") });
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: "sk-test" })("gpt-4o");
    await readParts(
      model.stream({
        messages: [{ role: "user", content: "hi" }],
        providerOptions: { stream_options: { include_obfuscation: false } },
      }),
    );
    const request = lastRequest();
    expect(request.headers.accept).toBe("text/event-stream");
    expect(request.body).toEqual({
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_obfuscation: false, include_usage: true },
    });
  });

  it("never sends stream fields on generate, even when given in providerOptions", async () => {
    const { baseURL } = await jsonServer();
    const model = createOpenAI({ baseURL, apiKey: "k" })("m");
    await model.generate({ messages: [{ role: "user", content: "x" }], providerOptions: { stream: true } });
    expect(lastRequest().body).toEqual({ model: "m", messages: [{ role: "user", content: "x" }] });
  });

  it.each(["auto", "none", "required"] as const)("sends tool_choice %s as a string", async (choice) => {
    const { baseURL } = await jsonServer();
    await createOpenAI({ baseURL, apiKey: "k" })("m").generate({ messages, tools, toolChoice: choice });
    expect(lastRequest().body).toMatchObject({ tool_choice: choice });
    expect(lastRequest().body).not.toHaveProperty("parallel_tool_calls");
  });

  it("leaves out tools, tool_choice and parallel_tool_calls when there are no tools", async () => {
    const { baseURL } = await jsonServer();
    const model = createOpenAI({ baseURL, apiKey: "k" })("m");
    await model.generate({ messages, tools: [], toolChoice: "required", parallelToolCalls: true });
    expect(Object.keys(lastRequest().body as object)).toEqual(["model", "messages"]);
  });

  it("sends max_completion_tokens instead of max_tokens when the options ask for it", async () => {
    const { baseURL } = await jsonServer();
    const model = createOpenAI({ baseURL, apiKey: "k" })("o4-mini");
    await model.generate({ messages, maxOutputTokens: 100, providerOptions: { max_completion_tokens: 500 } });
    expect(lastRequest().body).toMatchObject({ max_completion_tokens: 500 });
    expect(lastRequest().body).not.toHaveProperty("max_tokens");
  });

  it("sends no Authorization header without a key (OpenAI-compatible local servers)", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    const { baseURL } = await jsonServer();
    await createOpenAI({ baseURL })("llama3.2").generate({ messages });
    expect(lastRequest().headers).not.toHaveProperty("authorization");
  });

  it("reads OPENAI_API_KEY when a request is made, not when the provider is created", async () => {
    const { baseURL } = await jsonServer();
    vi.stubEnv("OPENAI_API_KEY", "");
    const model = createOpenAI({ baseURL })("gpt-4o");
    vi.stubEnv("OPENAI_API_KEY", "sk-from-env");
    await model.generate({ messages });
    expect(lastRequest().headers.authorization).toBe("Bearer sk-from-env");
  });

  it("sends custom headers, which override the provider's own", async () => {
    const { baseURL } = await jsonServer();
    const headers = { "OpenAI-Organization": "org-1", Authorization: "Bearer from-headers" };
    await createOpenAI({ baseURL, apiKey: "sk-test", headers })("m").generate({ messages });
    expect(lastRequest().headers["openai-organization"]).toBe("org-1");
    expect(lastRequest().headers.authorization).toBe("Bearer from-headers");
  });

  it("fails clearly, without a request, when api.openai.com is called without a key", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    const model = createOpenAI({ baseURL: "https://api.openai.com/v1" })("gpt-4o");
    for (const attempt of [() => model.generate({ messages }), () => readParts(model.stream({ messages }))]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect((error as ModelCallError).message).toContain("OPENAI_API_KEY");
      expect((error as ModelCallError).code).toBe("missing_api_key");
      expect((error as ModelCallError).isRetryable).toBe(false);
    }
  });

  it("converts a tools array once per array identity", () => {
    const first = convertToOpenAITools(tools);
    expect(convertToOpenAITools(tools)).toBe(first);
    expect(convertToOpenAITools([...tools])).not.toBe(first);
    expect(first).toEqual(wireTools);
  });

  it("replays a recorded agent turn: tool call, then the answer after the tool result", async () => {
    server = await startFixtureServer([
      { body: streamBody("stream-tool-call-include-usage.sse") },
      { body: streamBody("stream-text-after-tool-result.sse") },
    ]);
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: "sk-test" })("gpt-4o-mini");
    const capitalTool: ModelToolSpec = {
      name: "get_capital",
      description: "The capital of a country",
      parameters: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
    };
    const request: ModelRequest = {
      messages: [{ role: "user", content: "What is the capital of the UK?" }],
      tools: [capitalTool],
      parallelToolCalls: true,
    };
    const first = foldParts(await readParts(model.stream(request)));
    const call = first.toolCalls[0];
    expect(call?.arguments).toEqual({ country: "UK" });
    if (call === undefined) return;
    const second = foldParts(
      await readParts(
        model.stream({
          ...request,
          messages: [
            ...request.messages,
            { role: "assistant", content: first.text, toolCalls: first.toolCalls },
            { role: "tool", toolCallId: call.id, toolName: call.name, content: "London" },
          ],
        }),
      ),
    );
    expect(second.text).toBe("The capital of the UK is London.");
    expect(server.requests[1]?.body).toMatchObject({
      messages: [
        { role: "user", content: "What is the capital of the UK?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_ZR5UUuTt3pf61kjwAJIYdVMj",
              type: "function",
              function: { name: "get_capital", arguments: '{"country":"UK"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_ZR5UUuTt3pf61kjwAJIYdVMj", content: "London" },
      ],
      parallel_tool_calls: true,
      stream: true,
    });
  });
});
