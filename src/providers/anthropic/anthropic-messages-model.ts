import { ModelCallError } from "../../errors/model-call-error.js";
import { displayUrl } from "../../http/display-url.js";
import type { HttpClient } from "../../http/http-client.js";
import { DEFAULT_RESPONSE_LIMITS, type ResponseLimits } from "../../http/response-limits.js";
import type { RetryPolicy } from "../../http/retry-policy.js";
import type { SendModelRequestOptions } from "../../http/send-model-request.js";
import type { ModelCallOptions, ModelCapabilities, ModelRequest, ModelResponse } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { LazyHttpModel } from "../lazy-http-model.js";
import { LazyImplementation } from "../lazy-implementation.js";
import type { AnthropicWireCacheControl } from "./resolve-anthropic-prompt-caching.js";

/** The resolved, validated settings an {@link AnthropicMessagesModel} runs with (built by `createAnthropic`). */
export interface AnthropicMessagesModelConfig {
  /** Base URL without a trailing slash, e.g. `https://api.anthropic.com/v1`. */
  baseURL: string;
  /** Returns the API key at call time (undefined or "" → no `x-api-key` header). */
  apiKey: () => string | undefined;
  /** Extra request headers, keys lower-cased. They override the provider's own headers. */
  headers: Readonly<Record<string, string>>;
  client: HttpClient;
  retry: RetryPolicy;
  timeoutMs: number;
  /** Bounds on what the server may send. Default `DEFAULT_RESPONSE_LIMITS`. */
  limits?: ResponseLimits | undefined;
  /** `max_tokens` of requests without `maxOutputTokens`. */
  defaultMaxOutputTokens: number;
  /** The `anthropic-version` header. */
  anthropicVersion: string;
  extraBody?: Record<string, unknown> | undefined;
  /** Whether the model takes `ModelRequest.output` natively (`capabilities.structuredOutput`). Default true. */
  structuredOutput?: boolean | undefined;
  /** The prompt-cache breakpoint placed on tools, system and the last message; undefined: caching off. */
  cacheControl?: AnthropicWireCacheControl | undefined;
}

/** Request body, parsing and stream reading of every {@link AnthropicMessagesModel}, loaded by the first call. */
const codec = new LazyImplementation({
  what: "the Anthropic provider",
  load: () => import("./anthropic-codec.js"),
});

/**
 * A model served by the Anthropic Messages API (`POST {baseURL}/messages`). Create it with
 * `createAnthropic()(modelId)`.
 */
export class AnthropicMessagesModel extends LazyHttpModel<typeof import("./anthropic-codec.js")> {
  /** Always "anthropic". */
  readonly provider = "anthropic";
  /** The model id sent as `model`, e.g. "claude-haiku-4-5". */
  readonly modelId: string;
  /** `structuredOutput`: `request.output` goes out as `output_config.format` (`createAnthropic` option). */
  readonly capabilities: ModelCapabilities;
  private readonly config: AnthropicMessagesModelConfig;
  /** The endpoint as requests use it (credentials included, if the base URL has any). */
  private readonly url: string;
  /** The endpoint as messages print it (no credentials). */
  private readonly shownUrl: string;
  private readonly limits: ResponseLimits;
  /** True when the endpoint is Anthropic's own API, which always needs a key. */
  private readonly needsKey: boolean;

  /** Prefer `createAnthropic()(modelId)`, which validates its options. */
  constructor(modelId: string, config: AnthropicMessagesModelConfig) {
    super(codec);
    this.modelId = modelId;
    this.config = config;
    this.capabilities = { structuredOutput: config.structuredOutput !== false };
    this.url = `${config.baseURL}/messages`;
    this.shownUrl = displayUrl(this.url);
    this.limits = config.limits ?? DEFAULT_RESPONSE_LIMITS;
    this.needsKey = new URL(config.baseURL).hostname === "api.anthropic.com";
  }

  /** The provider's retry policy: what an agent without a `retry` option retries this model's calls with. */
  get retryPolicy(): RetryPolicy {
    return this.config.retry;
  }

  protected parseResponse(text: string): ModelResponse {
    return this.implementation.value.parseAnthropicMessage(text, this.shownUrl);
  }

  protected readStream(body: AsyncIterable<string>): AsyncIterable<ModelStreamPart> {
    return this.implementation.value.readAnthropicStream(body, this.shownUrl, this.limits);
  }

  /** What both modes send: the body, headers, retry policy, timeout and the Anthropic error mapping. */
  protected requestOptions({
    request,
    options,
    stream,
  }: {
    request: ModelRequest;
    options: ModelCallOptions;
    stream: boolean;
  }): SendModelRequestOptions {
    const { config } = this;
    const { buildAnthropicBody, parseAnthropicErrorBody, isRetryableAnthropicStatus } =
      this.implementation.value;
    return {
      client: config.client,
      url: this.url,
      headers: this.headers(stream),
      body: buildAnthropicBody({
        modelId: this.modelId,
        request,
        defaultMaxOutputTokens: config.defaultMaxOutputTokens,
        extraBody: config.extraBody,
        stream,
        cacheControl: config.cacheControl,
      }),
      retry: config.retry,
      timeoutMs: config.timeoutMs,
      limits: this.limits,
      signal: options.signal,
      onRetry: options.onRetry,
      parseErrorBody: parseAnthropicErrorBody,
      isRetryable: isRetryableAnthropicStatus,
    };
  }

  private headers(stream: boolean): Record<string, string> {
    const key = this.config.apiKey();
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
      "anthropic-version": this.config.anthropicVersion,
    };
    const custom = this.config.headers;
    if (key !== undefined && key !== "") {
      headers["x-api-key"] = key;
    } else if (this.needsKey && custom["x-api-key"] === undefined && custom.authorization === undefined) {
      throw new ModelCallError({
        message:
          "No Anthropic API key: set the ANTHROPIC_API_KEY environment variable or pass { apiKey } to " +
          `createAnthropic() (requests to ${this.shownUrl} need one)`,
        isRetryable: false,
        code: "missing_api_key",
        url: this.shownUrl,
      });
    }
    return Object.assign(headers, custom);
  }
}
