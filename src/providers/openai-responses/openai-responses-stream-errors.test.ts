import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { ModelRequest, RetryInfo } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { createOpenAI } from "../openai/create-openai.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { foldParts } from "../openai/test-utils/stream-parts.js";
import { completedResponse, fixtureEvents, responsesStreamBody } from "./test-utils/responses-fixtures.js";

// Synthetic variants, derived from the real recordings (labelled as such): no recording has a
// response.incomplete, a spec-shaped error event, or a response.failed without a preceding error event.

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const TEXT = "stream-text.sse";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function sse(events: readonly unknown[]): string {
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
}

/** The events of stream-text.sse up to (not including) response.completed. */
const beforeCompleted = fixtureEvents(TEXT).filter((event) => event.type !== "response.completed");

async function streamFrom(script: ScriptedResponse | ScriptedResponse[]) {
  server = await startFixtureServer(script);
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: "k", retry: { baseDelayMs: 1 } }).responses(
    "gpt-5",
  );
  const parts: ModelStreamPart[] = [];
  const retries: RetryInfo[] = [];
  const error = await (async () => {
    for await (const part of model.stream(request, { onRetry: (info) => retries.push(info) }))
      parts.push(part);
  })().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { parts, error, retries };
}

async function generateFrom(body: unknown) {
  server = await startFixtureServer({ body: JSON.stringify(body), contentType: "application/json" });
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: "k" }).responses("gpt-5");
  return model.generate(request);
}

describe("OpenAI Responses stream failures", () => {
  it("throws StreamInterruptedError when the body ends before response.completed", async () => {
    const { parts, error } = await streamFrom({ body: sse(beforeCompleted) });
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect(parts.map((part) => part.type)).not.toContain("finish");
    expect(foldParts(parts).text).toBe("The capital of France is Paris.");
  });

  it("throws StreamInterruptedError when the connection drops mid-stream", async () => {
    const body = responsesStreamBody(TEXT);
    const { error } = await streamFrom({ body, destroyAfterBytes: Math.floor(body.length / 2) });
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
  });

  it("throws StreamInterruptedError for a payload that is not JSON", async () => {
    const { error } = await streamFrom({ body: `${sse(beforeCompleted.slice(0, 2))}data: {"type":\n\n` });
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("malformed event");
  });

  it("accepts the spec's top-level error event shape; server_error is retryable", async () => {
    const event = { type: "error", code: "server_error", message: "The server had an error", param: null };
    const { error } = await streamFrom({ body: sse([...beforeCompleted.slice(0, 2), event]) });
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(StreamInterruptedError.isInstance(error)).toBe(false);
    expect((error as ModelCallError).code).toBe("server_error");
    expect((error as ModelCallError).isRetryable).toBe(true);
    expect((error as ModelCallError).message).toContain("The server had an error");
  });

  it("turns response.failed without an error event into a ModelCallError with response.error", async () => {
    const failed = fixtureEvents("stream-error-event.chunks.txt").filter((event) => event.type !== "error");
    const { error } = await streamFrom({ body: sse(failed) });
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).code).toBe("insufficient_quota");
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect((error as ModelCallError).message).toContain("You exceeded your current quota");
  });

  it.each([
    ["max_output_tokens", "length"],
    ["content_filter", "content_filter"],
  ] as const)("maps response.incomplete (%s) to %s, keeping the text and usage", async (reason, unified) => {
    const response = { ...completedResponse(TEXT), status: "incomplete", incomplete_details: { reason } };
    const { parts, error } = await streamFrom({
      body: sse([...beforeCompleted, { type: "response.incomplete", response }]),
    });
    expect(error).toBeUndefined();
    const folded = foldParts(parts);
    expect(folded.finishReason).toEqual({ unified, raw: reason });
    expect(folded.usage.totalTokens).toBe(287);
    expect(folded.text).toBe("The capital of France is Paris.");
  });

  it("retries a 429 rate limit before the stream starts, then streams", async () => {
    const rateLimited: ScriptedResponse = {
      status: 429,
      headers: { "retry-after-ms": "1" },
      body: '{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}',
    };
    const { parts, error, retries } = await streamFrom([rateLimited, { body: responsesStreamBody(TEXT) }]);
    expect(error).toBeUndefined();
    expect(foldParts(parts).text).toBe("The capital of France is Paris.");
    expect(retries).toHaveLength(1);
    expect(server?.requests).toHaveLength(2);
  });
});

describe("OpenAI Responses non-streaming failures", () => {
  it("rejects a 200 body with status failed as a ModelCallError carrying response.error", async () => {
    const failed = fixtureEvents("stream-error-event.chunks.txt").find(
      (event) => event.type === "response.failed",
    );
    const error = await generateFrom(failed?.response).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).status).toBe(200);
    expect((error as ModelCallError).code).toBe("insufficient_quota");
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect(server?.requests).toHaveLength(1);
  });

  it("maps an incomplete body to length", async () => {
    const response = await generateFrom({
      ...completedResponse(TEXT),
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    });
    expect(response.finishReason).toEqual({ unified: "length", raw: "max_output_tokens" });
    expect(response.text).toBe("The capital of France is Paris.");
  });

  it("rejects a body without output, not retrying", async () => {
    const error = await generateFrom({ id: "resp_1", status: "completed" }).catch(
      (caught: unknown) => caught,
    );
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect(server?.requests).toHaveLength(1);
  });
});
