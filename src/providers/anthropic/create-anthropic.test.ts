import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { isContextLengthError } from "../../errors/is-context-length-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { resolveModel } from "../resolve-model.js";
import { createAnthropic } from "./create-anthropic.js";
import { DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS, DEFAULT_ANTHROPIC_VERSION } from "./index.js";
import { readFixture } from "./test-utils/fixtures.js";

const request = { messages: [{ role: "user" as const, content: "hi" }] };

let server: FixtureServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function okServer() {
  server = await startFixtureServer({
    body: readFixture("nonstream-text.json"),
    contentType: "application/json",
  });
  return server;
}

describe("createAnthropic", () => {
  it("sends x-api-key, anthropic-version and content-type to {baseURL}/messages", async () => {
    const { baseURL } = await okServer();
    await createAnthropic({ baseURL: `${baseURL}/`, apiKey: "sk-ant-test" })("claude-haiku-4-5").generate(
      request,
    );
    const sent = server?.requests[0];
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe("/v1/messages");
    expect(sent?.headers["x-api-key"]).toBe("sk-ant-test");
    expect(sent?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it("lets headers and anthropicVersion override, and reads ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL", async () => {
    const { baseURL } = await okServer();
    vi.stubEnv("ANTHROPIC_API_KEY", "from-env");
    vi.stubEnv("ANTHROPIC_BASE_URL", baseURL);
    const model = createAnthropic({
      anthropicVersion: "2024-01-01",
      headers: { "Anthropic-Beta": "interleaved-thinking-2025-05-14" },
    })("claude-haiku-4-5");
    await model.generate(request);
    const headers = server?.requests[0]?.headers;
    expect(headers?.["x-api-key"]).toBe("from-env");
    expect(headers?.["anthropic-version"]).toBe("2024-01-01");
    expect(headers?.["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
    // The key is read at call time.
    vi.stubEnv("ANTHROPIC_API_KEY", "rotated");
    await model.generate(request);
    expect(server?.requests[1]?.headers["x-api-key"]).toBe("rotated");
  });

  it("fails clearly, without a request, when api.anthropic.com has no key", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    vi.stubEnv("ANTHROPIC_BASE_URL", undefined);
    const model = createAnthropic()("claude-haiku-4-5");
    const error = await model.generate(request).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect((error as ModelCallError).code).toBe("missing_api_key");
    expect((error as Error).message).toContain("ANTHROPIC_API_KEY");
    const streamError = await (async () => {
      for await (const _ of model.stream(request)) break;
    })().catch((caught: unknown) => caught);
    expect((streamError as Error).message).toContain("ANTHROPIC_API_KEY");
  });

  it("sends no x-api-key to other servers without a key", async () => {
    const { baseURL } = await okServer();
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    await createAnthropic({ baseURL })("claude-haiku-4-5").generate(request);
    expect(server?.requests[0]?.headers["x-api-key"]).toBeUndefined();
  });

  it("exports its defaults and reports provider and model id", () => {
    expect(DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS).toBe(4096);
    expect(DEFAULT_ANTHROPIC_VERSION).toBe("2023-06-01");
    const model = createAnthropic({ apiKey: "k" })("claude-haiku-4-5");
    expect([model.provider, model.modelId]).toEqual(["anthropic", "claude-haiku-4-5"]);
  });

  it("is registered for model strings: resolveModel('anthropic:…')", () => {
    const model = resolveModel("anthropic:claude-haiku-4-5");
    expect([model.provider, model.modelId]).toEqual(["anthropic", "claude-haiku-4-5"]);
  });

  it.each([
    [{ baseURL: "not a url" }, "baseURL"],
    [{ baseURL: "ftp://x" }, "baseURL"],
    [{ apiKey: 1 }, "apiKey"],
    [{ headers: { a: 1 } }, "headers.a"],
    [{ timeoutMs: 0 }, "timeoutMs"],
    [{ defaultMaxOutputTokens: 1.5 }, "defaultMaxOutputTokens"],
    [{ defaultMaxOutputTokens: -1 }, "defaultMaxOutputTokens"],
    [{ anthropicVersion: "" }, "anthropicVersion"],
    [{ extraBody: [] }, "extraBody"],
    [{ fetch: "x" }, "fetch"],
    [{ retry: { maxRetries: -1 } }, "retry.maxRetries"],
  ])("rejects invalid options %j (%s)", (options, argument) => {
    const error = (() => {
      try {
        createAnthropic(options as never);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe(argument);
  });

  it("names the new key of the renamed maxTokens option", () => {
    let caught: unknown;
    try {
      createAnthropic({ maxTokens: 1000 } as never);
    } catch (error) {
      caught = error;
    }
    expect(InvalidArgumentError.isInstance(caught)).toBe(true);
    expect((caught as InvalidArgumentError).argument).toBe("maxTokens");
    expect((caught as Error).message).toMatch(/renamed to defaultMaxOutputTokens/);
  });

  it("rejects an empty model id", () => {
    expect(() => createAnthropic({ apiKey: "k" })(" ")).toThrow(/modelId/);
  });

  it("reports 'prompt is too long' (400) so isContextLengthError recognises it, without retrying", async () => {
    // Anthropic's documented envelope for an over-long prompt (hand-written: no recording has one).
    const body =
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"},"request_id":"req_1"}';
    server = await startFixtureServer({ status: 400, body });
    const error = await createAnthropic({ baseURL: server.baseURL, apiKey: "k" })("claude-haiku-4-5")
      .generate(request)
      .catch((caught: unknown) => caught);
    expect(isContextLengthError(error)).toBe(true);
    expect((error as ModelCallError).code).toBe("invalid_request_error");
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });
});
