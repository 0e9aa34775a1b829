import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Model } from "../models/model.js";
import { createAnthropic } from "./anthropic/create-anthropic.js";
import { createBedrock } from "./bedrock/create-bedrock.js";
import { createGoogle } from "./google/create-google.js";
import { createOpenAI } from "./openai/create-openai.js";
import { createOpenAICompatible } from "./openai-compatible/create-openai-compatible.js";
import { OPENAI_COMPATIBLE_PRESET_NAMES } from "./openai-compatible/openai-compatible-presets.js";

/** Makes a model from a model id, for one provider prefix. */
export type ModelFactory = (modelId: string) => Model;

const factories = new Map<string, ModelFactory>([
  ["openai", (modelId) => createOpenAI()(modelId)],
  ["anthropic", (modelId) => createAnthropic()(modelId)],
  ["bedrock", (modelId) => createBedrock()(modelId)],
  ["google", (modelId) => createGoogle()(modelId)],
]);

// OpenAI-compatible services by preset: "deepseek:deepseek-chat", "azure:<deployment>", "ollama:llama3.2", …
for (const preset of OPENAI_COMPATIBLE_PRESET_NAMES) {
  factories.set(preset, (modelId) => createOpenAICompatible({ preset })(modelId));
}

/**
 * Model ids whose provider is obvious without a prefix: OpenAI's `gpt-*`, `chatgpt-*`, the o-series (`o1`,
 * `o3-mini`, `o4-mini`, …), `codex-*`, `computer-use-*` and fine-tuned `ft:gpt-*`; Anthropic's `claude-*`; Google's
 * `gemini-*`.
 */
const OBVIOUS_PROVIDERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(gpt-|chatgpt-|codex-|computer-use-|o\d+(-|$)|ft:gpt-)/, "openai"],
  [/^claude-/, "anthropic"],
  [/^gemini-/, "google"],
];

function unknownModel(model: string): InvalidArgumentError {
  const providers = [...factories.keys()].join(", ");
  return new InvalidArgumentError({
    argument: "model",
    message:
      `unknown model string "${model}": use "openai:<model>" or "anthropic:<model>", or pass a Model ` +
      `(model strings are "<provider>:<model-id>" with provider one of: ${providers}; ids such as ` +
      `"gpt-4o-mini", "o3" or "claude-sonnet-4-5" need no prefix)`,
  });
}

/**
 * Resolves a model string or passes a {@link Model} through. A string is `"provider:model-id"` (e.g.
 * `"openai:gpt-4o-mini"`, reading `OPENAI_API_KEY` and `OPENAI_BASE_URL`; `"anthropic:claude-sonnet-4-5"`,
 * reading `ANTHROPIC_API_KEY`; `"google:gemini-2.5-flash"`, reading `GOOGLE_GENERATIVE_AI_API_KEY` or
 * `GEMINI_API_KEY`), or a model id whose provider is obvious: `gpt-*`, `chatgpt-*`, `o1`/`o3`/`o4…`,
 * `codex-*`, `computer-use-*` and `ft:gpt-*` are OpenAI's, `claude-*` Anthropic's, `gemini-*` Google's. The OpenAI-compatible presets
 * are prefixes too (`"deepseek:deepseek-chat"`, `"azure:<deployment>"`, `"ollama:llama3.2"`: see
 * `createOpenAICompatible`). `"bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"` is Amazon Bedrock's
 * Converse API (region and credentials from the AWS variables: see `createBedrock`). Anything else throws
 * {@link InvalidArgumentError} that says how to fix it (`"openai:<model>"`, `"anthropic:<model>"`, or a Model).
 */
export function resolveModel(model: Model | string): Model {
  if (typeof model !== "string") {
    if (
      model !== null &&
      typeof model === "object" &&
      typeof model.generate === "function" &&
      typeof model.stream === "function"
    ) {
      return model;
    }
    throw new InvalidArgumentError({
      argument: "model",
      message: 'expected a Model object or a string like "openai:gpt-4o-mini"',
    });
  }
  const colon = model.indexOf(":");
  const factory = colon > 0 ? factories.get(model.slice(0, colon)) : undefined;
  if (factory !== undefined) {
    const modelId = model.slice(colon + 1);
    if (modelId.trim() === "") throw unknownModel(model);
    return factory(modelId);
  }
  const provider = OBVIOUS_PROVIDERS.find(([pattern]) => pattern.test(model))?.[1];
  const inferred = provider === undefined ? undefined : factories.get(provider);
  if (inferred === undefined) throw unknownModel(model);
  return inferred(model);
}
