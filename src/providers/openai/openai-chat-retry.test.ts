import { afterEach, describe, expect, it } from "vitest";
import { AbortError } from "../../errors/abort-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import type { ModelRequest, RetryInfo } from "../../models/model.js";
import { createOpenAI } from "./create-openai.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "./test-utils/fixture-server.js";
import { readFixture, streamBody } from "./test-utils/fixtures.js";
import { foldParts, readParts } from "./test-utils/stream-parts.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const ok: ScriptedResponse = {
  body: readFixture("nonstream-tool-call.json"),
  contentType: "application/json",
};
/** A 429 rate-limit envelope in OpenAI's documented shape (hand-written: no recording has one). */
const rateLimited = (headers: Record<string, string>): ScriptedResponse => ({
  status: 429,
  headers,
  body: '{"error":{"message":"Rate limit reached for gpt-4o","type":"requests","param":null,"code":"rate_limit_exceeded"}}',
});

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(
  baseURL: string,
  options: { maxRetries?: number; timeoutMs?: number; fetch?: typeof fetch } = {},
) {
  const { maxRetries = 3, timeoutMs, fetch: fetchImpl } = options;
  return createOpenAI({
    baseURL,
    apiKey: "sk-test",
    retry: { baseDelayMs: 5, maxRetries },
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(fetchImpl !== undefined && { fetch: fetchImpl }),
  })("gpt-4o-mini");
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("OpenAI Chat retries (real HTTP)", () => {
  it.each(["node", "fetch"] as const)(
    "retries 429 twice honouring Retry-After, then succeeds (%s transport)",
    async (transport) => {
      server = await startFixtureServer([
        rateLimited({ "retry-after-ms": "5" }),
        rateLimited({ "retry-after": "0" }),
        ok,
      ]);
      const retries: RetryInfo[] = [];
      const response = await model(
        server.baseURL,
        transport === "fetch" ? { fetch: globalThis.fetch } : {},
      ).generate(request, { onRetry: (info) => retries.push(info) });
      expect(response.toolCalls[0]?.name).toBe("lookup_population");
      expect(server.requests).toHaveLength(3);
      expect(retries.map(({ attempt, delayMs }) => ({ attempt, delayMs }))).toEqual([
        { attempt: 1, delayMs: 5 },
        { attempt: 2, delayMs: 0 },
      ]);
      const error = retries[0]?.error as ModelCallError;
      expect(error.status).toBe(429);
      expect(error.code).toBe("rate_limit_exceeded");
      // The body is serialised once and resent unchanged.
      expect(new Set(server.requests.map((r) => r.rawBody)).size).toBe(1);
    },
  );

  it("retries a stream's 429 before the headers, then streams", async () => {
    server = await startFixtureServer([
      rateLimited({ "retry-after": "0" }),
      { body: streamBody("stream-text.sse") },
    ]);
    const retries: RetryInfo[] = [];
    const parts = await readParts(
      model(server.baseURL).stream(request, { onRetry: (info) => retries.push(info) }),
    );
    expect(foldParts(parts).text).toMatch(/^I'm unable to provide real-time weather updates/);
    expect(retries).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry 401, and says why", async () => {
    // OpenAI's invalid-key envelope (hand-written from the documented shape).
    const body =
      '{"error":{"message":"Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}';
    server = await startFixtureServer({ status: 401, body });
    const retries: RetryInfo[] = [];
    const error = await failure(
      model(server.baseURL).generate(request, { onRetry: (info) => retries.push(info) }),
    );
    expect(ModelCallError.isInstance(error)).toBe(true);
    const callError = error as ModelCallError;
    expect(callError.status).toBe(401);
    expect(callError.isRetryable).toBe(false);
    expect(callError.code).toBe("invalid_api_key");
    expect(callError.message).toContain("answered 401: Incorrect API key provided");
    expect(server.requests).toHaveLength(1);
    expect(retries).toHaveLength(0);
  });

  it("does not retry a 429 insufficient_quota", async () => {
    server = await startFixtureServer({
      status: 429,
      body: '{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}',
    });
    const error = (await failure(model(server.baseURL).generate(request))) as ModelCallError;
    expect(error.status).toBe(429);
    expect(error.isRetryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a connection dropped before the answer, then succeeds", async () => {
    server = await startFixtureServer([{ destroy: true }, ok]);
    const retries: RetryInfo[] = [];
    const response = await model(server.baseURL).generate(request, { onRetry: (info) => retries.push(info) });
    expect(response.finishReason).toEqual({ unified: "tool_calls", raw: "tool_calls" });
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(String((retries[0]?.error as Error | undefined)?.message)).toMatch(/^Network error calling/);
  });

  it("stops at once when aborted during a backoff wait", async () => {
    server = await startFixtureServer([rateLimited({ "retry-after": "10" }), ok]);
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(model(server.baseURL).generate(request, { signal: controller.signal }));
    expect(AbortError.isInstance(error)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requests).toHaveLength(1);
  });

  it("gives up on 500 after maxRetries + 1 requests", async () => {
    server = await startFixtureServer({
      status: 500,
      body: '{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}',
    });
    const retries: RetryInfo[] = [];
    const error = await failure(
      model(server.baseURL, { maxRetries: 2 }).generate(request, { onRetry: (info) => retries.push(info) }),
    );
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).status).toBe(500);
    expect((error as ModelCallError).code).toBe("server_error");
    expect(server.requests).toHaveLength(3);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
  });

  it("times out a request the server never answers", async () => {
    server = await startFixtureServer({ hang: true });
    const started = performance.now();
    const error = await failure(model(server.baseURL, { maxRetries: 0, timeoutMs: 100 }).generate(request));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).message).toContain("timed out after 100 ms");
    expect((error as ModelCallError).isRetryable).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });

  it("rejects a 200 whose body is not JSON, without retrying", async () => {
    server = await startFixtureServer({ body: "<html>Bad gateway</html>", contentType: "text/html" });
    const error = (await failure(model(server.baseURL).generate(request))) as ModelCallError;
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error.status).toBe(200);
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain("not JSON: <html>Bad gateway</html>");
    expect(server.requests).toHaveLength(1);
  });

  it("reports an error envelope inside a 200 body (some compatible servers)", async () => {
    server = await startFixtureServer({
      body: '{"error":{"message":"model \\"x\\" not found","type":"invalid_request_error","code":"model_not_found"}}',
      contentType: "application/json",
    });
    const error = (await failure(model(server.baseURL).generate(request))) as ModelCallError;
    expect(error.code).toBe("model_not_found");
    expect(error.message).toContain('model "x" not found');
    expect(error.isRetryable).toBe(false);
  });

  it("rejects with AbortError, sending nothing, when the signal is already aborted", async () => {
    server = await startFixtureServer(ok);
    const error = await failure(model(server.baseURL).generate(request, { signal: AbortSignal.abort() }));
    expect(AbortError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
