import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { createFetchHttpClient, getDefaultHttpClient } from "../../http/http-client.js";
import { resolveResponseLimits } from "../../http/response-limits.js";
import { resolveRetryPolicy } from "../../http/retry-policy.js";
import { readEnv } from "../../util/read-env.js";
import type { HttpProviderOptions } from "../http-provider-options.js";
import { type BedrockCredentialsSource, createBedrockAuthClient } from "./bedrock-auth.js";
import { BedrockConverseModel } from "./bedrock-converse-model.js";

/** Options of {@link createBedrock}. */
export interface BedrockProviderOptions extends HttpProviderOptions {
  /**
   * The AWS region, e.g. "us-east-1". Default: `AWS_REGION`, else `AWS_DEFAULT_REGION`, read when a request
   * is made. It picks the endpoint (`https://bedrock-runtime.{region}.amazonaws.com`) and signs requests.
   */
  region?: string;
  /**
   * AWS credentials for SigV4 signing: `{ accessKeyId, secretAccessKey, sessionToken? }`, or a function
   * returning them (called before every request attempt; an AWS SDK credential provider such as
   * `fromNodeProviderChain()` fits and caches by itself). Default: `AWS_ACCESS_KEY_ID`,
   * `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, read when a request is made.
   */
  credentials?: BedrockCredentialsSource;
  /**
   * A Bedrock API key, sent as `Authorization: Bearer <key>` instead of a signature. Default:
   * `AWS_BEARER_TOKEN_BEDROCK` (read when a request is made). Order: `apiKey`, `credentials`,
   * `AWS_BEARER_TOKEN_BEDROCK`, then the access-key variables.
   */
  apiKey?: string;
  /**
   * The endpoint, e.g. a VPC endpoint or a local test server. Default: `AWS_ENDPOINT_URL_BEDROCK_RUNTIME`,
   * else `AWS_ENDPOINT_URL` (the AWS SDKs' variables), else the region's endpoint.
   */
  baseURL?: string;
  /**
   * Fields merged into every request body (before each request's `providerOptions`; `inferenceConfig` and
   * `additionalModelRequestFields` are merged field by field), e.g. `{ additionalModelRequestFields:
   * { thinking: { type: "enabled", budget_tokens: 2048 } } }` for Claude's extended thinking.
   */
  extraBody?: Record<string, unknown>;
  /**
   * Whether the models answer in JSON natively when asked for a typed answer (`Agent({ output })`), through
   * `outputConfig.textFormat`. Default false: not every Bedrock model supports structured outputs, so the
   * agent asks for the answer through a tool call. Set it to true for models that do (Claude 4.5 and later).
   */
  structuredOutput?: boolean;
  /**
   * Prompt caching. `"auto"` puts a `cachePoint` after the tool definitions, after the system prompt and at
   * the end of the conversation (it moves forward each turn), for models that support prompt caching (Claude,
   * Nova); `"off"` (the default) sends none.
   */
  promptCaching?: "auto" | "off";
}

/** Makes Bedrock Converse models: `bedrock("us.anthropic.claude-sonnet-4-5-20250929-v1:0")`. */
export type BedrockProvider = (modelId: string) => BedrockConverseModel;

/** The default per-attempt timeout of Bedrock requests (ms). */
export const DEFAULT_BEDROCK_TIMEOUT_MS = 120_000;

