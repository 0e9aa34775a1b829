import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { createAnthropic } from "../providers/anthropic/create-anthropic.js";
import { createOpenAI } from "../providers/openai/create-openai.js";
import type { Model } from "./model.js";

/** Makes a model from a model id, for one provider prefix. */
export type ModelFactory = (modelId: string) => Model;

const factories: Record<string, ModelFactory> = {
  openai: (modelId) => createOpenAI()(modelId),
  anthropic: (modelId) => createAnthropic()(modelId),
};

/**
 * Resolves a model string `"provider:model-id"` (e.g. `"openai:gpt-4o-mini"`, reading `OPENAI_API_KEY` and
 * `OPENAI_BASE_URL`) or passes a {@link Model} through. Unknown providers and malformed strings throw
 * {@link InvalidArgumentError} listing what is known.
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
  const provider = colon > 0 ? model.slice(0, colon) : "";
  const modelId = colon > 0 ? model.slice(colon + 1) : "";
  const factory = factories[provider];
  if (factory === undefined || modelId.trim() === "") {
    throw new InvalidArgumentError({
      argument: "model",
      message: `unknown model string "${model}"; expected "<provider>:<model-id>" with provider one of: ${Object.keys(factories).join(", ")}`,
    });
  }
  return factory(modelId);
}
