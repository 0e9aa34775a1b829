import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { createFetchHttpClient, getDefaultHttpClient } from "../../http/http-client.js";
import { type ResponseLimits, resolveResponseLimits } from "../../http/response-limits.js";
import { type RetryPolicy, resolveRetryPolicy } from "../../http/retry-policy.js";
import { environment, readEnv } from "../../util/read-env.js";
import { resolveHeaders, resolveTimeout } from "../openai/create-openai.js";
import { isRetryableOpenAIStatus } from "../openai/is-retryable-openai-status.js";
import { OpenAIChatModel, type OpenAIChatModelConfig } from "../openai/openai-chat-model.js";
import { resolveAzureOpenAIRoute } from "./azure-openai-route.js";
import { compatibleBodyEditor } from "./compatible-body-editor.js";
import { compatibleRequestHeaders } from "./compatible-request-headers.js";
import { withMistralToolCallIds } from "./mistral-tool-call-ids.js";
import {
  isOpenAICompatiblePreset,
  OPENAI_COMPATIBLE_PRESET_NAMES,
  OPENAI_COMPATIBLE_PRESETS,
  type OpenAICompatiblePreset,
  type OpenAICompatiblePresetName,
  presetKey,
  presetKeyRequired,
  presetStructuredOutput,
} from "./openai-compatible-presets.js";
import type { OpenAICompatibleQuirks } from "./openai-compatible-quirks.js";

/** Options of {@link createOpenAICompatible}. */
export interface OpenAICompatibleProviderOptions {
  /** The service: `azure`, `openrouter`, `deepseek`, `groq`, `mistral`, `together`, `fireworks`, `xai`, `ollama`, `vllm`, `lmstudio` or `llamacpp`. */
  preset: OpenAICompatiblePresetName;
  /**
   * Base URL (requests go to `{baseURL}/chat/completions`). Default: the preset's variable (e.g.
   * `DEEPSEEK_BASE_URL`), else its URL (docs/models.md, "Providers at a glance"). Azure: the resource endpoint
   * `https://<resource>.openai.azure.com`, default `AZURE_OPENAI_ENDPOINT`.
   */
  baseURL?: string;
  /**
   * API key. Default: the preset's key variable (e.g. `DEEPSEEK_API_KEY`), read when a request is made. Sent as
   * `Authorization: Bearer <key>` (Azure: `api-key: <key>`). A hosted service called without one fails with a
   * `ModelCallError` (code `missing_api_key`) naming the variable; local servers need none.
   */
  apiKey?: string;
  /** Extra request headers. They override the preset's own headers. */
  headers?: Record<string, string>;
  /** A `fetch` implementation to send requests with. Default: the shared keep-alive `node:http` client. */
  fetch?: typeof globalThis.fetch;
  /** Retry policy of failed requests (merged with `DEFAULT_RETRY_POLICY`). */
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout in milliseconds, as for `createOpenAI`. Default 120 000. */
  timeoutMs?: number;
  /** Bounds on what the server may send, as for `createOpenAI`. */
  limits?: Partial<ResponseLimits>;
  /** Fields merged into every request body (before each request's `providerOptions`; rejected fields are still removed). */
  extraBody?: Record<string, unknown>;
  /** Provider name reported as `model.provider`. Default: the preset's name. */
  name?: string;
  /**
   * Whether typed answers use `response_format` json_schema (`capabilities.structuredOutput`). Default: what the
   * preset's server honours (docs/models.md); false asks for the answer through a tool call instead.
   */
  structuredOutput?: boolean;
  /** Azure: the resource name, for the endpoint `https://<resourceName>.openai.azure.com`. */
  resourceName?: string;
  /**
   * Azure: the `api-version`. Default `AZURE_OPENAI_API_VERSION`, else none: the v1 API
   * (`/openai/v1/chat/completions`). A dated version (`2024-10-21`) uses the deployment route.
   */
  apiVersion?: string;
  /**
   * Azure: a Microsoft Entra ID token (or a function returning the current one, called per request), sent as
   * `Authorization: Bearer <token>` instead of the key. Default `AZURE_OPENAI_AD_TOKEN`.
   */
  entraToken?: string | (() => string | undefined);
}

/** Makes the Chat Completions models of one OpenAI-compatible service: `provider("model-id")`. */
export interface OpenAICompatibleProvider {
  /** A Chat Completions model (Azure: the deployment name). */
  (modelId: string): OpenAIChatModel;
  /** A Chat Completions model (alias of calling the provider). */
  chat(modelId: string): OpenAIChatModel;
  /** The preset's name. */
  readonly preset: OpenAICompatiblePresetName;
}

