import { ModelCallError } from "../../errors/model-call-error.js";
import {
  openModelStream,
  type SendModelRequestOptions,
  sendModelRequest,
} from "../../http/send-model-request.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import type { OpenAIChatModelConfig } from "../openai/openai-chat-model.js";
import { isRetryableOpenAIStatus, parseOpenAIErrorBody } from "../openai/parse-openai-error.js";
import { buildOpenAIResponsesBody } from "./build-openai-responses-body.js";
import { parseOpenAIResponse } from "./parse-openai-response.js";
import { readOpenAIResponsesStream } from "./read-openai-responses-stream.js";

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
export class OpenAIResponsesModel implements Model {
  /** Provider name ("openai" unless `createOpenAI({ name })` says otherwise). */
  readonly provider: string;
  /** The model id sent as `model`. */
  readonly modelId: string;
  private readonly config: OpenAIResponsesModelConfig;
  private readonly url: string;
  /** True when the endpoint is OpenAI's own API, which always needs a key. */
  private readonly needsKey: boolean;

  /** Prefer `createOpenAI().responses(modelId)`, which validates its options. */
  constructor({ modelId, config }: OpenAIResponsesModelOptions) {
    this.modelId = modelId;
    this.provider = config.name;
    this.config = config;
    this.url = `${config.baseURL}/responses`;
    this.needsKey = new URL(config.baseURL).hostname === "api.openai.com";
  }

  /** Sends one non-streaming request (retrying transient failures) and returns the parsed answer. */
  async generate(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
    const { url } = this;
    return sendModelRequest({
      ...this.sendOptions({ request, options, stream: false }),
      read: async (response) => parseOpenAIResponse({ text: await response.text(), url }),
    });
  }

  /**
   * Streams one request. The request is sent when iteration starts; failures before the response headers are
   * retried, later ones throw (see `readOpenAIResponsesStream`). Stopping the iteration early releases the
   * connection.
   */
  async *stream(
    request: ModelRequest,
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamPart, void, undefined> {
    const { url } = this;
    const open = await openModelStream(this.sendOptions({ request, options, stream: true }));
    try {
      yield* readOpenAIResponsesStream({ body: open.body, url });
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
      body: buildOpenAIResponsesBody({ modelId: this.modelId, request, extraBody: config.extraBody, stream }),
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
