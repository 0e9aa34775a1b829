import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { createFetchHttpClient, getDefaultHttpClient, type HttpClient } from "../../http/http-client.js";
import { type ResponseLimits, resolveResponseLimits } from "../../http/response-limits.js";
import { type RetryPolicy, resolveRetryPolicy } from "../../http/retry-policy.js";
import { readEnv } from "../../util/read-env.js";
import { OpenAIResponsesModel } from "../openai-responses/openai-responses-model.js";
import { OpenAIChatModel } from "./openai-chat-model.js";
import { withPromptCacheFields } from "./with-prompt-cache-fields.js";

/** Options of {@link createOpenAI}. */
export interface OpenAIProviderOptions {
  /**
   * API base URL. Default: `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. Any OpenAI-compatible server
   * works (e.g. `http://localhost:11434/v1`).
   */
  baseURL?: string;
  /**
   * API key, sent as `Authorization: Bearer <key>`. Default: `OPENAI_API_KEY`, read when a request is made.
   * Without a key (or with "") no `Authorization` header is sent — fine for local compatible servers; calls to
   * api.openai.com then fail with a `ModelCallError` (code `missing_api_key`) naming `OPENAI_API_KEY`.
   */
  apiKey?: string;
  /** Extra request headers (e.g. `OpenAI-Organization`). They override the provider's own headers. */
  headers?: Record<string, string>;
  /** A `fetch` implementation to send requests with. Default: the shared keep-alive `node:http` client. */
  fetch?: typeof globalThis.fetch;
  /** Retry policy of failed requests (merged with `DEFAULT_RETRY_POLICY`). */
  retry?: Partial<RetryPolicy>;
  /**
   * Per-attempt timeout in milliseconds. Non-streaming: until the whole answer is read. Streaming: until the
   * response headers arrive, then the longest allowed time without progress (text, reasoning, tool-call or
   * usage data; keep-alive comments and empty events do not count). Default 120 000.
   */
  timeoutMs?: number;
  /**
   * Bounds on what the server may send: `maxResponseBytes` (a whole answer or error body, default 64 MiB),
   * `maxStreamBytes` (a whole stream, 256 MiB), `maxSseEventBytes` (one event or line, 16 MiB), `maxToolCalls`
   * (tool calls in one answer, and the largest streamed tool-call index + 1, 10 000), `maxStreamDurationMs` (one
   * stream from headers to end, 30 min). Over a limit the call ends with a non-retryable
   * `ResponseTooLargeError` (`ModelCallError` code `stream_duration_exceeded` for the duration).
   */
  limits?: Partial<ResponseLimits>;
  /** Fields merged into every request body (before each request's `providerOptions`). */
  extraBody?: Record<string, unknown>;
  /** Provider name reported as `model.provider`. Default "openai". */
  name?: string;
  /**
   * Whether the models answer in JSON natively when asked for a typed answer (`Agent({ output })`): Chat sends
   * `response_format` of type `json_schema`, Responses `text.format`. Default true. Set it to false for an
   * OpenAI-compatible server that rejects them: the agent then asks for the answer through a tool call.
   */
  structuredOutput?: boolean;
  /**
   * Sent as `prompt_cache_key` (Chat and Responses): requests with the same key and a shared prefix are routed
   * to the same cache, which raises hit rates (one key per conversation, user or tenant). Only sent when set,
   * so OpenAI-compatible servers that do not know the field never see it.
   */
  promptCacheKey?: string;
  /**
   * Sent as `prompt_cache_retention`: `"in_memory"` (the default cache, minutes) or `"24h"` (extended retention,
   * up to a day). Only sent when set.
   */
  promptCacheRetention?: "in_memory" | "24h";
}

/**
 * Makes OpenAI models: Chat Completions with `openai("gpt-4o-mini")` or `openai.chat("gpt-4o-mini")`, the
 * Responses API with `openai.responses("gpt-5")`.
 */
export interface OpenAIProvider {
  /** A Chat Completions model. */
  (modelId: string): OpenAIChatModel;
  /** A Chat Completions model (alias of calling the provider). */
  chat(modelId: string): OpenAIChatModel;
  /**
   * A Responses API model (`POST {baseURL}/responses`), stateless (`store: false`, the whole history sent
   * each turn, reasoning items carried in `providerData`). Same options as `chat`.
   */
  responses(modelId: string): OpenAIResponsesModel;
}

/** The default per-attempt timeout of OpenAI requests (ms). */
export const DEFAULT_OPENAI_TIMEOUT_MS = 120_000;

