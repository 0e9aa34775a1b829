import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { createFetchHttpClient, getDefaultHttpClient } from "../../http/http-client.js";
import { resolveResponseLimits } from "../../http/response-limits.js";
import { resolveRetryPolicy } from "../../http/retry-policy.js";
import { readEnv } from "../../util/read-env.js";
import type { HttpProviderOptions } from "../http-provider-options.js";
import { AnthropicMessagesModel } from "./anthropic-messages-model.js";
import { resolveAnthropicPromptCaching } from "./resolve-anthropic-prompt-caching.js";

/** Options of {@link createAnthropic}. */
export interface AnthropicProviderOptions extends HttpProviderOptions {
  /** API base URL. Default: `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com/v1`. */
  baseURL?: string;
  /**
   * API key, sent as `x-api-key`. Default: `ANTHROPIC_API_KEY`, read when a request is made. Without a key
   * (or with "") no `x-api-key` header is sent — fine for local compatible servers; calls to api.anthropic.com
   * then fail with a non-retryable `ModelCallError` (code `missing_api_key`) naming `ANTHROPIC_API_KEY`.
   */
  apiKey?: string;
  /** `max_tokens` of requests without `maxOutputTokens` (the API requires it). Default 4096. */
  defaultMaxOutputTokens?: number;
  /** The `anthropic-version` header. Default "2023-06-01". */
  anthropicVersion?: string;
  /** Fields merged into every request body (before each request's `providerOptions`), e.g. `thinking`. */
  extraBody?: Record<string, unknown>;
  /**
   * Whether models answer in JSON natively when asked for a typed answer (`Agent({ output })`), through
   * `output_config.format`. Default true. Set it to false for models without structured outputs (those before
   * Claude Sonnet 4.5 / Haiku 4.5 / Opus 4.5) or for recursive schemas: the agent then asks for the answer
   * through a tool call.
   */
  structuredOutput?: boolean;
  /**
   * Prompt caching. `"auto"` (the default) puts a `cache_control` breakpoint on the last tool definition, on
   * the system prompt and on the last block of the conversation (it moves forward each turn), so a turn reads
   * the previous turns from the cache (0.1 × the input price) and writes only what is new (1.25 ×); `{ ttl:
   * "1h" }` does the same with a one-hour cache (writes at 2 ×); `"off"` sends no breakpoints. A top-level
   * `cache_control` in `extraBody` or a request's `providerOptions` (the API's own automatic caching) takes
   * over, and `cache_control: null` there turns caching off for that request. See docs/models.md.
   */
  promptCaching?: "auto" | "off" | { ttl?: "5m" | "1h" };
}

/** Makes Anthropic Messages models: `anthropic("claude-haiku-4-5")`. */
export type AnthropicProvider = (modelId: string) => AnthropicMessagesModel;

/** The default per-attempt timeout of Anthropic requests (ms). */
export const DEFAULT_ANTHROPIC_TIMEOUT_MS = 120_000;
/** The default `max_tokens` of requests without `maxOutputTokens`. */
export const DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS = 4096;
/** The default `anthropic-version` header. */
export const DEFAULT_ANTHROPIC_VERSION = "2023-06-01";
/** The default base URL (when neither `baseURL` nor `ANTHROPIC_BASE_URL` is set). */
export const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";