const AZURE_ONLY = ["resourceName", "apiVersion", "entraToken"] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Checks an http(s) URL and drops trailing slashes; `argument` names the option or variable it came from. */
function checkURL(value: string, argument: string): string {
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

function checkOptionalString(
  options: OpenAICompatibleProviderOptions,
  key: "apiKey" | "name" | "resourceName" | "apiVersion",
): void {
  const value = options[key];
  // An empty key means "none" (local servers), as for createOpenAI.
  if (value !== undefined && (typeof value !== "string" || (value === "" && key !== "apiKey"))) {
    throw new InvalidArgumentError({ argument: key, message: "expected a non-empty string" });
  }
}

/** Checks the options that are not the preset's. */
function checkOptions(options: OpenAICompatibleProviderOptions): void {
  for (const key of ["apiKey", "name", "resourceName", "apiVersion"] as const)
    checkOptionalString(options, key);
  const { fetch: fetchImpl, extraBody, structuredOutput, entraToken } = options;
  if (fetchImpl !== undefined && typeof fetchImpl !== "function") {
    throw new InvalidArgumentError({ argument: "fetch", message: "expected a fetch function" });
  }
  if (extraBody !== undefined && !isPlainObject(extraBody)) {
    throw new InvalidArgumentError({ argument: "extraBody", message: "expected an object" });
  }
  if (structuredOutput !== undefined && typeof structuredOutput !== "boolean") {
    throw new InvalidArgumentError({ argument: "structuredOutput", message: "expected a boolean" });
  }
  if (entraToken !== undefined && typeof entraToken !== "string" && typeof entraToken !== "function") {
    throw new InvalidArgumentError({ argument: "entraToken", message: "expected a string or a function" });
  }
  if (options.preset !== "azure") {
    const given = AZURE_ONLY.find((key) => options[key] !== undefined);
    if (given !== undefined) {
      throw new InvalidArgumentError({
        argument: given,
        message: `is an Azure option (preset "${options.preset}")`,
      });
    }
  }
}

/** The preset's base URL: the option, else its variable, else its default. */
function presetBaseURL(preset: OpenAICompatiblePreset, given: string | undefined): string {
  if (given !== undefined) return checkURL(given, "baseURL");
  const fromEnv = readEnv(preset.baseURLVariable);
  if (fromEnv !== undefined && fromEnv !== "") return checkURL(fromEnv, preset.baseURLVariable);
  return preset.baseURL;
}

/** Azure's resource endpoint: `baseURL`, `resourceName`, `AZURE_OPENAI_ENDPOINT`, `AZURE_OPENAI_RESOURCE_NAME`. */
function azureEndpoint(options: OpenAICompatibleProviderOptions): string {
  if (options.baseURL !== undefined) return checkURL(options.baseURL, "baseURL");
  const name = options.resourceName ?? nonEmpty(readEnv("AZURE_OPENAI_RESOURCE_NAME"));
  const fromEnv = nonEmpty(readEnv("AZURE_OPENAI_ENDPOINT"));
  if (options.resourceName === undefined && fromEnv !== undefined)
    return checkURL(fromEnv, "AZURE_OPENAI_ENDPOINT");
  if (name !== undefined) {
    if (!/^[a-z0-9][a-z0-9-]*$/i.test(name)) {
      throw new InvalidArgumentError({
        argument: "resourceName",
        message: `expected a resource name, got "${name}"`,
      });
    }
    return `https://${name}.openai.azure.com`;
  }
  throw new InvalidArgumentError({
    argument: "baseURL",
    message:
      "Azure OpenAI needs its resource endpoint: set AZURE_OPENAI_ENDPOINT (https://<resource>.openai.azure.com) " +
      "or pass { baseURL } or { resourceName }",
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** The isRetryable quirk: OpenAI's rule, plus the preset's retryable error codes. */
function retryableWith(codes: readonly string[] | undefined): OpenAICompatibleQuirks["isRetryable"] {
  if (codes === undefined || codes.length === 0) return undefined;
  const set = new Set(codes);
  return (status, info) =>
    (info.code !== undefined && set.has(info.code)) || isRetryableOpenAIStatus(status, info);
}

/** The base URL and quirks of a preset (Azure: its route by API version, the `api-key` header, Entra tokens). */
function presetEndpoint(
  name: OpenAICompatiblePresetName,
  options: OpenAICompatibleProviderOptions,
): { baseURL: string; quirks: OpenAICompatibleQuirks } {
  const preset = OPENAI_COMPATIBLE_PRESETS[name];
  const headerOptions = { label: preset.label, keyVariables: preset.keyVariables };
  const quirks: OpenAICompatibleQuirks = {
    editRequest: preset.toolCallIds === "mistral" ? withMistralToolCallIds : undefined,
    isRetryable: retryableWith(preset.retryableCodes),
  };
  if (name !== "azure") {
    const baseURL = presetBaseURL(preset, options.baseURL);
    quirks.editBody = compatibleBodyEditor(preset);
    quirks.requestHeaders = compatibleRequestHeaders({
      ...headerOptions,
      auth: "bearer",
      keyRequired: presetKeyRequired({ preset: name, baseURL }),
      headerVariables: preset.headerVariables,
    });
    return { baseURL, quirks };
  }
  const baseURL = azureEndpoint(options);
  const route = resolveAzureOpenAIRoute({
    endpoint: baseURL,
    apiVersion: options.apiVersion ?? nonEmpty(readEnv("AZURE_OPENAI_API_VERSION")),
  });
  const { entraToken } = options;
  quirks.chatURL = route.chatURL;
  quirks.editBody = compatibleBodyEditor(route.edits);
  quirks.requestHeaders = compatibleRequestHeaders({
    ...headerOptions,
    keyVariables: [...preset.keyVariables, "AZURE_OPENAI_AD_TOKEN"],
    auth: "api-key",
    keyRequired: presetKeyRequired({ preset: name, baseURL }),
    bearerToken:
      typeof entraToken === "function"
        ? entraToken
        : () => entraToken ?? nonEmpty(readEnv("AZURE_OPENAI_AD_TOKEN")),
  });
  return { baseURL, quirks };
}

/**
 * Creates a provider for an OpenAI-compatible service by preset: Azure OpenAI, OpenRouter, DeepSeek, Groq,
 * Mistral, Together AI, Fireworks, xAI, Ollama, vLLM, LM Studio or the llama.cpp server. Each preset knows the
 * service's base URL, key variable and what its server does differently (fields it rejects are not sent,
 * Azure's URL and `api-key` header, typed-answer support, errors worth retrying); the models are OpenAI Chat
 * models with every guarantee of `createOpenAI` (retries, timeouts, reasoning, tool-call streaming, usage).
 * The same models come from the model strings `"deepseek:deepseek-chat"`, `"azure:<deployment>"`, …
 * Options are validated here ({@link InvalidArgumentError}); the key is read when a request is made.
 *
 * @example
 * const deepseek = createOpenAICompatible({ preset: "deepseek" }); // DEEPSEEK_API_KEY
 * const agent = new Agent({ model: deepseek("deepseek-chat") });
 * const azure = createOpenAICompatible({ preset: "azure", resourceName: "my-resource" })("my-gpt-4o");
 * const local = createOpenAICompatible({ preset: "ollama" })("llama3.2"); // http://localhost:11434/v1
 */
export function createOpenAICompatible(options: OpenAICompatibleProviderOptions): OpenAICompatibleProvider {
  if (!isPlainObject(options as unknown)) {
    throw new InvalidArgumentError({ argument: "options", message: "expected an object with a preset" });
  }
  const name: unknown = options.preset;
  if (typeof name !== "string" || !isOpenAICompatiblePreset(name)) {
    throw new InvalidArgumentError({
      argument: "preset",
      message: `expected one of ${OPENAI_COMPATIBLE_PRESET_NAMES.join(", ")}, got ${JSON.stringify(name)}`,
    });
  }
  checkOptions(options);
  const preset = OPENAI_COMPATIBLE_PRESETS[name];
  const { baseURL, quirks } = presetEndpoint(name, options);
  const { apiKey, fetch: fetchImpl } = options;
  const config: OpenAIChatModelConfig = {
    name: options.name ?? name,
    baseURL,
    apiKey: apiKey !== undefined ? () => apiKey : () => presetKey(preset, environment()),
    headers: resolveHeaders(options.headers),
    client: fetchImpl !== undefined ? createFetchHttpClient(fetchImpl) : getDefaultHttpClient(),
    retry: resolveRetryPolicy(options.retry),
    timeoutMs: resolveTimeout(options.timeoutMs),
    limits: resolveResponseLimits(options.limits),
    extraBody: options.extraBody,
    quirks,
  };
  const chat = (modelId: string): OpenAIChatModel => {
    if (typeof modelId !== "string" || modelId.trim() === "") {
      throw new InvalidArgumentError({
        argument: "modelId",
        message: "expected a non-empty model id string",
      });
    }
    const structuredOutput = options.structuredOutput ?? presetStructuredOutput(preset, modelId);
    return new OpenAIChatModel(modelId, { ...config, structuredOutput });
  };
  const provider = ((modelId: string) => chat(modelId)) as OpenAICompatibleProvider;
  provider.chat = chat;
  Object.defineProperty(provider, "preset", { value: name, enumerable: true });
  return provider;
}
