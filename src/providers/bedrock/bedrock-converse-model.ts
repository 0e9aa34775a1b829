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

/** The resolved, validated settings a {@link BedrockConverseModel} runs with (built by `createBedrock`). */
export interface BedrockConverseModelConfig {
  /** The endpoint without a trailing slash; undefined: `https://bedrock-runtime.{region}.amazonaws.com`. */
  baseURL: string | undefined;
  /** The region at call time (the option, else `AWS_REGION`, else `AWS_DEFAULT_REGION`). */
  region: () => string | undefined;
  /** Extra request headers, keys lower-cased. They override the provider's own headers. */
  headers: Readonly<Record<string, string>>;
  /** The transport, wrapped so that it authorises every attempt (see `createBedrockAuthClient`). */
  client: HttpClient;
  retry: RetryPolicy;
  timeoutMs: number;
  /** Bounds on what the server may send. Default `DEFAULT_RESPONSE_LIMITS`. */
  limits?: ResponseLimits | undefined;
  extraBody?: Record<string, unknown> | undefined;
  /** Whether the model takes `ModelRequest.output` natively (`outputConfig.textFormat`). */
  structuredOutput: boolean;
  /** Whether `cachePoint` blocks go after the tools, the system prompt and the last message. */
  promptCaching: boolean;
}

/** The two endpoints of one base URL, as requests use them and as messages print them. */
interface Endpoints {
  base: string;
  converse: string;
  stream: string;
  shown: string;
}

/** Request body, parsing and stream reading of every {@link BedrockConverseModel}, loaded by the first call. */
const codec = new LazyImplementation({
  what: "the Amazon Bedrock provider",
  load: () => import("./bedrock-codec.js"),
});

/**
 * A model served by Amazon Bedrock's Converse API (`POST {endpoint}/model/{modelId}/converse`, and
 * `/converse-stream` for streaming, whose body is an AWS event stream). Create it with
 * `createBedrock()(modelId)`.
 */
export class BedrockConverseModel extends LazyHttpModel<typeof import("./bedrock-codec.js")> {
  /** Always "bedrock". */
  readonly provider = "bedrock";
  /**
   * The model id, inference profile id or ARN, e.g. "us.anthropic.claude-sonnet-4-5-20250929-v1:0"; it is
   * URL-encoded into the path.
   */
  readonly modelId: string;
  /** `structuredOutput`: `request.output` goes out as `outputConfig.textFormat` (`createBedrock` option). */
  readonly capabilities: ModelCapabilities;
  private readonly config: BedrockConverseModelConfig;
  private readonly limits: ResponseLimits;
  private readonly path: string;
  /** The endpoints of the base URL last used (the region may change between calls). */
  private endpoints: Endpoints | undefined;

  /** Prefer `createBedrock()(modelId)`, which validates its options. */
  constructor(modelId: string, config: BedrockConverseModelConfig) {
    super(codec);
    this.modelId = modelId;
    this.config = config;
    this.capabilities = { structuredOutput: config.structuredOutput };
    this.limits = config.limits ?? DEFAULT_RESPONSE_LIMITS;
    this.path = `/model/${encodeURIComponent(modelId)}`;
  }

  /** The provider's retry policy: what an agent without a `retry` option retries this model's calls with. */
  get retryPolicy(): RetryPolicy {
    return this.config.retry;
  }

  protected parseResponse(text: string): ModelResponse {
    return this.implementation.value.parseBedrockResponse(text, this.endpoints?.shown ?? this.path);
  }

  protected readStream(body: AsyncIterable<string>): AsyncIterable<ModelStreamPart> {
    return this.implementation.value.readBedrockStream(body, this.endpoints?.shown ?? this.path, this.limits);
  }

  /** The endpoints at call time: the configured base URL, else the region's. */
  private resolveEndpoints(): Endpoints {
    let base = this.config.baseURL;
    if (base === undefined) {
      const region = this.config.region();
      if (region === undefined || region === "") {
        throw new ModelCallError({
          message:
            "No AWS region for Bedrock: set AWS_REGION (or AWS_DEFAULT_REGION), or pass { region } to " +
            "createBedrock()",
          isRetryable: false,
          code: "missing_region",
        });
      }
      base = `https://bedrock-runtime.${region}.amazonaws.com`;
    }
    if (this.endpoints?.base !== base) {
      const converse = `${base}${this.path}/converse`;
      this.endpoints = {
        base,
        converse,
        stream: `${converse}-stream`,
        shown: displayUrl(`${base}${this.path}`),
      };
    }
    return this.endpoints;
  }

  /** What both modes send: the body, headers, retry policy, timeout and the Bedrock error mapping. */
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
    const { buildBedrockBody, parseBedrockErrorBody, isRetryableBedrockStatus } = this.implementation.value;
    const endpoints = this.resolveEndpoints();
    return {
      client: config.client,
      url: stream ? endpoints.stream : endpoints.converse,
      // Only the content type, as the AWS SDKs send it (the stream's content type is the answer's choice).
      headers: { "content-type": "application/json", ...config.headers },
      body: buildBedrockBody({ request, extraBody: config.extraBody, promptCaching: config.promptCaching }),
      retry: config.retry,
      timeoutMs: config.timeoutMs,
      limits: this.limits,
      signal: options.signal,
      onRetry: options.onRetry,
      parseErrorBody: parseBedrockErrorBody,
      isRetryable: isRetryableBedrockStatus,
      binary: stream,
    };
  }
}
