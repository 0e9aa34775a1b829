import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { resolveModel } from "../resolve-model.js";
import { createOpenAI, type OpenAIProviderOptions } from "./create-openai.js";
import { type FixtureServer, startFixtureServer } from "./test-utils/fixture-server.js";
import { readFixture } from "./test-utils/fixtures.js";

let server: FixtureServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

function invalidArgument(options: unknown): string | undefined {
  try {
    createOpenAI(options as OpenAIProviderOptions);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) return error.argument;
    throw error;
  }
  return undefined;
}

describe("createOpenAI", () => {
  it("makes Chat Completions models, with .chat as an alias", () => {
    const openai = createOpenAI({ apiKey: "k", baseURL: "http://localhost:1234/v1" });
    const model = openai("gpt-4o-mini");
    expect(model.provider).toBe("openai");
    expect(model.modelId).toBe("gpt-4o-mini");
    expect(openai.chat("gpt-4o").modelId).toBe("gpt-4o");
    expect(createOpenAI({ name: "ollama", baseURL: "http://localhost:11434/v1" })("llama3.2").provider).toBe(
      "ollama",
    );
  });

  it.each([
    [{ timeoutMs: -1 }, "timeoutMs"],
    [{ timeoutMs: 0 }, "timeoutMs"],
    [{ timeoutMs: Number.NaN }, "timeoutMs"],
    [{ timeoutMs: Number.POSITIVE_INFINITY }, "timeoutMs"],
    [{ timeoutMs: "100" }, "timeoutMs"],
    [{ retry: { maxRetries: -1 } }, "retry.maxRetries"],
    [{ retry: { baseDelayMs: Number.NaN } }, "retry.baseDelayMs"],
    [{ baseURL: "not a url" }, "baseURL"],
    [{ baseURL: "ftp://example.com/v1" }, "baseURL"],
    [{ apiKey: 42 }, "apiKey"],
    [{ headers: { "x-a": 1 } }, "headers.x-a"],
    [{ headers: "x" }, "headers"],
    [{ fetch: "fetch" }, "fetch"],
    [{ extraBody: [] }, "extraBody"],
    [{ name: "" }, "name"],
    [null, "options"],
  ])("rejects invalid options %j at creation", (options, argument) => {
    expect(invalidArgument(options)).toBe(argument);
  });

  it("rejects an empty model id", () => {
    expect(() => createOpenAI({ apiKey: "k" })(" ")).toThrow(/modelId/);
  });

  it("reads OPENAI_BASE_URL (a trailing slash is fine)", async () => {
    server = await startFixtureServer({
      body: readFixture("nonstream-tool-call.json"),
      contentType: "application/json",
    });
    vi.stubEnv("OPENAI_BASE_URL", `${server.baseURL}/`);
    const model = createOpenAI({ apiKey: "k" })("gpt-4o");
    await model.generate({ messages: [{ role: "user", content: "hi" }] });
    expect(server.requests[0]?.url).toBe("/v1/chat/completions");
  });

  it("names OPENAI_BASE_URL when it is invalid", () => {
    vi.stubEnv("OPENAI_BASE_URL", "nope");
    expect(invalidArgument({})).toBe("OPENAI_BASE_URL");
  });

  it('is what resolveModel("openai:…") uses', () => {
    vi.stubEnv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1");
    const model = resolveModel("openai:gpt-4o-mini");
    expect(model.provider).toBe("openai");
    expect(model.modelId).toBe("gpt-4o-mini");
  });
});