/** The longest timeout `setTimeout` honours (larger values fire after 1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function resolveBaseURL(given: string | undefined): string {
  const value = given ?? readEnv("OPENAI_BASE_URL") ?? "https://api.openai.com/v1";
  const argument =
    given === undefined && readEnv("OPENAI_BASE_URL") !== undefined ? "OPENAI_BASE_URL" : "baseURL";
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw new InvalidArgumentError({
      argument,
      message: `expected an absolute URL, got "${value}"`,
      cause: error,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError({ argument, message: `expected an http(s) URL, got "${value}"` });
  }
  return value.replace(/\/+$/, "");
}

/** Checks the `headers` option and lower-cases its names (also used by `createOpenAICompatible`). */
export function resolveHeaders(headers: unknown): Record<string, string> {
  if (headers === undefined) return {};
  if (!isPlainObject(headers))
    throw new InvalidArgumentError({ argument: "headers", message: "expected an object" });
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") {
      throw new InvalidArgumentError({ argument: `headers.${name}`, message: "expected a string value" });
    }
    result[name.toLowerCase()] = value;
  }
  return result;
}

/** Checks the `timeoutMs` option, or gives the default (also used by `createOpenAICompatible`). */
export function resolveTimeout(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return DEFAULT_OPENAI_TIMEOUT_MS;
  if (
    typeof timeoutMs !== "number" ||
    !Number.isFinite(timeoutMs) ||
    timeoutMs <= 0 ||
    timeoutMs > MAX_TIMEOUT_MS
  ) {
    throw new InvalidArgumentError({
      argument: "timeoutMs",
      message: `expected a number of milliseconds > 0 and <= ${MAX_TIMEOUT_MS}, got ${String(timeoutMs)}`,
    });
  }
  return timeoutMs;
}

/**
 * Creates an OpenAI provider: a function from a model id to a Chat Completions {@link OpenAIChatModel}.
 * Options are validated here (an invalid one throws {@link InvalidArgumentError}); the API key is read when a
 * request is made, so a provider can be created before the environment is set.
 *
 * @example
 * const openai = createOpenAI();
 * const model = openai("gpt-4o-mini");
 * const local = createOpenAI({ baseURL: "http://localhost:11434/v1", name: "ollama" })("llama3.2");
 * const cached = createOpenAI({ promptCacheKey: `user-${userId}`, promptCacheRetention: "24h" });
 */
export function createOpenAI(options: OpenAIProviderOptions = {}): OpenAIProvider {
  if (!isPlainObject(options as unknown)) {
    throw new InvalidArgumentError({ argument: "options", message: "expected an object" });
  }
  const baseURL = resolveBaseURL(options.baseURL);
  const { apiKey, fetch: fetchImpl, extraBody, name = "openai" } = options;
  if (apiKey !== undefined && typeof apiKey !== "string") {
    throw new InvalidArgumentError({ argument: "apiKey", message: "expected a string" });
  }
  if (fetchImpl !== undefined && typeof fetchImpl !== "function") {
    throw new InvalidArgumentError({ argument: "fetch", message: "expected a fetch function" });
  }
  if (extraBody !== undefined && !isPlainObject(extraBody)) {
    throw new InvalidArgumentError({ argument: "extraBody", message: "expected an object" });
  }
  if (typeof name !== "string" || name === "") {
    throw new InvalidArgumentError({ argument: "name", message: "expected a non-empty string" });
  }
  const { structuredOutput = true } = options;
  if (typeof structuredOutput !== "boolean") {
    throw new InvalidArgumentError({ argument: "structuredOutput", message: "expected a boolean" });
  }
  const headers = resolveHeaders(options.headers);
  const timeoutMs = resolveTimeout(options.timeoutMs);
  const retry = resolveRetryPolicy(options.retry);
  const limits = resolveResponseLimits(options.limits);
  const client: HttpClient =
    fetchImpl !== undefined ? createFetchHttpClient(fetchImpl) : getDefaultHttpClient();
  const readKey = apiKey !== undefined ? () => apiKey : () => readEnv("OPENAI_API_KEY");
  const config = {
    name,
    baseURL,
    apiKey: readKey,
    headers,
    client,
    retry,
    timeoutMs,
    limits,
    extraBody: withPromptCacheFields({
      extraBody,
      promptCacheKey: options.promptCacheKey,
      promptCacheRetention: options.promptCacheRetention,
    }),
    structuredOutput,
  };

  const chat = (modelId: string): OpenAIChatModel => {
    if (typeof modelId !== "string" || modelId.trim() === "") {
      throw new InvalidArgumentError({
        argument: "modelId",
        message: "expected a non-empty model id string",
      });
    }
    return new OpenAIChatModel(modelId, config);
  };
  const responses = (modelId: string): OpenAIResponsesModel => {
    if (typeof modelId !== "string" || modelId.trim() === "") {
      throw new InvalidArgumentError({
        argument: "modelId",
        message: "expected a non-empty model id string",
      });
    }
    return new OpenAIResponsesModel({ modelId, config });
  };
  const provider = ((modelId: string) => chat(modelId)) as OpenAIProvider;
  provider.chat = chat;
  provider.responses = responses;
  return provider;
}
