import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { ModelRequest, RetryInfo } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { foldParts, readParts } from "../openai/test-utils/stream-parts.js";
import { createAnthropic } from "./create-anthropic.js";
import { readFixture, streamBody } from "./test-utils/fixtures.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const okJson: ScriptedResponse = {
  body: readFixture("nonstream-text.json"),
  contentType: "application/json",
};
// Hand-written envelopes in Anthropic's documented shape: no recording has a 529, 429 or 401 body.
const overloaded: ScriptedResponse = {
  status: 529,
  body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_529"}',
};
const unauthorized: ScriptedResponse = {
  status: 401,
  body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_401"}',
};

/** SYNTHETIC: the first four events of stream-text.sse, then an in-stream `error` event. */
function streamWithError(type: string, message: string): string {
  const head = streamBody("stream-text.sse").toString("utf8").split("\n\n").slice(0, 4).join("\n\n");
  return `${head}\n\nevent: error\ndata: {"type": "error", "error": {"type": "${type}", "message": "${message}"}}\n\n`;
}

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(baseURL: string, maxRetries = 3) {
  return createAnthropic({ baseURL, apiKey: "k", retry: { baseDelayMs: 1, maxRetries } })("claude-haiku-4-5");
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("Anthropic retries (real HTTP)", () => {
  it("retries 529 overloaded twice, then succeeds: 3 requests", async () => {
    server = await startFixtureServer([overloaded, overloaded, okJson]);
    const retries: RetryInfo[] = [];
    const response = await model(server.baseURL).generate(request, { onRetry: (info) => retries.push(info) });
    expect(response.text).toMatch(/^Hello! I'm doing well/);
    expect(server.requests).toHaveLength(3);
    expect(retries.map((info) => info.attempt)).toEqual([1, 2]);
    const error = retries[0]?.error as ModelCallError;
    expect([error.status, error.code, error.isRetryable]).toEqual([529, "overloaded_error", true]);
    expect(new Set(server.requests.map((r) => r.rawBody)).size).toBe(1);
  });

  it("retries a stream's 529 before the headers, then streams", async () => {
    server = await startFixtureServer([overloaded, overloaded, { body: streamBody("stream-text.sse") }]);
    const parts = await readParts(model(server.baseURL).stream(request));
    expect(foldParts(parts).text).toBe("Hello");
    expect(server.requests).toHaveLength(3);
  });

  it("honours retry-after on 429", async () => {
    server = await startFixtureServer([
      {
        status: 429,
        headers: { "retry-after": "0" },
        body: '{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}',
      },
      okJson,
    ]);
    const retries: RetryInfo[] = [];
    await model(server.baseURL).generate(request, { onRetry: (info) => retries.push(info) });
    expect(retries.map((info) => info.delayMs)).toEqual([0]);
    expect((retries[0]?.error as ModelCallError | undefined)?.code).toBe("rate_limit_error");
  });

  it("does not retry 401: one request, a clear non-retryable error", async () => {
    server = await startFixtureServer(unauthorized);
    const retries: RetryInfo[] = [];
    const error = await failure(
      model(server.baseURL).generate(request, { onRetry: (info) => retries.push(info) }),
    );
    expect(ModelCallError.isInstance(error)).toBe(true);
    const callError = error as ModelCallError;
    expect([callError.status, callError.code, callError.isRetryable]).toEqual([
      401,
      "authentication_error",
      false,
    ]);
    expect(callError.message).toContain("answered 401: invalid x-api-key");
    expect(server.requests).toHaveLength(1);
    expect(retries).toHaveLength(0);
  });

  it.each([403, 404, 413, 422])("does not retry %i", async (status) => {
    server = await startFixtureServer({
      status,
      body: '{"type":"error","error":{"type":"x","message":"no"}}',
    });
    const error = (await failure(model(server.baseURL).generate(request))) as ModelCallError;
    expect(error.isRetryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("gives up on 500 after maxRetries + 1 requests", async () => {
    server = await startFixtureServer({
      status: 500,
      body: '{"type":"error","error":{"type":"api_error","message":"boom"}}',
    });
    const error = (await failure(model(server.baseURL, 2).generate(request))) as ModelCallError;
    expect([error.status, error.code]).toEqual([500, "api_error"]);
    expect(server.requests).toHaveLength(3);
  });
});

describe("Anthropic stream failures", () => {
  it("an in-stream overloaded_error ends the stream with a retryable ModelCallError (one request)", async () => {
    server = await startFixtureServer({ body: streamWithError("overloaded_error", "Overloaded") });
    const parts: ModelStreamPart[] = [];
    const error = await failure(
      (async () => {
        for await (const part of model(server?.baseURL ?? "").stream(request)) parts.push(part);
      })(),
    );
    expect(ModelCallError.isInstance(error)).toBe(true);
    const callError = error as ModelCallError;
    expect([callError.code, callError.isRetryable]).toEqual(["overloaded_error", true]);
    // Parts were delivered, so it is a StreamInterruptedError: the agent loop retries the whole call.
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect(callError.message).toContain("Overloaded");
    expect(parts).toEqual([{ type: "text_delta", delta: "Hello" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("an in-stream invalid_request_error is not retryable", async () => {
    server = await startFixtureServer({ body: streamWithError("invalid_request_error", "bad") });
    const error = (await failure(readParts(model(server.baseURL).stream(request)))) as ModelCallError;
    expect([error.code, error.isRetryable, StreamInterruptedError.isInstance(error)]).toEqual([
      "invalid_request_error",
      false,
      false,
    ]);
  });

  it("a stream that ends without message_stop throws StreamInterruptedError", async () => {
    const body = streamBody("stream-text.sse").toString("utf8").split("event: message_stop")[0] ?? "";
    server = await startFixtureServer({ body });
    const error = await failure(readParts(model(server.baseURL).stream(request)));
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("no message_stop");
  });

  it("a connection dropped mid-stream throws StreamInterruptedError", async () => {
    const body = streamBody("stream-thinking.sse");
    server = await startFixtureServer({ body, destroyAfterBytes: 2000 });
    const error = await failure(readParts(model(server.baseURL).stream(request)));
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
  });

  it("a payload that is not JSON throws StreamInterruptedError naming it", async () => {
    server = await startFixtureServer({ body: 'event: message_start\ndata: {"type":"message_start",\n\n' });
    const error = await failure(readParts(model(server.baseURL).stream(request)));
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("malformed event");
  });

  it("retries an overloaded_error envelope inside a 200 body, then succeeds", async () => {
    const envelope = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    server = await startFixtureServer([{ body: envelope, contentType: "application/json" }, okJson]);
    const retries: RetryInfo[] = [];
    const response = await model(server.baseURL).generate(request, { onRetry: (info) => retries.push(info) });
    expect(response.text).toMatch(/^Hello!/);
    const error = retries[0]?.error as ModelCallError | undefined;
    expect([error?.status, error?.code, error?.isRetryable]).toEqual([200, "overloaded_error", true]);
    expect(server.requests).toHaveLength(2);
  });

  it("rejects a 200 whose body is not JSON, without retrying", async () => {
    server = await startFixtureServer({ body: "<html>Bad gateway</html>", contentType: "text/html" });
    const error = (await failure(model(server.baseURL).generate(request))) as ModelCallError;
    expect([error.status, error.isRetryable]).toEqual([200, false]);
    expect(server.requests).toHaveLength(1);
  });
});
