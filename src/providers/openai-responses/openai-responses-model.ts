import { displayUrl } from "../../http/display-url.js";
import { DEFAULT_RESPONSE_LIMITS, type ResponseLimits } from "../../http/response-limits.js";
import type { RetryPolicy } from "../../http/retry-policy.js";
import type { SendModelRequestOptions } from "../../http/send-model-request.js";
import type { ModelCallOptions, ModelCapabilities, ModelRequest, ModelResponse } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { LazyHttpModel } from "../lazy-http-model.js";
import { LazyImplementation } from "../lazy-implementation.js";
import { isRetryableOpenAIStatus } from "../openai/is-retryable-openai-status.js";
import type { OpenAIChatModelConfig } from "../openai/openai-chat-model.js";
import { openAIRequestHeaders } from "../openai/openai-request-headers.js";

/** Request body, parsing and stream reading of every {@link OpenAIResponsesModel}, loaded by the first call. */
const codec = new LazyImplementation({
  what: "the OpenAI Responses provider",
  load: () => import("./openai-responses-codec.js"),
});

/** The resolved settings an {@link OpenAIResponsesModel} runs with: the same as the Chat model's. */
export type OpenAIResponsesModelConfig = OpenAIChatModelConfig;

/** Options of the {@link OpenAIResponsesModel} constructor. */
export interface OpenAIResponsesModelOptions {
  /** The model id sent as `model`, e.g. "gpt-5". */
  modelId: string;
  /** The provider's validated settings (built by `createOpenAI`). */
  config: OpenAIResponsesModelConfig;
}

/**
 * A model served by the OpenAI Responses API (`POST {baseURL}/responses`). Create it with
 * `createOpenAI().responses(modelId)`.
 *
 * Stateless: every request sends the whole history with `store: false` and asks for
 * `include: ["reasoning.encrypted_content"]`. A response that contains reasoning items returns its output
 * items as `providerData.openaiResponses.output`; the agent loop keeps them on the assistant message and this
 * model sends them back unchanged next turn, so reasoning carries across turns without server-side state.
 * Errors map like the Chat model's (same envelope; a 429 `insufficient_quota` is not retried).
 */
export class OpenAIResponsesModel extends LazyHttpModel<typeof import("./openai-responses-codec.js")> {
  /** Provider name ("openai" unless `createOpenAI({ name })` says otherwise). */
  readonly provider: string;
  /** The model id sent as `model`. */
  readonly modelId: string;
  /** `structuredOutput`: `request.output` goes out as `text.format` (`createOpenAI({ structuredOutput })`). */
  readonly capabilities: ModelCapabilities;
  private readonly config: OpenAIResponsesModelConfig;
  /** The endpoint as requests use it (credentials included, if the base URL has any). */
  private readonly url: string;
  /** The endpoint as messages print it (no credentials). */
  private readonly shownUrl: string;
  private readonly limits: ResponseLimits;
  /** True when the endpoint is OpenAI's own API, which always needs a key. */
  private readonly needsKey: boolean;

  /** Prefer `createOpenAI().responses(modelId)`, which validates its options. */
  constructor({ modelId, config }: OpenAIResponsesModelOptions) {
    super(codec);
    this.modelId = modelId;
    this.provider = config.name;
    this.config = config;
    this.capabilities = { structuredOutput: config.structuredOutput !== false };
    this.url = `${config.baseURL}/responses`;
    this.shownUrl = displayUrl(this.url);
    this.limits = config.limits ?? DEFAULT_RESPONSE_LIMITS;
    this.needsKey = new URL(config.baseURL).hostname === "api.openai.com";
  }

  /** The provider's retry policy: what an agent without a `retry` option retries this model's calls with. */
  get retryPolicy(): RetryPolicy {
    return this.config.retry;
  }

  protected parseResponse(text: string): ModelResponse {
    return this.implementation.value.parseOpenAIResponse({ text, url: this.shownUrl });
  }

  protected readStream(body: AsyncIterable<string>): AsyncIterable<ModelStreamPart> {
    return this.implementation.value.readOpenAIResponsesStream({
      body,
      url: this.shownUrl,
      limits: this.limits,
    });
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
    const { buildOpenAIResponsesBody, parseOpenAIErrorBody } = this.implementation.value;
    return {
      client: config.client,
      url: this.url,
      headers: this.headers(stream),
      body: buildOpenAIResponsesBody({ modelId: this.modelId, request, extraBody: config.extraBody, stream }),
      retry: config.retry,
      timeoutMs: config.timeoutMs,
      limits: this.limits,
      signal: options.signal,
      onRetry: options.onRetry,
      parseErrorBody: parseOpenAIErrorBody,
      isRetryable: isRetryableOpenAIStatus,
    };
  }

  private headers(stream: boolean): Record<string, string> {
    const { config } = this;
    return openAIRequestHeaders({
      apiKey: config.apiKey(),
      headers: config.headers,
      stream,
      needsKey: this.needsKey,
      url: this.shownUrl,
    });
  }
}
