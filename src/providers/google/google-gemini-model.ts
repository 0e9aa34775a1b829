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
import type { GoogleWireSafetySetting, GoogleWireThinkingConfig } from "./google-wire-types.js";

/** The resolved, validated settings a {@link GoogleGeminiModel} runs with (built by `createGoogle`). */
export interface GoogleGeminiModelConfig {
  /** Base URL without a trailing slash, e.g. `https://generativelanguage.googleapis.com/v1beta`. */
  baseURL: string;
  /** Returns the API key at call time (undefined or "" → no `x-goog-api-key` header). */
  apiKey: () => string | undefined;
  /** Extra request headers, keys lower-cased. They override the provider's own headers. */
  headers: Readonly<Record<string, string>>;
  client: HttpClient;
  retry: RetryPolicy;
  timeoutMs: number;
  /** Bounds on what the server may send. Default `DEFAULT_RESPONSE_LIMITS`. */
  limits?: ResponseLimits | undefined;
  extraBody?: Record<string, unknown> | undefined;
  /** `generationConfig.thinkingConfig` of every request. */
  thinkingConfig?: GoogleWireThinkingConfig | undefined;
  /** `safetySettings` of every request. */
  safetySettings?: readonly GoogleWireSafetySetting[] | undefined;
  /**
   * Whether the model takes `ModelRequest.output` natively. Undefined: Gemini 3 and later (and ids this provider
   * does not recognise) do, Gemini 1.x and 2.x do not (they refuse a JSON answer together with function calling).
   */
  structuredOutput?: boolean | undefined;
}

/** True for `gemini-1…` and `gemini-2…` ids, which cannot combine `responseMimeType` JSON with tools. */
function isBeforeGemini3(modelId: string): boolean {
  return /(?:^|\/)gemini-[12](?:[.-]|$)/.test(modelId);
}

/** The resource path of a model id: `models/<id>`, or the id itself when it names one (`tunedModels/x`). */
function modelPath(modelId: string): string {
  const path = modelId.includes("/") ? modelId : `models/${modelId}`;
  return path.split("/").map(encodeURIComponent).join("/");
}

/** Request body, parsing and stream reading of every {@link GoogleGeminiModel}, loaded by the first call. */
const codec = new LazyImplementation({
  what: "the Google Gemini provider",
  load: () => import("./google-codec.js"),
});

/**
 * A Gemini model served by the Gemini API (`POST {baseURL}/models/{model}:generateContent`, and
 * `:streamGenerateContent?alt=sse` for streams). Create it with `createGoogle()(modelId)`.
 */
export class GoogleGeminiModel extends LazyHttpModel<typeof import("./google-codec.js")> {
  /** Always "google". */
  readonly provider = "google";
  /** The model id, e.g. "gemini-2.5-flash". */
  readonly modelId: string;
  /** `structuredOutput`: `request.output` goes out as `responseJsonSchema` (see the config). */
  readonly capabilities: ModelCapabilities;
  private readonly config: GoogleGeminiModelConfig;
  /** The two endpoints as requests use them (credentials included, if the base URL has any). */
  private readonly urls: { generate: string; stream: string };
  /** The two endpoints as messages print them (no credentials). */
  private readonly shownUrl: string;
  private readonly shownStreamUrl: string;
  private readonly limits: ResponseLimits;
  /** True when the endpoint is Google's own API, which always needs a key. */
  private readonly needsKey: boolean;

  /** Prefer `createGoogle()(modelId)`, which validates its options. */
  constructor(modelId: string, config: GoogleGeminiModelConfig) {
    super(codec);
    this.modelId = modelId;
    this.config = config;
    this.capabilities = { structuredOutput: config.structuredOutput ?? !isBeforeGemini3(modelId) };
    const base = `${config.baseURL}/${modelPath(modelId)}`;
    this.urls = { generate: `${base}:generateContent`, stream: `${base}:streamGenerateContent?alt=sse` };
    this.shownUrl = displayUrl(this.urls.generate);
    this.shownStreamUrl = displayUrl(this.urls.stream);
    this.limits = config.limits ?? DEFAULT_RESPONSE_LIMITS;
    this.needsKey = new URL(config.baseURL).hostname === "generativelanguage.googleapis.com";
  }

  /** The provider's retry policy: what an agent without a `retry` option retries this model's calls with. */
  get retryPolicy(): RetryPolicy {
    return this.config.retry;
  }

  protected parseResponse(text: string): ModelResponse {
    return this.implementation.value.parseGoogleResponse({ text, url: this.shownUrl });
  }

  protected readStream(body: AsyncIterable<string>): AsyncIterable<ModelStreamPart> {
    return this.implementation.value.readGoogleStream(body, this.shownStreamUrl, this.limits);
  }

  /** What both modes send: the body, headers, retry policy, timeout and the Google error mapping. */
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
    const { buildGoogleBody, parseGoogleErrorBody, isRetryableGoogleStatus } = this.implementation.value;
    return {
      client: config.client,
      url: stream ? this.urls.stream : this.urls.generate,
      headers: this.headers(stream),
      body: buildGoogleBody({
        modelId: this.modelId,
        request,
        thinkingConfig: config.thinkingConfig,
        safetySettings: config.safetySettings,
        extraBody: config.extraBody,
      }),
      retry: config.retry,
      timeoutMs: config.timeoutMs,
      limits: this.limits,
      signal: options.signal,
      onRetry: options.onRetry,
      parseErrorBody: parseGoogleErrorBody,
      isRetryable: isRetryableGoogleStatus,
    };
  }

  private headers(stream: boolean): Record<string, string> {
    const key = this.config.apiKey();
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
    };
    const custom = this.config.headers;
    if (key !== undefined && key !== "") {
      headers["x-goog-api-key"] = key;
    } else if (
      this.needsKey &&
      custom["x-goog-api-key"] === undefined &&
      custom.authorization === undefined
    ) {
      throw new ModelCallError({
        message:
          "No Gemini API key: set the GOOGLE_GENERATIVE_AI_API_KEY (or GEMINI_API_KEY) environment variable or " +
          `pass { apiKey } to createGoogle() (requests to ${this.shownUrl} need one)`,
        isRetryable: false,
        code: "missing_api_key",
        url: this.shownUrl,
      });
    }
    return Object.assign(headers, custom);
  }
}
