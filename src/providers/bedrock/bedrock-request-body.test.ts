import { afterEach, describe, expect, it } from "vitest";
import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { Message } from "../../models/message.js";
import type { ModelRequest, ModelToolSpec } from "../../models/model.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { buildBedrockBody } from "./build-bedrock-body.js";
import { signatureProblem, testBedrockModel } from "./test-utils/bedrock-test-model.js";
import { converseAnswer } from "./test-utils/converse-answer.js";
import { readFixture } from "./test-utils/fixtures.js";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const body = (
  request: ModelRequest,
  options: { extraBody?: Record<string, unknown>; promptCaching?: boolean } = {},
) =>
  JSON.parse(
    buildBedrockBody({
      request,
      extraBody: options.extraBody,
      promptCaching: options.promptCaching ?? false,
    }),
  );

const countryTool: ModelToolSpec = {
  name: "get_capital",
  description: "Get the capital of a country.",
  parameters: {
    properties: { country: { description: "The country name.", title: "Country", type: "string" } },
    required: ["country"],
    type: "object",
    additionalProperties: false,
  },
};
const cityTool: ModelToolSpec = {
  name: "get_temperature",
  description: "Get the temperature in a city.",
  parameters: {
    properties: { city: { description: "The city name.", title: "City", type: "string" } },
    required: ["city"],
    type: "object",
    additionalProperties: false,
  },
};

