import { afterEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import type { AssistantMessage, Message } from "../../models/message.js";
import type { ModelRequest, ModelToolSpec } from "../../models/model.js";
import { createOpenAI } from "../openai/create-openai.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { foldParts, readParts } from "../openai/test-utils/stream-parts.js";
import { buildOpenAIResponsesBody } from "./build-openai-responses-body.js";
import { convertToOpenAIResponsesInput } from "./convert-to-openai-responses-input.js";
import { completedResponse, responsesStreamBody } from "./test-utils/responses-fixtures.js";

const tools: ModelToolSpec[] = [
  {
    name: "get_capital",
    description: "The capital of a country",
    parameters: { type: "object", properties: { country: { type: "string" } } },
  },
];

function body(
  request: ModelRequest,
  options: { stream?: boolean; extraBody?: Record<string, unknown> } = {},
) {
  const json = buildOpenAIResponsesBody({
    modelId: "gpt-5",
    request,
    extraBody: options.extraBody,
    stream: options.stream ?? false,
  });
  return JSON.parse(json) as Record<string, unknown>;
}

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("buildOpenAIResponsesBody", () => {
  it("sends instructions, input, flat tools, store:false and the encrypted-reasoning include", () => {
    const sent = body(
      {
        messages: [
          { role: "system", content: "Be brief." },
          { role: "system", content: "Answer in English." },
          { role: "user", content: "Capital of France?" },
          { role: "system", content: "Late note." },
        ],
        tools,
        toolChoice: { type: "tool", name: "get_capital" },
        parallelToolCalls: false,
        temperature: 0.2,
        maxOutputTokens: 50,
      },
      { stream: true },
    );
    expect(sent).toEqual({
      model: "gpt-5",
      instructions: "Be brief.\n\nAnswer in English.",
      tool_choice: { type: "function", name: "get_capital" },
      parallel_tool_calls: false,
      temperature: 0.2,
      max_output_tokens: 50,
      store: false,
      include: ["reasoning.encrypted_content"],
      stream: true,
      input: [
        { role: "user", content: "Capital of France?" },
        { role: "system", content: "Late note." },
      ],
      tools: [
        {
          type: "function",
          name: "get_capital",
          description: "The capital of a country",
          parameters: { type: "object", properties: { country: { type: "string" } } },
          strict: false,
        },
      ],
    });
  });

  it.each(["auto", "none", "required"] as const)(
    "passes tool_choice %s through; leaves it out without tools",
    (choice) => {
      expect(body({ messages: [], tools, toolChoice: choice }).tool_choice).toBe(choice);
      expect(body({ messages: [], toolChoice: choice, parallelToolCalls: true })).toEqual({
        model: "gpt-5",
        store: false,
        include: ["reasoning.encrypted_content"],
        input: [],
      });
    },
  );

  it("converts assistant turns without provider data and tool results (call_id, not the item id)", () => {
    const messages: Message[] = [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: "Checking.",
        toolCalls: [
          {
            id: "call_1",
            name: "get_capital",
            arguments: { country: "FR" },
            rawArguments: '{"country": "FR"}',
          },
        ],
      },
      { role: "tool", toolCallId: "call_1", toolName: "get_capital", content: "Paris", isError: false },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_2", name: "x", arguments: {}, rawArguments: "" }],
      },
      { role: "tool", toolCallId: "call_2", toolName: "x", content: "boom", isError: true },
    ];
    const expected = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "Checking." },
      { type: "function_call", call_id: "call_1", name: "get_capital", arguments: '{"country": "FR"}' },
      { type: "function_call_output", call_id: "call_1", output: "Paris" },
      { type: "function_call", call_id: "call_2", name: "x", arguments: "" },
      { type: "function_call_output", call_id: "call_2", output: "boom" },
    ];
    expect(convertToOpenAIResponsesInput(messages)).toEqual({ instructions: undefined, input: expected });
    expect(body({ messages }).input).toEqual(expected);
  });

  it("lets extraBody and providerOptions override store/include (the last wins), but not input or tools", () => {
    const request: ModelRequest = { messages: [], providerOptions: { include: [], store: true } };
    expect(body(request, { extraBody: { store: "ignored", service_tier: "flex" } })).toMatchObject({
      store: true,
      include: [],
      service_tier: "flex",
    });
    expect(() => body({ messages: [], providerOptions: { input: [] } })).toThrow(InvalidArgumentError);
    expect(() => body({ messages: [] }, { extraBody: { tools: [] } })).toThrow(InvalidArgumentError);
    expect(body({ messages: [], providerOptions: { stream: true, stream_options: {} } })).not.toHaveProperty(
      "stream",
    );
  });
});