/** The longest timeout `setTimeout` honours (larger values fire after 1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function invalid(argument: string, message: string, cause?: unknown): InvalidArgumentError {
  return new InvalidArgumentError({ argument, message, cause });
}

function resolveBaseURL(given: string | undefined): string {
  const fromEnv = readEnv("ANTHROPIC_BASE_URL");
  const value = given ?? fromEnv ?? DEFAULT_ANTHROPIC_BASE_URL;
  const argument = given === undefined && fromEnv !== undefined ? "ANTHROPIC_BASE_URL" : "baseURL";
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw invalid(argument, `expected an absolute URL, got "${value}"`, error);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(argument, `expected an http(s) URL, got "${value}"`);
  }
  return value.replace(/\/+$/, "");
}

function resolveHeaders(headers: unknown): Record<string, string> {
  if (headers === undefined) return {};
  if (!isPlainObject(headers)) throw invalid("headers", "expected an object");
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") throw invalid(`headers.${name}`, "expected a string value");
    result[name.toLowerCase()] = value;
  }
  return result;
}

function resolvePositiveInteger({
  argument,
  value,
  fallback,
  max,
}: {
  argument: string;
  value: unknown;
  fallback: number;
  max: number;
}): number {
  if (value === undefined) return fallback;
  const ok = typeof value === "number" && Number.isInteger(value) && value > 0 && value <= max;
  if (!ok) throw invalid(argument, `expected an integer > 0 and <= ${max}, got ${String(value)}`);
  return value;
}

/**
 * Creates an Anthropic provider: a function from a model id to an {@link AnthropicMessagesModel}. Options are
 * validated here (an invalid one throws {@link InvalidArgumentError}); the API key is read when a request is
 * made, so a provider can be created before the environment is set.
 *
 * @example
 * const anthropic = createAnthropic();
 * const model = anthropic("claude-haiku-4-5");
 * const thinking = createAnthropic({ extraBody: { thinking: { type: "enabled", budget_tokens: 1024 } } });
 * const hourCache = createAnthropic({ promptCaching: { ttl: "1h" } });
 */
export function createAnthropic(options: AnthropicProviderOptions = {}): AnthropicProvider {
  if (!isPlainObject(options as unknown)) throw invalid("options", "expected an object");
  if (Object.hasOwn(options, "maxTokens")) {
    throw invalid(
      "maxTokens",
      "renamed to defaultMaxOutputTokens in agentloop 0.2; use defaultMaxOutputTokens",
    );
  }
  const baseURL = resolveBaseURL(options.baseURL);
  const { apiKey, fetch: fetchImpl, extraBody, anthropicVersion = DEFAULT_ANTHROPIC_VERSION } = options;
  if (apiKey !== undefined && typeof apiKey !== "string") throw invalid("apiKey", "expected a string");
  if (fetchImpl !== undefined && typeof fetchImpl !== "function") {
    throw invalid("fetch", "expected a fetch function");
  }
  if (extraBody !== undefined && !isPlainObject(extraBody)) throw invalid("extraBody", "expected an object");
  if (typeof anthropicVersion !== "string" || anthropicVersion.trim() === "") {
    throw invalid("anthropicVersion", "expected a non-empty string");
  }
  const { structuredOutput = true } = options;
  if (typeof structuredOutput !== "boolean") throw invalid("structuredOutput", "expected a boolean");
  const config = {
    baseURL,
    apiKey: apiKey !== undefined ? () => apiKey : () => readEnv("ANTHROPIC_API_KEY"),
    headers: resolveHeaders(options.headers),
    client: fetchImpl !== undefined ? createFetchHttpClient(fetchImpl) : getDefaultHttpClient(),
    retry: resolveRetryPolicy(options.retry),
    limits: resolveResponseLimits(options.limits),
    timeoutMs: resolvePositiveInteger({
      argument: "timeoutMs",
      value: options.timeoutMs,
      fallback: DEFAULT_ANTHROPIC_TIMEOUT_MS,
      max: MAX_TIMEOUT_MS,
    }),
    defaultMaxOutputTokens: resolvePositiveInteger({
      argument: "defaultMaxOutputTokens",
      value: options.defaultMaxOutputTokens,
      fallback: DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS,
      max: Number.MAX_SAFE_INTEGER,
    }),
    anthropicVersion,
    extraBody,
    structuredOutput,
    cacheControl: resolveAnthropicPromptCaching(options.promptCaching),
  };
  return (modelId: string): AnthropicMessagesModel => {
    if (typeof modelId !== "string" || modelId.trim() === "") {
      throw invalid("modelId", "expected a non-empty model id string");
    }
    return new AnthropicMessagesModel(modelId, config);
  };
}
