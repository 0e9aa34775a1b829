import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { Message } from "../../models/message.js";
import type { ModelRequest } from "../../models/model.js";
import { openAIMessagesJson } from "./convert-to-openai-messages.js";
import { createOpenAI } from "./create-openai.js";
import { type FixtureServer, startFixtureServer } from "./test-utils/fixture-server.js";
import { readFixture } from "./test-utils/fixtures.js";
import { readParts } from "./test-utils/stream-parts.js";

// Images and PDFs through the Chat Completions provider, from the outside: agent.run with content parts → a
// local server answering with the recorded response; the request body is compared with the recorded one.

type ChatBody = { messages: Array<{ role: string; content: unknown }> };

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function recordedRequest(name: string): ChatBody {
  return JSON.parse(readFixture(name).toString("utf8")) as ChatBody;
}

async function serve(name: string): Promise<FixtureServer> {
  server = await startFixtureServer({ body: readFixture(name), contentType: "application/json" });
  return server;
}

function agentOn(baseURL: string, maxRetries = 0): Agent {
  return new Agent({
    model: createOpenAI({ baseURL, apiKey: "sk-test" })("gpt-4o"),
    retry: { maxRetries, baseDelayMs: 1 },
  });
}

/** Base64 → bytes (the caller gives bytes; the provider must send them back as the recorded base64). */
function bytesOf(base64: string): Uint8Array {
  return new Uint8Array(Buffer.from(base64, "base64"));
}

describe("OpenAI Chat: content parts against the recorded requests", () => {
  it("sends an image by URL as the recorded image_url part and returns the recorded answer", async () => {
    const { baseURL, requests } = await serve("nonstream-image-url-input.json");
    const recorded = recordedRequest("nonstream-image-url-input.request.json").messages.at(-1);
    // The recorded last message: [text "This is file bd38f5:", image_url {url}].
    const [text, image] = recorded!.content as [{ text: string }, { image_url: { url: string } }];
    const result = await agentOn(baseURL).run([
      { type: "text", text: text.text },
      { type: "image", url: image.image_url.url },
    ]);
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("The image shows a potato.");
    expect(requests).toHaveLength(1);
    const sent = (requests[0]!.body as ChatBody).messages.at(-1);
    expect(sent).toEqual(recorded);
  });

  it("sends PDF bytes as the recorded inline file part (a data: URL and a filename)", async () => {
    const { baseURL, requests } = await serve("nonstream-pdf-input.json");
    const recorded = recordedRequest("nonstream-pdf-input.request.json").messages[0];
    const [text, file] = recorded!.content as [
      { text: string },
      { file: { file_data: string; filename: string } },
    ];
    const base64 = file.file.file_data.slice("data:application/pdf;base64,".length);
    const result = await agentOn(baseURL).run([
      { type: "text", text: text.text },
      { type: "file", data: bytesOf(base64), mediaType: "application/pdf", filename: file.file.filename },
    ]);
    expect(result.text).toBe('The document contains the text "Dummy PDF file" on its single page.');
    const sent = (requests[0]!.body as ChatBody).messages[0];
    expect(sent).toEqual(recorded);
    expect(recorded?.content).toHaveLength(2);
  });
});

describe("OpenAI Chat: a tool result holding an image", () => {
  it("is sent as the recorded request sends it: text in the tool message, the image in the user message after it", () => {
    const recorded = recordedRequest("nonstream-image-url-input.request.json").messages;
    const [ask, calls, toolMessage, after] = recorded as unknown as [
      { content: [{ text: string }] },
      { tool_calls: [{ id: string; function: { name: string } }] },
      { content: string },
      { content: [unknown, { image_url: { url: string } }] },
    ];
    const call = calls.tool_calls[0];
    const history: Message[] = [
      { role: "user", content: ask.content[0].text },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: call.id, name: call.function.name, arguments: {}, rawArguments: "{}" }],
      },
      {
        role: "tool",
        toolCallId: call.id,
        toolName: call.function.name,
        content: [
          { type: "text", text: toolMessage.content },
          { type: "image", url: after.content[1].image_url.url },
        ],
      },
    ];
    const sent = JSON.parse(`[${openAIMessagesJson(history)}]`) as ChatBody["messages"];
    expect(sent.map((message) => message.role)).toEqual(recorded.map((message) => message.role));
    expect(sent[2]).toEqual({
      role: "tool",
      tool_call_id: call.id,
      content: `${toolMessage.content}\n[1 attachment follows in the next user message]`,
    });
    // The label differs from pydantic-ai's ("This is file bd38f5:"); the image part is the recorded one.
    expect(sent[3]).toEqual({
      role: "user",
      content: [{ type: "text", text: expect.any(String) }, after.content[1]],
    });
  });
});