describe("createOpenAI().responses", () => {
  it("makes a Responses model with the provider's settings", () => {
    const model = createOpenAI({ baseURL: "http://localhost:1/v1", apiKey: "k" }).responses("gpt-5");
    expect(model.provider).toBe("openai");
    expect(model.modelId).toBe("gpt-5");
    expect(() => createOpenAI({ apiKey: "k" }).responses(" ")).toThrow(InvalidArgumentError);
  });

  it("refuses to call api.openai.com without a key, before any request", async () => {
    const model = createOpenAI({ baseURL: "https://api.openai.com/v1", apiKey: "" }).responses("gpt-5");
    const error = await model.generate({ messages: [] }).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).code).toBe("missing_api_key");
  });

  it("sends headers and the provider's extraBody", async () => {
    server = await startFixtureServer({
      body: JSON.stringify(completedResponse("stream-text.sse")),
      contentType: "application/json",
    });
    const model = createOpenAI({
      baseURL: server.baseURL,
      apiKey: "sk-test",
      headers: { "OpenAI-Organization": "org-1" },
      extraBody: { reasoning: { effort: "low" } },
    }).responses("gpt-5");
    await model.generate({ messages: [{ role: "user", content: "hi" }] });
    const [sent] = server.requests;
    expect(sent?.headers.authorization).toBe("Bearer sk-test");
    expect(sent?.headers["openai-organization"]).toBe("org-1");
    expect(sent?.headers.accept).toBe("application/json");
    expect(sent?.body).toMatchObject({ reasoning: { effort: "low" }, store: false });
  });
});

describe("reasoning round trip (stream-reasoning-function-call.sse)", () => {
  const name = "stream-reasoning-function-call.sse";

  it.each(["stream", "generate"] as const)(
    "sends the recorded output items back unchanged (%s)",
    async (mode) => {
      server = await startFixtureServer([
        mode === "stream"
          ? { body: responsesStreamBody(name) }
          : { body: JSON.stringify(completedResponse(name)), contentType: "application/json" },
        { body: responsesStreamBody("stream-text.sse") },
      ]);
      const model = createOpenAI({ baseURL: server.baseURL, apiKey: "k" }).responses("gpt-5");
      const user: Message = { role: "user", content: "Compute it." };
      const first =
        mode === "stream"
          ? foldParts(await readParts(model.stream({ messages: [user] })))
          : await model.generate({ messages: [user] });
      // The assistant message exactly as the agent loop builds it.
      const assistant: AssistantMessage = {
        role: "assistant",
        content: first.text,
        toolCalls: first.toolCalls,
      };
      if (first.providerData !== undefined) assistant.providerData = first.providerData;
      const call = first.toolCalls[0];
      const messages: Message[] = [
        { role: "system", content: "Be brief." },
        user,
        assistant,
        { role: "tool", toolCallId: call?.id ?? "", toolName: call?.name ?? "", content: "6666" },
      ];
      await readParts(model.stream({ messages }));

      const recorded = completedResponse(name).output ?? [];
      const second = server.requests[1]?.body as {
        instructions: string;
        input: Array<Record<string, unknown>>;
      };
      expect(second.instructions).toBe("Be brief.");
      expect(second.input).toEqual([
        { role: "user", content: "Compute it." },
        ...recorded,
        { type: "function_call_output", call_id: "call_CWXgs68YprAjp6t0371hiPOI", output: "6666" },
      ]);
      expect(second.input[1]).toMatchObject({
        type: "reasoning",
        encrypted_content: recorded[0]?.encrypted_content,
      });
      expect(second.input[2]).toMatchObject({
        type: "function_call",
        call_id: "call_CWXgs68YprAjp6t0371hiPOI",
      });
      expect(server.requests[1]?.body).toMatchObject({
        store: false,
        include: ["reasoning.encrypted_content"],
      });
    },
  );
});
