import { afterEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { Message } from "../../models/message.js";
import type { ModelRequest } from "../../models/model.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { SKIP_THOUGHT_SIGNATURE } from "./convert-to-google-contents.js";
import { createGoogle, type GoogleProviderOptions } from "./create-google.js";
import { readFixture } from "./test-utils/fixtures.js";

// What the provider sends: the body of one request for a given conversation and settings.

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = Record<string, unknown> & {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  generationConfig?: Record<string, unknown>;
};

async function sent(
  request: ModelRequest,
  { modelId = "gemini-2.5-flash", ...options }: GoogleProviderOptions & { modelId?: string } = {},
): Promise<Body> {
  server = await startFixtureServer({
    body: readFixture("nonstream-cached-content.json"),
    contentType: "application/json",
  });
  const model = createGoogle({ baseURL: server.baseURL, apiKey: "test-key", ...options })(modelId);
  await model.generate(request);
  return server.requests[0]?.body as Body;
}

const user = (content: string): Message => ({ role: "user", content });

describe("the generateContent body", () => {
  it("puts system messages into systemInstruction and merges consecutive turns of one role", async () => {
    const body = await sent({
      messages: [
        { role: "system", content: "Be brief." },
        user("one"),
        user("two"),
        { role: "assistant", content: "ok" },
        { role: "system", content: "Summary so far." },
        user("three"),
      ],
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: "Be brief.\n\nSummary so far." }] });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "one" }, { text: "two" }] },
      { role: "model", parts: [{ text: "ok" }] },
      { role: "user", parts: [{ text: "three" }] },
    ]);
    expect(body.generationConfig).toBeUndefined();
    expect(body.tools).toBeUndefined();
  });

  it.each([
    ["auto", { mode: "AUTO" }],
    ["none", { mode: "NONE" }],
    ["required", { mode: "ANY" }],
    [
      { type: "tool", name: "search" },
      { mode: "ANY", allowedFunctionNames: ["search"] },
    ],
  ] as const)("maps toolChoice %j to functionCallingConfig", async (toolChoice, config) => {
    const tools = [
      {
        name: "search",
        description: "Search",
        parameters: { type: "object", properties: { q: { type: "string" } } },
      },
    ];
    const body = await sent({ messages: [user("hi")], tools, toolChoice });
    expect(body.toolConfig).toEqual({ functionCallingConfig: config });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: "search", description: "Search", parametersJsonSchema: tools[0]?.parameters },
        ],
      },
    ]);
  });

  it("sends no toolConfig without a choice, and no tools or toolConfig without tools", async () => {
    const tools = [{ name: "now", description: "The time", parameters: { type: "object", properties: {} } }];
    expect((await sent({ messages: [user("hi")], tools })).toolConfig).toBeUndefined();
    await server?.close();
    const body = await sent({ messages: [user("hi")], toolChoice: "required" });
    expect(body.tools).toBeUndefined();
    expect(body.toolConfig).toBeUndefined();
  });

  it("puts temperature, maxOutputTokens and thinking into generationConfig; the options' fields merge in", async () => {
    const body = await sent(
      {
        messages: [user("hi")],
        temperature: 0.2,
        maxOutputTokens: 300,
        providerOptions: {
          generationConfig: { topK: 3, temperature: 0.5 },
          cachedContent: "cachedContents/x",
        },
      },
      {
        thinking: { budgetTokens: 1024, includeThoughts: true },
        extraBody: { generationConfig: { stopSequences: ["END"] }, labels: { team: "a" } },
        safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }],
      },
    );
    expect(body.generationConfig).toEqual({
      temperature: 0.5,
      maxOutputTokens: 300,
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      stopSequences: ["END"],
      topK: 3,
    });
    expect(body.cachedContent).toBe("cachedContents/x");
    expect(body.labels).toEqual({ team: "a" });
    expect(body.safetySettings).toEqual([
      { category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" },
    ]);
  });

  it("sends a thinking level for Gemini 3", async () => {
    const body = await sent(
      { messages: [user("hi")] },
      { thinking: { level: "low" }, modelId: "gemini-3-pro-preview" },
    );
    expect(body.generationConfig).toEqual({ thinkingConfig: { thinkingLevel: "low" } });
  });

  it("refuses contents or tools in providerOptions before sending anything", async () => {
    server = await startFixtureServer({ body: "{}", contentType: "application/json" });
    const model = createGoogle({ baseURL: server.baseURL, apiKey: "k" })("gemini-2.5-flash");
    const error = await model
      .generate({ messages: [user("hi")], providerOptions: { contents: [] } })
      .catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it("asks for a typed answer with responseMimeType and responseJsonSchema (converted)", async () => {
    const schema = {
      type: "object",
      properties: { city: { type: "string", pattern: "^[A-Z]" }, kind: { const: "capital" } },
      required: ["city"],
      additionalProperties: false,
    };
    const body = await sent(
      { messages: [user("hi")], output: { name: "answer", schema } },
      { modelId: "gemini-3-flash-preview" },
    );
    expect(body.generationConfig).toEqual({
      responseMimeType: "application/json",
      responseJsonSchema: {
        type: "object",
        properties: {
          city: { type: "string", description: '{pattern: "^[A-Z]"}' },
          kind: { enum: ["capital"] },
        },
        required: ["city"],
        additionalProperties: false,
      },
    });
  });
});

