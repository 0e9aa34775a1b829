import { createEstimatingCounter } from "./create-estimating-counter.js";
import { createTokenCounter, type TokenCounter } from "./token-counter.js";

/** The OpenAI encodings agentloop can load from gpt-tokenizer. */
export type OpenAIEncoding = "o200k_base" | "cl100k_base";

const O200K =
  /^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|gpt-realtime|gpt-audio|chatgpt-4o|chatgpt-5|codex-|computer-use|o[134](-|$))/;
const CL100K = /^(gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002)/;
const OPENAI_LIKE = /^(gpt-|chatgpt-|text-|davinci|babbage|curie|ada-|o\d)/;

/**
 * The OpenAI encoding of a model id, or `undefined` when the id is not an OpenAI model (`claude-*`,
 * `llama*`, …). Accepts `"openai:"`/`"openai/"` prefixes and fine-tuned ids (`ft:gpt-4o-mini:org::id`).
 * o200k_base: gpt-4o*, gpt-4.1*, gpt-4.5*, gpt-5*, o1*, o3*, o4*, chatgpt-4o*, gpt-oss*. cl100k_base: gpt-4*,
 * gpt-3.5*, and the fallback for other OpenAI-looking ids — for most texts it needs at least as many tokens
 * as o200k_base, so an unknown newer model is over- rather than under-estimated.
 */
export function encodingForModel(modelId: string): OpenAIEncoding | undefined {
  let id = modelId.trim().toLowerCase();
  if (id.startsWith("openai:") || id.startsWith("openai/")) id = id.slice(7);
  if (id.startsWith("ft:")) id = id.slice(3).split(":")[0] ?? "";
  if (O200K.test(id)) return "o200k_base";
  if (CL100K.test(id)) return "cl100k_base";
  return OPENAI_LIKE.test(id) ? "cl100k_base" : undefined;
}

/** gpt-tokenizer's encode options: special-token strings in user text are ordinary text, never an error. */
const ENCODE_OPTIONS = { disallowedSpecial: new Set<string>() };

const loaded = new Map<OpenAIEncoding, Promise<TokenCounter>>();

async function loadEncoding(encoding: OpenAIEncoding): Promise<TokenCounter> {
  try {
    const tokenizer =
      encoding === "o200k_base"
        ? await import("gpt-tokenizer/encoding/o200k_base")
        : await import("gpt-tokenizer/encoding/cl100k_base");
    return createTokenCounter({
      encoding,
      exact: true,
      countText: (text) => tokenizer.countTokens(text, ENCODE_OPTIONS),
    });
  } catch {
    // gpt-tokenizer is an optional peer dependency: without it, estimate.
    return createEstimatingCounter();
  }
}

/** Options of {@link loadTokenCounter}. */
export interface LoadTokenCounterOptions {
  /** The model id, e.g. `"gpt-4o-mini"` or `"claude-sonnet-4-5"`. */
  modelId: string;
}

/**
 * The {@link TokenCounter} for a model: the exact OpenAI tokenizer from gpt-tokenizer (an optional peer,
 * imported on first use, one counter per encoding shared by every caller) for OpenAI model ids; otherwise, or
 * when gpt-tokenizer is not installed, the estimating counter (`exact: false`). Never rejects.
 */
export function loadTokenCounter({ modelId }: LoadTokenCounterOptions): Promise<TokenCounter> {
  const encoding = encodingForModel(modelId);
  if (encoding === undefined) return Promise.resolve(createEstimatingCounter());
  let counter = loaded.get(encoding);
  if (counter === undefined) {
    counter = loadEncoding(encoding);
    loaded.set(encoding, counter);
  }
  return counter;
}
