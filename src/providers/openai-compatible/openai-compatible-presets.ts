/**
 * The OpenAI-compatible services agentloop knows by name: where each lives, where its key is, and what it does
 * differently from OpenAI's Chat Completions API. `createOpenAICompatible({ preset })` and the model strings
 * `"<preset>:<model-id>"` read this table. What agentloop sends by default is `model`, `messages`, `tools`,
 * `tool_choice`, `parallel_tool_calls` (with tools), `temperature`, `max_tokens`, `response_format` (typed
 * answers, where the preset honours it) and, when streaming, `stream` and `stream_options.include_usage`; a
 * field a server rejects is removed here, never left to the user.
 *
 * Sources are given per row. Differences that need no preset (they are read the same way for every server,
 * see `read-openai-chat-stream.ts` and `map-openai-usage.ts`): usage in the finish chunk (DeepSeek, Mistral) or
 * under `x_groq.usage` (Groq), DeepSeek's `prompt_cache_hit_tokens`, xAI's reasoning tokens counted outside
 * `completion_tokens`, tool calls without `index` (Mistral) or with `id: ""` on continuations (Qwen), SSE
 * comment lines and in-stream `error` chunks (OpenRouter), numeric error codes (OpenRouter, llama.cpp).
 */

/** The names of the presets: also the model-string prefixes (`"deepseek:deepseek-chat"`). */
export type OpenAICompatiblePresetName =
  | "azure"
  | "openrouter"
  | "deepseek"
  | "groq"
  | "mistral"
  | "together"
  | "fireworks"
  | "xai"
  | "ollama"
  | "vllm"
  | "lmstudio"
  | "llamacpp";

/** One OpenAI-compatible service: its defaults and its differences from OpenAI. */
export interface OpenAICompatiblePreset {
  /** The service's name in messages ("DeepSeek"). */
  label: string;
  /**
   * The default base URL (requests go to `{baseURL}/chat/completions`). Azure: empty, the URL is made from the
   * resource (see `azure-openai-url.ts`).
   */
  baseURL: string;
  /** The environment variable that overrides the base URL. */
  baseURLVariable: string;
  /** The environment variables holding the API key, in order (the first one set is used). */
  keyVariables: readonly string[];
  /**
   * Hosted services need a key: a call to the default host without one fails before anything is sent, naming
   * the first key variable. Local servers (and a base URL pointed elsewhere) need none.
   */
  keyRequired: boolean;
  /** Default headers read from environment variables (header → variable), sent when the variable is set. */
  headerVariables?: Readonly<Record<string, string>>;
  /**
   * Whether the server honours `response_format` of type `json_schema` (`capabilities.structuredOutput`): true,
   * false, or the model ids that do. Where false, a typed answer is asked for through a tool call instead.
   */
  structuredOutput: boolean | RegExp;
  /** Body fields the server rejects: never sent. */
  dropFields?: readonly string[];
  /** Body fields the server knows under another name: sent under that name. */
  renameFields?: Readonly<Record<string, string>>;
  /** What `tool_choice: "required"` is sent as, where the server names it differently. */
  requiredToolChoice?: string;
  /** Error codes of a failed request that another attempt can fix (retried like a 5xx). */
  retryableCodes?: readonly string[];
  /** Tool-call ids the server accepts only in a fixed form: rewritten (see `mistral-tool-call-ids.ts`). */
  toolCallIds?: "mistral";
}

