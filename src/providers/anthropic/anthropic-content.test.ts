import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { Message } from "../../models/message.js";
import type { ModelRequest } from "../../models/model.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import { readParts } from "../openai/test-utils/stream-parts.js";
import { createAnthropic } from "./create-anthropic.js";
import { readFixture } from "./test-utils/fixtures.js";

// Images and PDFs through the Anthropic provider, from the outside: agent.run / agent.stream with content
// parts → a local server answering with the recorded response (the SSE re-chunked at random byte
// boundaries); the request body is compared with the recorded one.

type Block = Record<string, unknown>;
type AnthropicBody = { messages: Array<{ role: string; content: string | Block[] }> };

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function recordedRequest(name: string): AnthropicBody {
  return JSON.parse(readFixture(name).toString("utf8")) as AnthropicBody;
}

async function serve(script: ScriptedResponse): Promise<FixtureServer> {
  server = await startFixtureServer(script);
  return server;
}

function agentOn(baseURL: string, maxRetries = 0): Agent {
  return new Agent({
    model: createAnthropic({ baseURL, apiKey: "test-key" })("claude-sonnet-4-5"),
    retry: { maxRetries, baseDelayMs: 1 },
  });
}

const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, "base64"));

/** A JSON value without `cache_control` keys: prompt-cache breakpoints are not part of what is compared. */
function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "cache_control")
      .map(([key, item]) => [key, withoutCacheControl(item)]),
  );
}

const sentMessages = (s: FixtureServer) =>
  withoutCacheControl((s.requests[0]!.body as AnthropicBody).messages) as AnthropicBody["messages"];

describe("Anthropic: content parts against the recorded requests", () => {
  const recorded = recordedRequest("stream-image-input.request.json").messages[0];
  const [image, text] = recorded!.content as [
    { source: { data: string; media_type: string } },
    { text: string },
  ];
  const sse = readFixture("stream-image-input.sse");

  it.each([1, 2, 3, 4, 5])(
    "streams an image (bytes) placed before the text as the recorded image block; SSE re-chunked (seed %i)",
    async (seed) => {
      const s = await serve({ body: sse, splitAt: randomSplits(sse.length, seed, 40) });
      const stream = agentOn(s.baseURL).stream([
        { type: "image", data: bytesOf(image.source.data), mediaType: image.source.media_type },
        { type: "text", text: text.text },
      ]);
      let streamed = "";
      for await (const event of stream) if (event.type === "text_delta") streamed += event.data.delta;
      const result = await stream.result;
      expect(result.stopReason).toBe("completed");
      expect(result.text).toBe("Red square, green square.");
      expect(streamed).toBe(result.text);
      expect(sentMessages(s)).toEqual([recorded]);
    },
  );

  it("sends PDF bytes as the recorded document block", async () => {
    const s = await serve({ body: readFixture("nonstream-pdf-input.json"), contentType: "application/json" });
    const pdf = recordedRequest("nonstream-pdf-input.request.json").messages[0];
    const [question, document] = pdf!.content as [{ text: string }, { source: { data: string } }];
    const result = await agentOn(s.baseURL).run([
      { type: "text", text: question.text },
      { type: "file", data: bytesOf(document.source.data), mediaType: "application/pdf" },
    ]);
    expect(result.text).toBe(
      'The document simply contains the text "Dummy PDF file" at the top of what appears to be an otherwise blank page.',
    );
    expect(sentMessages(s)).toEqual([pdf]);
  });

  it("sends a tool result holding an image as tool_result content blocks", async () => {
    const s = await serve({ body: sse });
    const history: Message[] = [
      { role: "user", content: "Take a picture." },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "toolu_cam", name: "camera", arguments: {}, rawArguments: "{}" }],
      },
      {
        role: "tool",
        toolCallId: "toolu_cam",
        toolName: "camera",
        content: [
          { type: "text", text: "Picture taken." },
          { type: "image", data: image.source.data, mediaType: "image/png" },
        ],
      },
    ];
    const result = await agentOn(s.baseURL).stream("Describe it in three words", { messages: history })
      .result;
    expect(result.text).toBe("Red square, green square.");
    expect(sentMessages(s)[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_cam",
          content: [{ type: "text", text: "Picture taken." }, image],
        },
        { type: "text", text: "Describe it in three words" },
      ],
    });
  });
});

describe("Anthropic: a part it cannot take fails before any request", () => {
  const bmp = { type: "image" as const, data: "Qk0=", mediaType: "image/bmp" };
  const request: ModelRequest = { messages: [{ role: "user", content: [bmp] }] };

  it("model.generate and model.stream reject with UnsupportedContentError, and the server sees nothing", async () => {
    const s = await serve({ body: readFixture("stream-image-input.sse") });
    const model = createAnthropic({ baseURL: s.baseURL, apiKey: "test-key" })("claude-sonnet-4-5");
    await expect(model.generate(request)).rejects.toMatchObject({
      name: "UnsupportedContentError",
      provider: "anthropic",
      partType: "image",
      mediaType: "image/bmp",
    });
    await expect(readParts(model.stream(request))).rejects.toThrow(UnsupportedContentError);
    const docx: ModelRequest = {
      messages: [
        {
          role: "user",
          content: [{ type: "file", data: "UEs=", mediaType: "application/vnd.ms-excel" }],
        },
      ],
    };
    await expect(model.generate(docx)).rejects.toThrow(/PDF and plain-text documents only/);
    expect(s.requests).toHaveLength(0);
  });

  it("agent.run ends with stopReason error and that error, not retried (0 requests)", async () => {
    const s = await serve({ body: readFixture("stream-image-input.sse") });
    const result = await agentOn(s.baseURL, 3).run([{ type: "text", text: "What is it?" }, bmp]);
    expect(result.stopReason).toBe("error");
    expect(UnsupportedContentError.isInstance(result.error)).toBe(true);
    expect((result.error as UnsupportedContentError).isRetryable).toBe(false);
    expect(s.requests).toHaveLength(0);
  });
});
