import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent } from "../agent.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { startMockOpenAIServer } from "../testing/mock-openai-server.js";
import { createOpenAI } from "./openai/create-openai.js";
import { resolveModel } from "./resolve-model.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("resolveModel: model ids without a provider prefix", () => {
  it.each([
    ["gpt-4o-mini", "openai"],
    ["gpt-5", "openai"],
    ["gpt-4.1-nano", "openai"],
    ["o3", "openai"],
    ["o4-mini", "openai"],
    ["o1-preview", "openai"],
    ["chatgpt-4o-latest", "openai"],
    ["codex-mini-latest", "openai"],
    ["ft:gpt-4o-mini:acme::abc123", "openai"],
    ["claude-sonnet-4-5", "anthropic"],
    ["claude-3-5-haiku-latest", "anthropic"],
  ])("%s resolves to %s, with the id unchanged", (id, provider) => {
    const model = resolveModel(id);
    expect([model.provider, model.modelId]).toEqual([provider, id]);
  });

  it("still takes an explicit prefix, which wins", () => {
    const model = resolveModel("openai:claude-sonnet-4-5");
    expect([model.provider, model.modelId]).toEqual(["openai", "claude-sonnet-4-5"]);
    expect(resolveModel("anthropic:claude-haiku-4-5").provider).toBe("anthropic");
  });

  it.each([
    "llama3.2",
    "llama3:8b",
    "mistral-large",
    "o",
    "openai",
    "gpt4",
    "foo:bar",
    "openai:",
    "anthropic:  ",
    "",
    "constructor:x",
    "__proto__:x",
  ])("refuses %j with a message that names the fix", (id) => {
    const resolve = () => resolveModel(id);
    expect(resolve).toThrow(InvalidArgumentError);
    expect(resolve).toThrow(`"${id}"`);
    expect(resolve).toThrow('use "openai:<model>" or "anthropic:<model>", or pass a Model');
  });

  it("gives new Agent({ model: 'gpt-4o-mini' }) the OpenAI provider, reading OPENAI_BASE_URL", async () => {
    const server = await startMockOpenAIServer();
    try {
      vi.stubEnv("OPENAI_BASE_URL", server.url);
      vi.stubEnv("OPENAI_API_KEY", "test-key");
      server.setScript([{ text: "Hi." }]);
      const result = await new Agent({ model: "gpt-4o-mini" }).run("Hello");
      expect(result.text).toBe("Hi.");
      expect((server.requests[0]?.body as { model?: string } | undefined)?.model).toBe("gpt-4o-mini");
    } finally {
      await server.close();
    }
  });

  it("resolves the same model as the explicit prefix does", () => {
    vi.stubEnv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1");
    const plain = resolveModel("gpt-4o-mini");
    const prefixed = resolveModel("openai:gpt-4o-mini");
    const direct = createOpenAI()("gpt-4o-mini");
    expect([plain.provider, plain.modelId]).toEqual([prefixed.provider, prefixed.modelId]);
    expect(Object.getPrototypeOf(plain)).toBe(Object.getPrototypeOf(direct));
  });
});