/** Every preset, by name. */
export const OPENAI_COMPATIBLE_PRESETS: Readonly<Record<OpenAICompatiblePresetName, OpenAICompatiblePreset>> =
  Object.freeze({
    // Azure OpenAI. Routes, api-version and auth: see azure-openai-url.ts and create-openai-compatible.ts.
    // learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle (the v1 API, GA since August 2025).
    azure: {
      label: "Azure OpenAI",
      baseURL: "",
      baseURLVariable: "AZURE_OPENAI_ENDPOINT",
      keyVariables: ["AZURE_OPENAI_API_KEY"],
      keyRequired: true,
      structuredOutput: true,
    },
    // openrouter.ai/docs: base URL, optional attribution headers HTTP-Referer / X-Title. Structured outputs
    // depend on the model it routes to (openrouter.ai/docs/structured-outputs: "compatible models"), so they
    // are off unless asked for. Reasoning (`reasoning`, `reasoning_details`) is read and sent back as is.
    openrouter: {
      label: "OpenRouter",
      baseURL: "https://openrouter.ai/api/v1",
      baseURLVariable: "OPENROUTER_BASE_URL",
      keyVariables: ["OPENROUTER_API_KEY"],
      keyRequired: true,
      headerVariables: { "http-referer": "OPENROUTER_SITE_URL", "x-title": "OPENROUTER_APP_NAME" },
      structuredOutput: false,
    },
    // api-docs.deepseek.com (Create Chat Completion): `response_format` takes only `text` / `json_object`, and
    // there is no `parallel_tool_calls` (deepseek-ai/DeepSeek-V3#883: "Can't find api to prevent" parallel
    // calls), so it is not sent. `stream_options.include_usage` is documented. Thinking mode needs
    // `reasoning_content` back on tool-call turns (handled for every server, openai-compatible-reasoning.ts).
    deepseek: {
      label: "DeepSeek",
      baseURL: "https://api.deepseek.com",
      baseURLVariable: "DEEPSEEK_BASE_URL",
      keyVariables: ["DEEPSEEK_API_KEY"],
      keyRequired: true,
      structuredOutput: false,
      dropFields: ["parallel_tool_calls"],
    },
    // console.groq.com/docs/openai: 400 for `logprobs`, `logit_bias`, `top_logprobs`, `messages[].name` and
    // `n` > 1 (agentloop sends none of them). console.groq.com/docs/structured-outputs: `json_schema` only on
    // gpt-oss, Kimi K2 and Llama 4. Groq validates tool arguments against the schema itself and fails the
    // request with 400 `tool_use_failed` (recorded: groq-error-400-tool-use-failed.json); another sample
    // usually passes, so that error is retried.
    groq: {
      label: "Groq",
      baseURL: "https://api.groq.com/openai/v1",
      baseURLVariable: "GROQ_BASE_URL",
      keyVariables: ["GROQ_API_KEY"],
      keyRequired: true,
      structuredOutput: /^(openai\/gpt-oss|moonshotai\/kimi-k2|meta-llama\/llama-4)/,
      retryableCodes: ["tool_use_failed"],
    },
    // Mistral rejects unknown fields with 422 `extra_forbidden`: `stream_options` (dnakov/anon-kode#53; usage
    // comes in the finish chunk anyway, recorded in mistral-stream-tool-call.chunks.txt) and
    // `max_completion_tokens` (editor-code-assistant/eca#231: sent as `max_tokens`). `tool_choice: "required"`
    // is "any" (docs.mistral.ai function calling; vercel/ai packages/mistral mistral-prepare-tools.ts). Tool-call
    // ids must be 9 characters of a-z, A-Z, 0-9 (400 "Tool call id was … but must be a-z, A-Z, 0-9, with a
    // length of 9", langchain-ai/langchain#24668), which ids of other providers are not. `response_format`
    // `json_schema` is supported (docs.mistral.ai custom structured outputs).
    mistral: {
      label: "Mistral",
      baseURL: "https://api.mistral.ai/v1",
      baseURLVariable: "MISTRAL_BASE_URL",
      keyVariables: ["MISTRAL_API_KEY"],
      keyRequired: true,
      structuredOutput: true,
      dropFields: ["stream_options"],
      renameFields: { max_completion_tokens: "max_tokens" },
      requiredToolChoice: "any",
      toolCallIds: "mistral",
    },
    // docs.together.ai: OpenAI-compatible at /v1 (TOGETHER_API_KEY; vercel/ai reads TOGETHER_AI_API_KEY).
    // JSON-schema mode exists for a subset of models only, so typed answers go through a tool by default.
    together: {
      label: "Together AI",
      baseURL: "https://api.together.xyz/v1",
      baseURLVariable: "TOGETHER_BASE_URL",
      keyVariables: ["TOGETHER_API_KEY", "TOGETHER_AI_API_KEY"],
      keyRequired: true,
      structuredOutput: false,
    },
    // docs.fireworks.ai/structured-responses/structured-response-formatting: `response_format` `json_schema`.
    // Error bodies are `{"error": "text"}` (vercel/ai packages/fireworks), read like any envelope.
    fireworks: {
      label: "Fireworks",
      baseURL: "https://api.fireworks.ai/inference/v1",
      baseURLVariable: "FIREWORKS_BASE_URL",
      keyVariables: ["FIREWORKS_API_KEY"],
      keyRequired: true,
      structuredOutput: true,
    },
    // docs.x.ai: OpenAI-compatible, structured outputs on its language models. Reasoning models reject
    // `presence_penalty`, `frequency_penalty`, `stop` and (grok-4) `reasoning_effort`, none of which agentloop
    // sends. Usage counts reasoning tokens outside `completion_tokens` (recorded; see map-openai-usage.ts).
    xai: {
      label: "xAI",
      baseURL: "https://api.x.ai/v1",
      baseURLVariable: "XAI_BASE_URL",
      keyVariables: ["XAI_API_KEY"],
      keyRequired: true,
      structuredOutput: true,
    },
    // docs.ollama.com/api/openai-compatibility: supported fields include `response_format`, `stream_options`
    // (`include_usage`), `tools`, `tool_choice`; unknown fields are ignored. OLLAMA_API_KEY for ollama.com.
    ollama: {
      label: "Ollama",
      baseURL: "http://localhost:11434/v1",
      baseURLVariable: "OLLAMA_BASE_URL",
      keyVariables: ["OLLAMA_API_KEY"],
      keyRequired: false,
      structuredOutput: true,
    },
    // docs.vllm.ai OpenAI-compatible server: `response_format` json_schema (structured outputs), and
    // `parallel_tool_calls` is honoured since vllm-project/vllm#26233. The server's key is VLLM_API_KEY.
    vllm: {
      label: "vLLM",
      baseURL: "http://localhost:8000/v1",
      baseURLVariable: "VLLM_BASE_URL",
      keyVariables: ["VLLM_API_KEY"],
      keyRequired: false,
      structuredOutput: true,
    },
    // lmstudio.ai/docs/developer: OpenAI-compatible /v1 on port 1234, structured output (JSON schema).
    lmstudio: {
      label: "LM Studio",
      baseURL: "http://localhost:1234/v1",
      baseURLVariable: "LMSTUDIO_BASE_URL",
      keyVariables: ["LMSTUDIO_API_KEY"],
      keyRequired: false,
      structuredOutput: true,
    },
    // llama.cpp `llama-server` (port 8080): `response_format` json_schema, `stream_options` (it sends the
    // usage chunk always, ggml-org/llama.cpp#16048), error envelopes with a numeric `code`. Its `--api-key` is
    // read from LLAMA_API_KEY by the server, so that variable works on both sides.
    llamacpp: {
      label: "llama.cpp server",
      baseURL: "http://localhost:8080/v1",
      baseURLVariable: "LLAMACPP_BASE_URL",
      keyVariables: ["LLAMACPP_API_KEY", "LLAMA_API_KEY"],
      keyRequired: false,
      structuredOutput: true,
    },
  });

