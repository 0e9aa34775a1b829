// Item "length-truncated replies": every provider maps a reply cut off by the output limit to the neutral
// finish reason `length` (OpenAI Chat `finish_reason: "length"`, Anthropic `stop_reason: "max_tokens"`,
// Responses `status: "incomplete"` with `max_output_tokens`), streamed and not, and the Agent's `model_call`
// event carries it (the loop turns it into the result's stop reason / flag).
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { collectStream } from "../../src/models/collect-stream.js";
import type { Model } from "../../src/models/model.js";
import { createAnthropic } from "../../src/providers/anthropic/create-anthropic.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { chatChunk, type RawHandler, startRawServer } from "./transport-test-server.js";

const data = (value: unknown, event?: string) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(value)}\n\n`;

const truncated = "The answer is cut off becau";

const chat: RawHandler = ({ res, body }) => {
  if (JSON.parse(body).stream) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`${chatChunk({ content: truncated })}${chatChunk({}, "length")}data: [DONE]\n\n`);
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({ choices: [{ index: 0, message: { content: truncated }, finish_reason: "length" }] }),
  );
};

const incomplete = {
  status: "incomplete",
  incomplete_details: { reason: "max_output_tokens" },
  output: [
    { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: truncated }] },
  ],
  usage: { input_tokens: 5, output_tokens: 16 },
};
const responses: RawHandler = ({ res, body }) => {
  if (JSON.parse(body).stream) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      data({ type: "response.output_text.delta", delta: truncated }) +
        data({ type: "response.incomplete", response: incomplete }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(incomplete));
};

const anthropic: RawHandler = ({ res, body }) => {
  const usage = { input_tokens: 5, output_tokens: 16 };
  if (JSON.parse(body).stream) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      data({ type: "message_start", message: { usage } }, "message_start") +
        data(
          { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
          "content_block_start",
        ) +
        data(
          { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: truncated } },
          "content_block_delta",
        ) +
        data({ type: "content_block_stop", index: 0 }, "content_block_stop") +
        data({ type: "message_delta", delta: { stop_reason: "max_tokens" }, usage }, "message_delta") +
        data({ type: "message_stop" }, "message_stop"),
    );
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ content: [{ type: "text", text: truncated }], stop_reason: "max_tokens", usage }));
};

describe.each([
  {
    api: "OpenAI Chat",
    handler: chat,
    make: (url: string): Model => createOpenAI({ baseURL: url, apiKey: "k" })("m"),
    raw: "length",
  },
  {
    api: "OpenAI Responses",
    handler: responses,
    make: (url: string): Model => createOpenAI({ baseURL: url, apiKey: "k" }).responses("m"),
    raw: "max_output_tokens",
  },
  {
    api: "Anthropic",
    handler: anthropic,
    make: (url: string): Model => createAnthropic({ baseURL: url, apiKey: "k" })("c"),
    raw: "max_tokens",
  },
])("$api: a reply cut off by the output limit", ({ handler, make, raw }) => {
  it("finishes with `length`, streamed and not, and the Agent's model_call event says so", async () => {
    const server = await startRawServer(handler);
    try {
      const model = make(server.url);
      const request = { messages: [{ role: "user" as const, content: "hi" }] };
      for (const response of [await model.generate(request), await collectStream(model.stream(request))]) {
        expect(response.finishReason).toEqual({ unified: "length", raw });
        expect(response.text).toBe(truncated);
      }
      const stream = new Agent({ model }).stream("hi");
      const calls: unknown[] = [];
      for await (const event of stream) if (event.type === "model_call") calls.push(event.data.finishReason);
      await stream.result;
      expect(calls).toEqual([{ unified: "length", raw }]);
    } finally {
      await server.close();
    }
  });
});
