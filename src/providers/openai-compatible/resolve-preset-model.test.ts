import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { OpenAIChatModel } from "../openai/openai-chat-model.js";
import { resolveModel } from "../resolve-model.js";
import { OPENAI_COMPATIBLE_PRESET_NAMES } from "./openai-compatible-presets.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("model strings of the OpenAI-compatible presets", () => {
  it.each(OPENAI_COMPATIBLE_PRESET_NAMES)("%s:<id> makes that preset's Chat model", (preset) => {
    vi.stubEnv("AZURE_OPENAI_ENDPOINT", "https://my-res.openai.azure.com");
    const model = resolveModel(`${preset}:some-model`);
    expect(model).toBeInstanceOf(OpenAIChatModel);
    expect(model.provider).toBe(preset);
    expect(model.modelId).toBe("some-model");
  });

  it("keeps everything after the first colon as the id (Ollama tags, OpenRouter variants)", () => {
    expect(resolveModel("ollama:llama3.2:3b").modelId).toBe("llama3.2:3b");
    expect(resolveModel("openrouter:deepseek/deepseek-r1:free").modelId).toBe("deepseek/deepseek-r1:free");
  });

  it("an unknown prefix names the presets among the providers; an empty id is refused", () => {
    const error = (() => {
      try {
        resolveModel("acme:model");
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    for (const preset of OPENAI_COMPATIBLE_PRESET_NAMES) expect((error as Error).message).toContain(preset);
    expect(() => resolveModel("deepseek:")).toThrow(InvalidArgumentError);
    expect(() => resolveModel("deepseek:  ")).toThrow(InvalidArgumentError);
  });
});