/** The preset names, in table order. */
export const OPENAI_COMPATIBLE_PRESET_NAMES = Object.freeze(
  Object.keys(OPENAI_COMPATIBLE_PRESETS) as OpenAICompatiblePresetName[],
);

/** Whether `name` is a preset name (a model-string prefix served by `createOpenAICompatible`). */
export function isOpenAICompatiblePreset(name: string): name is OpenAICompatiblePresetName {
  return Object.hasOwn(OPENAI_COMPATIBLE_PRESETS, name);
}

/** The first set, non-empty key variable of a preset in `env` (undefined when none is). */
export function presetKey(
  preset: OpenAICompatiblePreset,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  for (const variable of preset.keyVariables) {
    const value = env[variable];
    if (value !== undefined && value !== "") return value;
  }
  return undefined;
}

/** The host of a URL ("" when it is not one). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
}

/** Options of {@link presetKeyRequired}. */
export interface PresetKeyRequiredOptions {
  preset: OpenAICompatiblePresetName;
  /** The base URL in use (Azure: the resource endpoint). */
  baseURL: string;
}

/**
 * Whether calls need a key: a hosted service at its own host (Azure: any `*.azure.com` endpoint). A base URL
 * pointed elsewhere (a proxy, a local test server) and the local servers need none.
 */
export function presetKeyRequired({ preset, baseURL }: PresetKeyRequiredOptions): boolean {
  const host = hostOf(baseURL);
  if (preset === "azure") return host.endsWith(".azure.com");
  const { keyRequired, baseURL: defaultURL } = OPENAI_COMPATIBLE_PRESETS[preset];
  return keyRequired && host === hostOf(defaultURL);
}

/** Whether the preset honours `response_format` json_schema for `modelId`. */
export function presetStructuredOutput(preset: OpenAICompatiblePreset, modelId: string): boolean {
  const { structuredOutput } = preset;
  return typeof structuredOutput === "boolean" ? structuredOutput : structuredOutput.test(modelId);
}
