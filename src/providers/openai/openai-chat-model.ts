import { ModelCallError } from "../../errors/model-call-error.js";
import type { HttpClient } from "../../http/http-client.js";
import type { RetryPolicy } from "../../http/retry-policy.js";
import {
  openModelStream,
  type SendModelRequestOptions,
  sendModelRequest,
} from "../../http/send-model-request.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { buildOpenAIChatBody } from "./build-openai-chat-body.js";
import { parseOpenAIChatCompletion } from "./parse-openai-chat-completion.js";
import { isRetryableOpenAIStatus, parseOpenAIErrorBody } from "./parse-openai-error.js";
import { readOpenAIChatStream } from "./read-openai-chat-stream.js";

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
  extraBody?: Record<string, unknown> | undefined;
}

/**
 * A model served by the OpenAI Chat Completions API (`POST {baseURL}/chat/completions`), or by any
 * OpenAI-compatible server. Create it with `createOpenAI()(modelId)`.
 */
export class OpenAIChatModel implements Model {
  /** Provider name ("openai" unless `createOpenAI({ name })` says otherwise). */
  readonly provider: string;
  /** The model id sent as `model`. */
  readonly modelId: string;
  private readonly config: OpenAIChatModelConfig;
  private readonly url: string;
  /** True when the endpoint is OpenAI's own API, which always needs a key. */
  private readonly needsKey: boolean;

  /** Prefer `createOpenAI()(modelId)`, which validates its options. */
  constructor(modelId: string, config: OpenAIChatModelConfig) {
    this.modelId = modelId;
    this.provider = config.name;
    this.config = config;
    this.url = `${config.baseURL}/chat/completions`;
    this.needsKey = new URL(config.baseURL).hostname === "api.openai.com";
  }

  /** Sends one non-streaming request (retrying transient failures) and returns the parsed answer. */
  async generate(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
    const { url } = this;
    return sendModelRequest({
      ...this.sendOptions({ request, options, stream: false }),
      read: async (response) => parseOpenAIChatCompletion(await response.text(), url),
    });
  }

  /**
   * Streams one request. The request is sent when iteration starts; failures before the response headers are
   * retried, later ones throw (see `readOpenAIChatStream`). Stopping the iteration early releases the
   * connection.
   */
  async *stream(
    request: ModelRequest,
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamPart, void, undefined> {
    const { url } = this;
    const open = await openModelStream(this.sendOptions({ request, options, stream: true }));
    try {
      yield* readOpenAIChatStream(open.body, url);
    } finally {
      open.dispose();
    }
  }

  /** What both modes send: the body, headers, retry policy, timeout and the OpenAI error mapping. */
  private sendOptions({
    request,
    options,
    stream,
  }: {
    request: ModelRequest;
    options: ModelCallOptions;
    stream: boolean;
  }): SendModelRequestOptions {
    const { config } = this;
    return {
      client: config.client,
      url: this.url,
      headers: this.headers(stream),
      body: buildOpenAIChatBody({ modelId: this.modelId, request, extraBody: config.extraBody, stream }),
      retry: config.retry,
      timeoutMs: config.timeoutMs,
      signal: options.signal,
      onRetry: options.onRetry,
      parseErrorBody: parseOpenAIErrorBody,
      isRetryable: isRetryableOpenAIStatus,
    };
  }

  private headers(stream: boolean): Record<string, string> {
    const key = this.config.apiKey();
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
    };
    if (key !== undefined && key !== "") {
      headers.authorization = `Bearer ${key}`;
    } else if (this.needsKey && this.config.headers.authorization === undefined) {
      throw new ModelCallError({
        message:
          `No OpenAI API key: set the OPENAI_API_KEY environment variable or pass { apiKey } to createOpenAI() ` +
          `(requests to ${this.url} need one)`,
        isRetryable: false,
        code: "missing_api_key",
        url: this.url,
      });
    }
    return Object.assign(headers, this.config.headers);
  }
}
