import { displayUrl } from "../../http/display-url.js";
import type { HttpClient } from "../../http/http-client.js";
import { DEFAULT_RESPONSE_LIMITS, type ResponseLimits } from "../../http/response-limits.js";
import type { RetryPolicy } from "../../http/retry-policy.js";
import type { SendModelRequestOptions } from "../../http/send-model-request.js";
import type { ModelCallOptions, ModelCapabilities, ModelRequest, ModelResponse } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { LazyHttpModel } from "../lazy-http-model.js";
import { LazyImplementation } from "../lazy-implementation.js";
import type { OpenAICompatibleQuirks } from "../openai-compatible/openai-compatible-quirks.js";
import { isRetryableOpenAIStatus } from "./is-retryable-openai-status.js";
import { openAIRequestHeaders } from "./openai-request-headers.js";

/** Request body, parsing and stream reading of every {@link OpenAIChatModel}, loaded by the first call. */
const codec = new LazyImplementation({
  what: "the OpenAI Chat Completions provider",
  load: () => import("./openai-chat-codec.js"),
});

/** The resolved, validated settings an {@link OpenAIChatModel} runs with (built by `createOpenAI`). */
export interface OpenAIChatModelConfig {
  /** Provider name reported as `model.provider`. */
  name: string;
  /** Base URL without a trailing slash, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  /** Returns the API key at call time (undefined or "" → no `Authorization` header). */
  apiKey: () => string | undefined;
  /** Extra request headers, keys lower-cased. They override the provider's own headers. */
  headers: Readonly<Record<string, string>>;
  client: HttpClient;
  retry: RetryPolicy;
  timeoutMs: number;
  /** Bounds on what the server may send. Default `DEFAULT_RESPONSE_LIMITS`. */
  limits?: ResponseLimits | undefined;
  extraBody?: Record<string, unknown> | undefined;
  /** Whether the model takes `ModelRequest.output` natively (`capabilities.structuredOutput`). Default true. */
  structuredOutput?: boolean | undefined;
  /** How an OpenAI-compatible server differs (set by `createOpenAICompatible`); none for OpenAI. */
  quirks?: OpenAICompatibleQuirks | undefined;
}

/**
 * A model served by the OpenAI Chat Completions API (`POST {baseURL}/chat/completions`), or by any
 * OpenAI-compatible server. Create it with `createOpenAI()(modelId)`.
 */
export class OpenAIChatModel extends LazyHttpModel<typeof import("./openai-chat-codec.js")> {
  /** Provider name ("openai" unless `createOpenAI({ name })` says otherwise). */
  readonly provider: string;
  /** The model id sent as `model`. */
  readonly modelId: string;
  /** `structuredOutput`: `request.output` goes out as `response_format` (`createOpenAI({ structuredOutput })`). */
  readonly capabilities: ModelCapabilities;
  private readonly config: OpenAIChatModelConfig;
  /** The endpoint as requests use it (credentials included, if the base URL has any). */
  private readonly url: string;
  /** The endpoint as messages print it (no credentials). */
  private readonly shownUrl: string;
  private readonly limits: ResponseLimits;
  /** True when the endpoint is OpenAI's own API, which always needs a key. */
  private readonly needsKey: boolean;

  /** Prefer `createOpenAI()(modelId)`, which validates its options. */
  constructor(modelId: string, config: OpenAIChatModelConfig) {
    super(codec);
    this.modelId = modelId;
    this.provider = config.name;
    this.config = config;
    this.capabilities = { structuredOutput: config.structuredOutput !== false };
    this.url = config.quirks?.chatURL?.(modelId) ?? `${config.baseURL}/chat/completions`;
    this.shownUrl = displayUrl(this.url);
    this.limits = config.limits ?? DEFAULT_RESPONSE_LIMITS;
    this.needsKey = new URL(config.baseURL).hostname === "api.openai.com";
  }

  /** The provider's retry policy: what an agent without a `retry` option retries this model's calls with. */
  get retryPolicy(): RetryPolicy {
    return this.config.retry;
  }

  protected parseResponse(text: string): ModelResponse {
    return this.implementation.value.parseOpenAIChatCompletion(text, this.shownUrl);
  }

  protected readStream(body: AsyncIterable<string>): AsyncIterable<ModelStreamPart> {
    return this.implementation.value.readOpenAIChatStream(body, this.shownUrl, this.limits);
  }

  /** What both modes send: the body, headers, retry policy, timeout and the OpenAI error mapping. */
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
    const quirks = config.quirks;
    const { buildOpenAIChatBody, withOwnReasoning, parseOpenAIErrorBody } = this.implementation.value;
    return {
      client: config.client,
      url: this.url,
      headers: this.headers(stream),
      body: buildOpenAIChatBody({
        modelId: this.modelId,
        // Reasoning another server left on the history is not sent here (see openai-compatible-reasoning.ts).
        request: withOwnReasoning({ request: quirks?.editRequest?.(request) ?? request, url: this.shownUrl }),
        extraBody: config.extraBody,
        stream,
        editBody: quirks?.editBody,
      }),
      retry: config.retry,
      timeoutMs: config.timeoutMs,
      limits: this.limits,
      signal: options.signal,
      onRetry: options.onRetry,
      parseErrorBody: parseOpenAIErrorBody,
      isRetryable: quirks?.isRetryable ?? isRetryableOpenAIStatus,
    };
  }

  private headers(stream: boolean): Record<string, string> {
    const { config } = this;
    return (config.quirks?.requestHeaders ?? openAIRequestHeaders)({
      apiKey: config.apiKey(),
      headers: config.headers,
      stream,
      needsKey: this.needsKey,
      url: this.shownUrl,
    });
  }
}
