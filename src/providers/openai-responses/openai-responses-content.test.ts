import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { Message } from "../../models/message.js";
import type { ModelRequest } from "../../models/model.js";
import { createOpenAI } from "../openai/create-openai.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { readParts } from "../openai/test-utils/stream-parts.js";
import { readResponsesFixture } from "./test-utils/responses-fixtures.js";

// Images and PDFs through the Responses provider, from the outside: agent.run with content parts → a local
// server answering with the recorded response; the request body is compared with the recorded one.

type ResponsesBody = { input: Array<Record<string, unknown>> };

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function recordedRequest(name: string): ResponsesBody {
  return JSON.parse(readResponsesFixture(name).toString("utf8")) as ResponsesBody;
}

async function serve(name: string): Promise<FixtureServer> {
  server = await startFixtureServer({ body: readResponsesFixture(name), contentType: "application/json" });
  return server;
}

function agentOn(baseURL: string, maxRetries = 0): Agent {
  return new Agent({
    model: createOpenAI({ baseURL, apiKey: "sk-test" }).responses("gpt-4o"),
    retry: { maxRetries, baseDelayMs: 1 },
  });
}

const sentInput = (s: FixtureServer, n = 0) => (s.requests[n]!.body as ResponsesBody).input;

describe("OpenAI Responses: content parts against the recorded requests", () => {
  it("sends an image by URL as the recorded input_image (a plain string, detail auto)", async () => {
    const s = await serve("nonstream-image-url-input.json");
    const recorded = recordedRequest("nonstream-image-url-input.request.json").input[0];
    const [text, image] = recorded!.content as [{ text: string }, { image_url: string }];
    const result = await agentOn(s.baseURL).run([
      { type: "text", text: text.text },
      { type: "image", url: image.image_url },
    ]);
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("Hello! I see you've shared an image of a potato. How can I assist you today?");
    expect(sentInput(s)).toEqual([recorded]);
  });

  it("sends PDF bytes as the recorded input_file (file_data as a data: URL, filename)", async () => {
    const s = await serve("nonstream-pdf-input.json");
    const recorded = recordedRequest("nonstream-pdf-input.request.json").input[0];
    const [text, file] = recorded!.content as [{ text: string }, { file_data: string; filename: string }];
    const bytes = new Uint8Array(
      Buffer.from(file.file_data.slice("data:application/pdf;base64,".length), "base64"),
    );
    const result = await agentOn(s.baseURL).run([
      { type: "text", text: text.text },
      { type: "file", data: bytes, mediaType: "application/pdf", filename: file.filename },
    ]);
    expect(result.text).toBe(
      'The main content of this document is a simple text placeholder: "Dummy PDF file."',
    );
    expect(sentInput(s)).toEqual([recorded]);
  });

  it("sends a tool result holding an image as a function_call_output whose output is input_* items", async () => {
    const s = await serve("nonstream-image-url-input.json");
    const recorded = recordedRequest("nonstream-image-url-input.request.json").input[0];
    const [, recordedImage] = recorded!.content as [unknown, { image_url: string }];
    const history: Message[] = [
      { role: "user", content: "What food is in the image you can get from the get_image tool?" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_img", name: "get_image", arguments: {}, rawArguments: "{}" }],
      },
      {
        role: "tool",
        toolCallId: "call_img",
        toolName: "get_image",
        content: [
          { type: "text", text: "See file bd38f5" },
          { type: "image", url: recordedImage.image_url },
        ],
      },
    ];
    const result = await agentOn(s.baseURL).run("Which food?", { messages: history });
    expect(result.stopReason).toBe("completed");
    expect(sentInput(s)[2]).toEqual({
      type: "function_call_output",
      call_id: "call_img",
      output: [{ type: "input_text", text: "See file bd38f5" }, recordedImage],
    });
    expect(sentInput(s)[3]).toEqual({ role: "user", content: "Which food?" });
  });
});

describe("OpenAI Responses: a part it cannot take fails before any request", () => {
  const tiff = { type: "image" as const, data: "SUkqAA==", mediaType: "image/tiff" };
  const request: ModelRequest = { messages: [{ role: "user", content: [tiff] }] };

  it("model.generate and model.stream reject with UnsupportedContentError, and the server sees nothing", async () => {
    const s = await serve("nonstream-pdf-input.json");
    const model = createOpenAI({ baseURL: s.baseURL, apiKey: "sk-test" }).responses("gpt-4o");
    await expect(model.generate(request)).rejects.toMatchObject({
      name: "UnsupportedContentError",
      provider: "openai_responses",
      partType: "image",
      mediaType: "image/tiff",
    });
    await expect(readParts(model.stream(request))).rejects.toThrow(UnsupportedContentError);
    expect(s.requests).toHaveLength(0);
  });

  it("agent.run ends with stopReason error and that error, not retried (0 requests)", async () => {
    const s = await serve("nonstream-pdf-input.json");
    const result = await agentOn(s.baseURL, 3).run([{ type: "text", text: "What is it?" }, tiff]);
    expect(result.stopReason).toBe("error");
    expect(UnsupportedContentError.isInstance(result.error)).toBe(true);
    expect((result.error as UnsupportedContentError).isRetryable).toBe(false);
    expect(s.requests).toHaveLength(0);
  });
});
