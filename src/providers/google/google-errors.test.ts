import { afterEach, describe, expect, it } from "vitest";
import { isContextLengthError } from "../../errors/is-context-length-error.js";
import type { ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import { REDACTED_CREDENTIAL } from "../../http/redact-credentials.js";
import type { ModelRequest, RetryInfo } from "../../models/model.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { readParts } from "../openai/test-utils/stream-parts.js";
import { createGoogle } from "./create-google.js";
import { parseGoogleDuration, parseGoogleErrorBody } from "./parse-google-error.js";
import { readFixture, streamBody } from "./test-utils/fixtures.js";

// Error envelopes are google.rpc.Status bodies. No real 429 with RetryInfo is recorded in a licensed repository
// (fixtures NOTES, gaps), so the 429 and 503 bodies below are SYNTHETIC, in the documented shape.

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const KEY = "AIzaSyTEST-secret-key-123456";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function status(code: number, statusName: string, message: string, details: unknown[] = []): string {
  return JSON.stringify({ error: { code, message, status: statusName, details } });
}

const rateLimited = (delay: string) =>
  status(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota. Please retry in 0.3s.", [
    { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaMetric: "x" }] },
    { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: delay },
  ]);

function model(baseURL: string, maxRetries = 2) {
  return createGoogle({ baseURL, apiKey: KEY, retry: { baseDelayMs: 1, maxRetries } })("gemini-2.5-flash");
}

const ok = { body: readFixture("nonstream-cached-content.json"), contentType: "application/json" };

describe("Gemini errors", () => {
  it("waits the RetryInfo delay of a 429 before retrying", async () => {
    server = await startFixtureServer([{ status: 429, body: rateLimited("0.3s") }, ok]);
    const retries: RetryInfo[] = [];
    const response = await model(server.baseURL).generate(request, { onRetry: (info) => retries.push(info) });
    expect(response.text).toBe("Paris.");
    expect(retries.map((r) => r.delayMs)).toEqual([300]);
    const error = retries[0]?.error as ModelCallError;
    expect(error.retryAfterMs).toBe(300);
    expect(error.code).toBe("RESOURCE_EXHAUSTED");
    const [first, second] = server.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(280);
  });

  it("lets a Retry-After header win over RetryInfo", async () => {
    server = await startFixtureServer([
      { status: 429, body: rateLimited("30s"), headers: { "retry-after": "0" } },
      ok,
    ]);
    const retries: RetryInfo[] = [];
    await model(server.baseURL).generate(request, { onRetry: (info) => retries.push(info) });
    expect(retries.map((r) => r.delayMs)).toEqual([0]);
  });

  it("retries 500 and 503, and fails a 400 at once", async () => {
    server = await startFixtureServer([
      { status: 500, body: status(500, "INTERNAL", "An internal error has occurred.") },
      { status: 503, body: status(503, "UNAVAILABLE", "The model is overloaded.") },
      ok,
    ]);
    expect((await model(server.baseURL).generate(request)).text).toBe("Paris.");
    expect(server.requests).toHaveLength(3);
    await server.close();
    server = await startFixtureServer({ status: 400, body: readFixture("error-400-invalid-argument.json") });
    const error = await model(server.baseURL)
      .generate(request)
      .catch((e: unknown) => e);
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("reads an overflowing prompt as a context-length error (the loop compacts and retries)", async () => {
    const body = status(
      400,
      "INVALID_ARGUMENT",
      "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    );
    server = await startFixtureServer({ status: 400, body });
    const error = await model(server.baseURL)
      .generate(request)
      .catch((e: unknown) => e);
    expect((error as ModelCallError).code).toBe("context_length_exceeded");
    expect(isContextLengthError(error)).toBe(true);
  });

  it("removes the API key from an error body that echoes it", async () => {
    server = await startFixtureServer({
      status: 400,
      body: status(400, "INVALID_ARGUMENT", `API key not valid: ${KEY}. Please pass a valid API key.`),
    });
    const error = (await model(server.baseURL)
      .generate(request)
      .catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain(REDACTED_CREDENTIAL);
    expect(error.body).not.toContain(KEY);
  });

  it("throws the error object of a 200 body", async () => {
    server = await startFixtureServer({
      body: status(500, "INTERNAL", "boom"),
      contentType: "application/json",
    });
    const error = (await model(server.baseURL)
      .generate(request)
      .catch((e: unknown) => e)) as ModelCallError;
    expect(error.isRetryable).toBe(true);
    expect(error.message).toContain("boom");
  });
});

describe("Gemini stream errors", () => {
  const text = streamBody("stream-text.sse").toString("utf8");
  const firstEvent = text.slice(0, text.indexOf("\r\n\r\n") + 4);

  async function failure(body: string): Promise<unknown> {
    server = await startFixtureServer({ body });
    return readParts(model(server.baseURL).stream(request)).catch((e: unknown) => e);
  }

  it("an UNAVAILABLE error event after some text is a retryable interruption", async () => {
    const error = await failure(`${firstEvent}data: ${status(503, "UNAVAILABLE", "overloaded")}\r\n\r\n`);
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("overloaded");
  });

  it("an INVALID_ARGUMENT error event is final", async () => {
    const error = await failure(`${firstEvent}data: ${status(400, "INVALID_ARGUMENT", "bad")}\r\n\r\n`);
    expect(StreamInterruptedError.isInstance(error)).toBe(false);
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect((error as ModelCallError).code).toBe("INVALID_ARGUMENT");
  });

  it("a malformed event is a retryable interruption naming it", async () => {
    const error = await failure(`${firstEvent}data: {not json\r\n\r\n`);
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/malformed event: \{not json/);
  });

  it("a body that ends before any finishReason is a retryable interruption", async () => {
    const error = await failure(firstEvent);
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/no finishReason/);
  });

  it("a connection dropped after the finishReason still gives the answer", async () => {
    const body = streamBody("stream-text.sse");
    server = await startFixtureServer({ body, destroyAfterBytes: body.length });
    const parts = await readParts(model(server.baseURL).stream(request));
    expect(parts.at(-1)?.type).toBe("finish");
  });
});

describe("parseGoogleErrorBody", () => {
  it("reads a google.rpc.Status, also wrapped in an array, and proxies' shapes", () => {
    expect(parseGoogleErrorBody(rateLimited("12.5s"))).toEqual({
      message: "You exceeded your current quota. Please retry in 0.3s.",
      code: "RESOURCE_EXHAUSTED",
      type: "RESOURCE_EXHAUSTED",
      rawCode: 429,
      retryAfterMs: 12_500,
    });
    expect(parseGoogleErrorBody(`[${status(503, "UNAVAILABLE", "busy")}]`).code).toBe("UNAVAILABLE");
    expect(parseGoogleErrorBody('{"message":"bad gateway"}')).toEqual({ message: "bad gateway" });
    expect(parseGoogleErrorBody("<html>502 Bad Gateway</html>")).toEqual({
      message: "<html>502 Bad Gateway</html>",
    });
    expect(parseGoogleErrorBody("")).toEqual({});
  });

  it("parses protobuf durations", () => {
    expect(parseGoogleDuration("12s")).toBe(12_000);
    expect(parseGoogleDuration("0.5s")).toBe(500);
    expect(parseGoogleDuration("12")).toBeUndefined();
    expect(parseGoogleDuration(12)).toBeUndefined();
  });
});