describe("model turns and tool results", () => {
  const history = (modelId: string): ModelRequest => ({
    messages: [
      user("Weather in Paris and Rome?"),
      {
        role: "assistant",
        content: "Checking.",
        toolCalls: [
          { id: "call_a", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' },
          { id: "call_b", name: "weather", arguments: undefined, rawArguments: "{oops", parseError: "bad" },
        ],
      },
      // Results out of call order: sent in call order.
      {
        role: "tool",
        toolCallId: "call_b",
        toolName: "weather",
        content: "invalid arguments",
        isError: true,
      },
      {
        role: "tool",
        toolCallId: "call_a",
        toolName: "weather",
        content: [
          { type: "text", text: "sunny" },
          { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
        ],
      },
      user(`Thanks (${modelId}).`),
    ],
  });

  it("rebuilds a turn from another provider with ids; Gemini 3 gets the documented skip signature on its first call", async () => {
    const body = await sent(history("g3"), { modelId: "gemini-3-flash-preview" });
    expect(body.contents[1]).toEqual({
      role: "model",
      parts: [
        { text: "Checking." },
        {
          functionCall: { name: "weather", args: { city: "Paris" }, id: "call_a" },
          thoughtSignature: SKIP_THOUGHT_SIGNATURE,
        },
        { functionCall: { name: "weather", args: {}, id: "call_b" } },
      ],
    });
    expect(body.contents[2]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            name: "weather",
            response: { output: "sunny" },
            id: "call_a",
            // Gemini 3 reads a tool's images inside its function response.
            parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }],
          },
        },
        { functionResponse: { name: "weather", response: { error: "invalid arguments" }, id: "call_b" } },
        { text: "Thanks (g3)." },
      ],
    });
  });

  it("before Gemini 3: no skip signature, and a tool's images follow the function responses", async () => {
    const body = await sent(history("g25"), { modelId: "gemini-2.5-flash" });
    const model = body.contents[1]?.parts ?? [];
    expect(model.some((part) => "thoughtSignature" in part)).toBe(false);
    expect(body.contents[2]?.parts).toEqual([
      { functionResponse: { name: "weather", response: { output: "sunny" }, id: "call_a" } },
      { functionResponse: { name: "weather", response: { error: "invalid arguments" }, id: "call_b" } },
      { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
      { text: "Thanks (g25)." },
    ]);
  });

  it("rebuilds a turn whose stored parts no longer match its tool calls", async () => {
    const body = await sent({
      messages: [
        user("hi"),
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "x1", name: "b", arguments: {}, rawArguments: "{}" }],
          providerData: {
            google: { parts: [{ functionCall: { name: "a", args: {} }, thoughtSignature: "sig" }] },
          },
        },
        { role: "tool", toolCallId: "x1", toolName: "b", content: "done" },
      ],
    });
    expect(body.contents[1]?.parts).toEqual([{ functionCall: { name: "b", args: {}, id: "x1" } }]);
  });
});

describe("images and files", () => {
  it("sends inline images and files as inlineData and URLs as fileData, in order", async () => {
    const body = await sent({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Compare:" },
            { type: "image", mediaType: "image/jpeg", data: "/9j/4AAQ" },
            { type: "image", url: "https://example.com/cat.webp", mediaType: "image/webp" },
            { type: "image", url: "https://example.com/dog" },
            {
              type: "file",
              mediaType: "application/pdf",
              url: "https://generativelanguage.googleapis.com/v1beta/files/abc",
            },
            { type: "file", mediaType: "audio/mpeg", data: "SUQz" },
            { type: "text", text: "" },
          ],
        },
      ],
    });
    expect(body.contents[0]?.parts).toEqual([
      { text: "Compare:" },
      { inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQ" } },
      { fileData: { fileUri: "https://example.com/cat.webp", mimeType: "image/webp" } },
      { fileData: { fileUri: "https://example.com/dog" } },
      {
        fileData: {
          fileUri: "https://generativelanguage.googleapis.com/v1beta/files/abc",
          mimeType: "application/pdf",
        },
      },
      { inlineData: { mimeType: "audio/mpeg", data: "SUQz" } },
    ]);
  });

  it.each([
    [{ type: "image", mediaType: "image/gif", data: "R0lGODlh" }, /GIF|PNG, JPEG, WebP/],
    [{ type: "image", data: "iVBORw0KGgo=" }, /mediaType/],
    [
      { type: "file", mediaType: "application/vnd.ms-excel", data: "AAAA" },
      /PDF, plain-text, audio and video/,
    ],
  ] as const)("refuses %j before any request", async (part, reason) => {
    server = await startFixtureServer({ body: "{}", contentType: "application/json" });
    const model = createGoogle({ baseURL: server.baseURL, apiKey: "k" })("gemini-2.5-flash");
    const error = await model
      .generate({ messages: [{ role: "user", content: [part] as never }] })
      .catch((e: unknown) => e);
    expect(UnsupportedContentError.isInstance(error)).toBe(true);
    expect((error as UnsupportedContentError).provider).toBe("google");
    expect((error as Error).message).toMatch(reason);
    expect(server.requests).toHaveLength(0);
  });
});