describe("OpenAI Chat: a tool result holding an image, through the request builder", () => {
  it("agent.run with that history sends the image in a user message after the tool message", async () => {
    const { baseURL, requests } = await serve("nonstream-image-url-input.json");
    const recorded = recordedRequest("nonstream-image-url-input.request.json").messages;
    const image = (recorded[3]!.content as [unknown, { image_url: { url: string } }])[1];
    const messages: Message[] = [
      { role: "user", content: "Show me the picture." },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_1", name: "get_image", arguments: {}, rawArguments: "{}" }],
      },
      {
        role: "tool",
        toolCallId: "call_1",
        toolName: "get_image",
        content: [
          { type: "text", text: "Here it is." },
          { type: "image", url: image.image_url.url },
        ],
      },
    ];
    const result = await agentOn(baseURL).run("", { messages });
    expect(result.text).toBe("The image shows a potato.");
    const sent = (requests[0]!.body as ChatBody).messages;
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(sent[3]?.content).toEqual([{ type: "text", text: expect.any(String) }, image]);
  });
});

describe("OpenAI Chat: a part it cannot take fails before any request", () => {
  const csv = { type: "file" as const, data: "YSxiCjEsMgo=", mediaType: "text/csv", filename: "t.csv" };
  const request: ModelRequest = {
    messages: [{ role: "user", content: [{ type: "text", text: "Sum it" }, csv] }],
  };

  it("model.generate and model.stream reject with UnsupportedContentError, and the server sees nothing", async () => {
    const { baseURL, requests } = await serve("nonstream-pdf-input.json");
    const model = createOpenAI({ baseURL, apiKey: "sk-test" })("gpt-4o");
    const failure = await model.generate(request).catch((error: unknown) => error);
    expect(UnsupportedContentError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ provider: "openai_chat", partType: "file", mediaType: "text/csv" });
    await expect(readParts(model.stream(request))).rejects.toThrow(UnsupportedContentError);
    const byUrl: ModelRequest = {
      messages: [
        {
          role: "user",
          content: [{ type: "file", url: "https://x.test/a.pdf", mediaType: "application/pdf" }],
        },
      ],
    };
    await expect(model.generate(byUrl)).rejects.toThrow(/inline only, not by URL/);
    expect(requests).toHaveLength(0);
  });

  it("agent.run ends with stopReason error and that error, not retried (0 requests)", async () => {
    const { baseURL, requests } = await serve("nonstream-pdf-input.json");
    const agent = agentOn(baseURL, 3);
    const retries: unknown[] = [];
    const stream = agent.stream([{ type: "text", text: "Sum it" }, csv]);
    for await (const event of stream) if (event.type === "retry") retries.push(event);
    const result = await stream.result;
    expect(result.stopReason).toBe("error");
    expect(UnsupportedContentError.isInstance(result.error)).toBe(true);
    expect((result.error as UnsupportedContentError).isRetryable).toBe(false);
    expect(retries).toEqual([]);
    const run = await agent.run([{ type: "image", data: "AAAA", mediaType: "image/bmp" }]);
    expect(run.stopReason).toBe("error");
    expect(run.error).toMatchObject({
      name: "UnsupportedContentError",
      partType: "image",
      mediaType: "image/bmp",
    });
    expect(requests).toHaveLength(0);
  });
});