describe("the Converse request", () => {
  it("matches the recorded request of converse-stream-text-then-tool-use, sent signed to /converse-stream", async () => {
    server = await startFixtureServer(converseAnswer({ turn: { text: "ok" }, stream: true }));
    const model = testBedrockModel(server.baseURL);
    const request: ModelRequest = {
      messages: [
        { role: "system", content: "You are a helpful chatbot." },
        { role: "user", content: "What is the temperature of the capital of France?" },
      ],
      tools: [countryTool, cityTool],
      providerOptions: { inferenceConfig: { topP: 0.5 } },
    };
    for await (const _part of model.stream(request)) {
      // drain
    }
    const recorded = JSON.parse(
      readFixture("converse-stream-text-then-tool-use.request.json").toString("utf8"),
    );
    expect(JSON.parse(server.requests[0]?.rawBody ?? "")).toEqual(recorded);
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(signatureProblem(server.requests[0])).toBeUndefined();
  });

  it("maps maxOutputTokens, temperature, tool choices and a JSON answer format", () => {
    const base: ModelRequest = { messages: [{ role: "user", content: "hi" }], tools: [cityTool] };
    expect(body({ ...base, maxOutputTokens: 100, temperature: 0.2 }).inferenceConfig).toEqual({
      maxTokens: 100,
      temperature: 0.2,
    });
    expect(body(base).inferenceConfig).toBeUndefined();
    expect(body({ ...base, toolChoice: "auto" }).toolConfig.toolChoice).toEqual({ auto: {} });
    expect(body({ ...base, toolChoice: "required" }).toolConfig.toolChoice).toEqual({ any: {} });
    expect(
      body({ ...base, toolChoice: { type: "tool", name: "get_temperature" } }).toolConfig.toolChoice,
    ).toEqual({
      tool: { name: "get_temperature" },
    });
    expect(body(base).toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: cityTool.name,
            description: cityTool.description,
            inputSchema: { json: cityTool.parameters },
          },
        },
      ],
    });
    const typed = body({
      messages: base.messages,
      output: {
        name: "answer",
        description: "The answer",
        schema: { type: "object", properties: { a: { type: "string" } } },
      },
    });
    expect(typed.outputConfig.textFormat.type).toBe("json_schema");
    const jsonSchema = typed.outputConfig.textFormat.structure.jsonSchema;
    expect(jsonSchema).toMatchObject({ name: "answer", description: "The answer" });
    expect(JSON.parse(jsonSchema.schema)).toMatchObject({
      type: "object",
      properties: { a: { type: "string" } },
    });
  });

  it('toolChoice "none" leaves the tools out, unless the history has tool blocks (Converse then requires them)', () => {
    const fresh: ModelRequest = {
      messages: [{ role: "user", content: "hi" }],
      tools: [cityTool],
      toolChoice: "none",
    };
    expect(body(fresh).toolConfig).toBeUndefined();
    const afterTools: ModelRequest = {
      ...fresh,
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "t1", name: "get_temperature", arguments: {}, rawArguments: "{}" }],
        },
        { role: "tool", toolCallId: "t1", toolName: "get_temperature", content: "20C" },
      ],
    };
    const config = body(afterTools).toolConfig;
    expect(config.tools).toHaveLength(1);
    expect(config.toolChoice).toBeUndefined();
  });

  it("converts a tool round: toolUse blocks, results merged into one user message, errors marked", () => {
    const messages: Message[] = [
      { role: "system", content: "Be brief." },
      { role: "system", content: "Summary so far." },
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "Checking.",
        toolCalls: [
          {
            id: "t1",
            name: "get_temperature",
            arguments: { city: "Paris" },
            rawArguments: '{"city":"Paris"}',
          },
          {
            id: "t2",
            name: "get_temperature",
            arguments: undefined,
            rawArguments: "{bad",
            parseError: "bad",
          },
        ],
      },
      { role: "tool", toolCallId: "t1", toolName: "get_temperature", content: "20C" },
      {
        role: "tool",
        toolCallId: "t2",
        toolName: "get_temperature",
        content: "invalid arguments",
        isError: true,
      },
      { role: "user", content: "Thanks" },
      { role: "assistant", content: "" },
    ];
    const sent = body({ messages });
    expect(sent.system).toEqual([{ text: "Be brief." }, { text: "Summary so far." }]);
    expect(sent.messages).toEqual([
      { role: "user", content: [{ text: "Weather in Paris and Rome?" }] },
      {
        role: "assistant",
        content: [
          { text: "Checking." },
          { toolUse: { toolUseId: "t1", name: "get_temperature", input: { city: "Paris" } } },
          { toolUse: { toolUseId: "t2", name: "get_temperature", input: {} } },
        ],
      },
      {
        role: "user",
        content: [
          { toolResult: { toolUseId: "t1", content: [{ text: "20C" }] } },
          { toolResult: { toolUseId: "t2", content: [{ text: "invalid arguments" }], status: "error" } },
          { text: "Thanks" },
        ],
      },
    ]);
  });

  it("sends signed reasoning back verbatim from providerData", () => {
    const content = [
      { reasoningContent: { reasoningText: { text: "Think.", signature: "sig==" } } },
      { text: "Calling." },
      { toolUse: { toolUseId: "t1", name: "get_temperature", input: { city: "Oslo" } } },
    ];
    const sent = body({
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: "Calling.",
          toolCalls: [{ id: "t1", name: "get_temperature", arguments: { city: "Oslo" }, rawArguments: "" }],
          providerData: { bedrock: { content } },
        },
        { role: "tool", toolCallId: "t1", toolName: "get_temperature", content: "" },
      ],
    });
    expect(sent.messages[1]).toEqual({ role: "assistant", content });
    expect(sent.messages[2].content[0].toolResult.content).toEqual([{ text: "" }]);
  });

  it("converts images and documents (inline and from S3) and refuses what Converse cannot take", () => {
    const sent = body({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Look" },
            { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
            { type: "image", url: "s3://bucket/cat.jpg", mediaType: "image/jpg" },
            {
              type: "file",
              data: "JVBERi0=",
              mediaType: "application/pdf",
              filename: "Q3 report (final).pdf",
            },
            { type: "file", data: "aGk=", mediaType: "text/markdown", filename: "notes_v2.md" },
          ],
        },
      ],
    });
    expect(sent.messages[0].content).toEqual([
      { text: "Look" },
      { image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } },
      { image: { format: "jpeg", source: { s3Location: { uri: "s3://bucket/cat.jpg" } } } },
      { document: { format: "pdf", name: "Q3 report (final)", source: { bytes: "JVBERi0=" } } },
      { document: { format: "md", name: "notes-v2", source: { bytes: "aGk=" } } },
    ]);
    const refused = (content: Message) => () =>
      buildBedrockBody({ request: { messages: [content] }, promptCaching: false });
    expect(refused({ role: "user", content: [{ type: "image", url: "https://x.test/a.png" }] })).toThrow(
      UnsupportedContentError,
    );
    expect(
      refused({ role: "user", content: [{ type: "file", data: "AA==", mediaType: "audio/mpeg" }] }),
    ).toThrow(/audio and video/);
    expect(
      refused({ role: "user", content: [{ type: "file", data: "AA==", mediaType: "application/zip" }] }),
    ).toThrow(/Bedrock reads PDF/);
  });

  it("refuses an unsupported part before any request is sent", async () => {
    server = await startFixtureServer(converseAnswer({ turn: { text: "ok" }, stream: false }));
    const model = testBedrockModel(server.baseURL);
    await expect(
      model.generate({
        messages: [{ role: "user", content: [{ type: "image", url: "https://x.test/a.png" }] }],
      }),
    ).rejects.toThrow(UnsupportedContentError);
    expect(server.requests).toHaveLength(0);
  });

  it("merges extraBody and providerOptions (inferenceConfig field by field) and guards messages/toolConfig", () => {
    const sent = body(
      {
        messages: [{ role: "user", content: "hi" }],
        maxOutputTokens: 50,
        providerOptions: { inferenceConfig: { topP: 0.9 } },
      },
      {
        extraBody: {
          inferenceConfig: { stopSequences: ["END"] },
          additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 1024 } },
        },
      },
    );
    expect(sent.inferenceConfig).toEqual({ maxTokens: 50, stopSequences: ["END"], topP: 0.9 });
    expect(sent.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 1024 } });
    expect(() => body({ messages: [], providerOptions: { messages: [] } })).toThrow(/cannot be set/);
    expect(() => body({ messages: [] }, { extraBody: { toolConfig: {} } })).toThrow(/cannot be set/);
  });

  it("prompt caching puts a cachePoint after the tools, the system prompt and the last message", () => {
    const sent = body(
      {
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hi" },
        ],
        tools: [cityTool],
      },
      { promptCaching: true },
    );
    const point = { cachePoint: { type: "default" } };
    expect(sent.system).toEqual([{ text: "Be brief." }, point]);
    expect(sent.toolConfig.tools.at(-1)).toEqual(point);
    expect(sent.messages).toEqual([{ role: "user", content: [{ text: "hi" }, point] }]);
  });
});
