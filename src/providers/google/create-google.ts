import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { createFetchHttpClient, getDefaultHttpClient } from "../../http/http-client.js";
import { resolveResponseLimits } from "../../http/response-limits.js";
import { resolveRetryPolicy } from "../../http/retry-policy.js";
import { readEnv } from "../../util/read-env.js";
import type { HttpProviderOptions } from "../http-provider-options.js";
import { GoogleGeminiModel } from "./google-gemini-model.js";
import {
  type GoogleSafetySetting,
  type GoogleThinkingOptions,
  resolveGoogleSafetySettings,
  resolveGoogleThinking,
} from "./resolve-google-options.js";

/** Options of {@link createGoogle}. */
export interface GoogleProviderOptions extends HttpProviderOptions {
  /** API base URL. Default: `GOOGLE_BASE_URL`, else `https://generativelanguage.googleapis.com/v1beta`. */
  baseURL?: string;
  /**
   * API key, sent as the `x-goog-api-key` header (never in the URL). Default: `GOOGLE_GENERATIVE_AI_API_KEY`,
   * else `GEMINI_API_KEY`, read when a request is made. Without a key (or with "") no key header is sent —
   * fine for a local server or a proxy; calls to generativelanguage.googleapis.com then fail with a
   * non-retryable `ModelCallError` (code `missing_api_key`) naming the variables.
   */
  apiKey?: string;
  /** Thinking of every request (`generationConfig.thinkingConfig`). Default: the model's own. */
  thinking?: GoogleThinkingOptions;
  /** `safetySettings` of every request, e.g. `[{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }]`. */
  safetySettings?: GoogleSafetySetting[];
  /**
   * Fields merged into every request body (before each request's `providerOptions`), e.g. `cachedContent`,
   * `labels`, or `generationConfig: { topK: 20 }` (merged field by field). `contents` and `tools` cannot be set.
   */
  extraBody?: Record<string, unknown>;
  /**
   * Whether models answer in JSON natively when asked for a typed answer (`Agent({ output })`), through
   * `responseJsonSchema`. Default: true for Gemini 3 and later, false for Gemini 1.x and 2.x (they refuse a
   * JSON answer together with function calling): the agent then asks for the answer through a tool call.
   */
  structuredOutput?: boolean;
}

/** Makes Gemini models: `google("gemini-2.5-flash")`. */
export type GoogleProvider = (modelId: string) => GoogleGeminiModel;

/** The default per-attempt timeout of Gemini requests (ms). */
export const DEFAULT_GOOGLE_TIMEOUT_MS = 120_000;
/** The default base URL (when neither `baseURL` nor `GOOGLE_BASE_URL` is set). */
export const DEFAULT_GOOGLE_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/** The longest timeout `setTimeout` honours (larger values fire after 1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function invalid(argument: string, message: string, cause?: unknown): InvalidArgumentError {
  return new InvalidArgumentError({ argument, message, cause });
}

function resolveBaseURL(given: string | undefined): string {
  const fromEnv = readEnv("GOOGLE_BASE_URL");
  const value = given ?? fromEnv ?? DEFAULT_GOOGLE_BASE_URL;
  const argument = given === undefined && fromEnv !== undefined ? "GOOGLE_BASE_URL" : "baseURL";
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw invalid(argument, `expected an absolute URL, got "${value}"`, error);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(argument, `expected an http(s) URL, got "${value}"`);
  }
  if (url.search !== "" || url.hash !== "") {
    throw invalid(argument, `expected a URL without a query or fragment, got "${value}"`);
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

function resolveTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_GOOGLE_TIMEOUT_MS;
  const ok = typeof value === "number" && Number.isInteger(value) && value > 0 && value <= MAX_TIMEOUT_MS;
  if (!ok)
    throw invalid("timeoutMs", `expected an integer > 0 and <= ${MAX_TIMEOUT_MS}, got ${String(value)}`);
  return value;
}

/** The key of a request: the option, else `GOOGLE_GENERATIVE_AI_API_KEY`, else `GEMINI_API_KEY`. */
function keyReader(apiKey: string | undefined): () => string | undefined {
  if (apiKey !== undefined) return () => apiKey;
  return () => readEnv("GOOGLE_GENERATIVE_AI_API_KEY") || readEnv("GEMINI_API_KEY");
}

/**
 * Creates a Google Gemini provider: a function from a model id to a {@link GoogleGeminiModel} that calls the
 * Gemini API natively (`generateContent`, `streamGenerateContent` over SSE). Options are validated here (an
 * invalid one throws {@link InvalidArgumentError}); the API key is read when a request is made, so a provider
 * can be created before the environment is set.
 *
 * @example
 * const google = createGoogle();
 * const model = google("gemini-2.5-flash");
 * const thinking = createGoogle({ thinking: { level: "high", includeThoughts: true } })("gemini-3-pro-preview");
 */
export function createGoogle(options: GoogleProviderOptions = {}): GoogleProvider {
  if (!isPlainObject(options as unknown)) throw invalid("options", "expected an object");
  const baseURL = resolveBaseURL(options.baseURL);
  const { apiKey, fetch: fetchImpl, extraBody, structuredOutput } = options;
  if (apiKey !== undefined && typeof apiKey !== "string") throw invalid("apiKey", "expected a string");
  if (fetchImpl !== undefined && typeof fetchImpl !== "function") {
    throw invalid("fetch", "expected a fetch function");
  }
  if (extraBody !== undefined && !isPlainObject(extraBody)) throw invalid("extraBody", "expected an object");
  if (structuredOutput !== undefined && typeof structuredOutput !== "boolean") {
    throw invalid("structuredOutput", "expected a boolean");
  }
  const config = {
    baseURL,
    apiKey: keyReader(apiKey),
    headers: resolveHeaders(options.headers),
    client: fetchImpl !== undefined ? createFetchHttpClient(fetchImpl) : getDefaultHttpClient(),
    retry: resolveRetryPolicy(options.retry),
    limits: resolveResponseLimits(options.limits),
    timeoutMs: resolveTimeout(options.timeoutMs),
    extraBody,
    thinkingConfig: resolveGoogleThinking(options.thinking),
    safetySettings: resolveGoogleSafetySettings(options.safetySettings),
    structuredOutput,
  };
  return (modelId: string): GoogleGeminiModel => {
    if (typeof modelId !== "string" || modelId.trim() === "") {
      throw invalid("modelId", "expected a non-empty model id string");
    }
    return new GoogleGeminiModel(modelId, config);
  };
}