/** The longest timeout `setTimeout` honours (larger values fire after 1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function invalid(argument: string, message: string, cause?: unknown): InvalidArgumentError {
  return new InvalidArgumentError({ argument, message, cause });
}

function resolveBaseURL(given: string | undefined): string | undefined {
  const serviceEnv = readEnv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME") || undefined;
  const globalEnv = readEnv("AWS_ENDPOINT_URL") || undefined;
  const value = given ?? serviceEnv ?? globalEnv;
  if (value === undefined) return undefined;
  const argument =
    given !== undefined
      ? "baseURL"
      : serviceEnv !== undefined
        ? "AWS_ENDPOINT_URL_BEDROCK_RUNTIME"
        : "AWS_ENDPOINT_URL";
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

function resolveTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_BEDROCK_TIMEOUT_MS;
  const ok = typeof value === "number" && Number.isInteger(value) && value > 0 && value <= MAX_TIMEOUT_MS;
  if (!ok)
    throw invalid("timeoutMs", `expected an integer > 0 and <= ${MAX_TIMEOUT_MS}, got ${String(value)}`);
  return value;
}

function checkCredentialsOption(credentials: unknown): void {
  if (credentials === undefined || typeof credentials === "function") return;
  const ok =
    isPlainObject(credentials) &&
    typeof credentials.accessKeyId === "string" &&
    typeof credentials.secretAccessKey === "string" &&
    (credentials.sessionToken === undefined || typeof credentials.sessionToken === "string");
  if (!ok) {
    throw invalid(
      "credentials",
      "expected { accessKeyId, secretAccessKey, sessionToken? } or a function returning it",
    );
  }
}

function checkOptions(options: BedrockProviderOptions): void {
  const { region, apiKey, fetch: fetchImpl, extraBody, structuredOutput, promptCaching } = options;
  if (region !== undefined && (typeof region !== "string" || !/^[a-z0-9-]+$/.test(region))) {
    throw invalid("region", `expected a region name such as "us-east-1", got ${JSON.stringify(region)}`);
  }
  if (apiKey !== undefined && typeof apiKey !== "string") throw invalid("apiKey", "expected a string");
  checkCredentialsOption(options.credentials);
  if (fetchImpl !== undefined && typeof fetchImpl !== "function")
    throw invalid("fetch", "expected a fetch function");
  if (extraBody !== undefined && !isPlainObject(extraBody)) throw invalid("extraBody", "expected an object");
  if (structuredOutput !== undefined && typeof structuredOutput !== "boolean") {
    throw invalid("structuredOutput", "expected a boolean");
  }
  if (promptCaching !== undefined && promptCaching !== "auto" && promptCaching !== "off") {
    throw invalid("promptCaching", `expected "auto" or "off", got ${JSON.stringify(promptCaching)}`);
  }
}

/** True for AWS's own endpoints, which refuse requests without credentials. */
function isAwsEndpoint(baseURL: string | undefined): boolean {
  if (baseURL === undefined) return true;
  const host = new URL(baseURL).hostname;
  return host.endsWith(".amazonaws.com") || host.endsWith(".amazonaws.com.cn");
}

/**
 * Creates an Amazon Bedrock provider: a function from a model id (or inference profile id, or ARN) to a
 * {@link BedrockConverseModel} speaking the Converse API. Options are validated here (an invalid one throws
 * {@link InvalidArgumentError}); the region and credentials are read when a request is made, so a provider
 * can be created before the environment is set.
 *
 * @example
 * const bedrock = createBedrock({ region: "us-east-1" });
 * const model = bedrock("us.anthropic.claude-sonnet-4-5-20250929-v1:0");
 * const thinking = createBedrock({
 *   extraBody: { additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 2048 } } },
 * });
 */
export function createBedrock(options: BedrockProviderOptions = {}): BedrockProvider {
  if (!isPlainObject(options as unknown)) throw invalid("options", "expected an object");
  checkOptions(options);
  const baseURL = resolveBaseURL(options.baseURL);
  const headers = resolveHeaders(options.headers);
  const given = options.region;
  const region = (): string | undefined =>
    given ?? (readEnv("AWS_REGION") || undefined) ?? (readEnv("AWS_DEFAULT_REGION") || undefined);
  const transport =
    options.fetch !== undefined ? createFetchHttpClient(options.fetch) : getDefaultHttpClient();
  const config = {
    baseURL,
    region,
    headers,
    client: createBedrockAuthClient({
      client: transport,
      auth: {
        apiKey: options.apiKey,
        credentials: options.credentials,
        region,
        needsCredentials: isAwsEndpoint(baseURL),
        headers,
      },
    }),
    retry: resolveRetryPolicy(options.retry),
    limits: resolveResponseLimits(options.limits),
    timeoutMs: resolveTimeout(options.timeoutMs),
    extraBody: options.extraBody,
    structuredOutput: options.structuredOutput ?? false,
    promptCaching: options.promptCaching === "auto",
  };
  return (modelId: string): BedrockConverseModel => {
    if (typeof modelId !== "string" || modelId.trim() === "") {
      throw invalid("modelId", "expected a non-empty model id string");
    }
    return new BedrockConverseModel(modelId, config);
  };
}
