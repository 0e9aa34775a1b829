import type { RetryPolicy } from "../../../http/retry-policy.js";
import { createOpenAI } from "../../openai/create-openai.js";
import type { OpenAIChatModel } from "../../openai/openai-chat-model.js";
import { createOpenAICompatible } from "../create-openai-compatible.js";
import type { OpenAICompatiblePresetName } from "../openai-compatible-presets.js";

/** Options of {@link compatibleModel}. */
export interface CompatibleModelOptions {
  /** A preset, or "openai" for plain `createOpenAI` (a compatible server without a preset). */
  preset: OpenAICompatiblePresetName | "openai";
  /** The fixture server's base URL (`http://127.0.0.1:<port>/v1`); Azure gets its root. */
  baseURL: string;
  modelId?: string;
  retry?: Partial<RetryPolicy>;
}

/** A model of a preset pointed at a local test server, with a test key and fast retries. */
export function compatibleModel({
  preset,
  baseURL,
  modelId = "test-model",
  retry = { baseDelayMs: 1, maxRetries: 0 },
}: CompatibleModelOptions): OpenAIChatModel {
  const common = { apiKey: "test-key", retry };
  if (preset === "openai") return createOpenAI({ ...common, baseURL })(modelId);
  const url = preset === "azure" ? baseURL.replace(/\/v1$/, "") : baseURL;
  return createOpenAICompatible({ ...common, preset, baseURL: url })(modelId);
}
