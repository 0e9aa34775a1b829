import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import type { ModelRequest } from "../../models/model.js";
import { sseOf } from "../openai/test-utils/compatible-fixtures.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { readParts } from "../openai/test-utils/stream-parts.js";
import { createOpenAICompatible } from "./create-openai-compatible.js";
import {
  OPENAI_COMPATIBLE_PRESET_NAMES,
  type OpenAICompatiblePresetName,
} from "./openai-compatible-presets.js";

// What each preset sends: the body fields its server rejects are gone, the ones it names differently renamed,
// Azure's URL, api-version and api-key header, and where the settings come from (options, then environment).

const ANSWER = sseOf([
  { model: "m", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] },
]);
const JSON_ANSWER = JSON.stringify({
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
});

const request: ModelRequest = {
  messages: [{ role: "user", content: "hi" }],
  tools: [{ name: "lookup", description: "Look up", parameters: { type: "object", properties: {} } }],
  toolChoice: "required",
  parallelToolCalls: true,
  temperature: 0.2,
  maxOutputTokens: 100,
};

let server: FixtureServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function serve(stream = true): Promise<FixtureServer> {
  server = await startFixtureServer(
    stream ? { body: ANSWER } : { body: JSON_ANSWER, contentType: "application/json" },
  );
  return server;
}

/** The server root for Azure (its routes start with /openai), the /v1 base URL for the others. */
function baseFor(preset: OpenAICompatiblePresetName, s: FixtureServer): string {
  return preset === "azure" ? s.baseURL.replace(/\/v1$/, "") : s.baseURL;
}

/** Sends one streamed request through the preset; returns the body, URL and headers the server received. */
async function sent(
  preset: OpenAICompatiblePresetName,
  options: { req?: ModelRequest; extra?: object } = {},
) {
  const s = await serve();
  const model = createOpenAICompatible({
    preset,
    baseURL: baseFor(preset, s),
    apiKey: "k-test",
    ...options.extra,
  })("my-model");
  await readParts(model.stream(options.req ?? request));
  const received = s.requests[0];
  if (received === undefined) throw new Error("no request");
  return { body: received.body as Record<string, unknown>, url: received.url, headers: received.headers };
}

/** What OpenAI's Chat API gets for `request` (streaming), without messages and tools. */
const BASELINE = {
  model: "my-model",
  tool_choice: "required",
  parallel_tool_calls: true,
  temperature: 0.2,
  max_tokens: 100,
  stream: true,
  stream_options: { include_usage: true },
};

/** Each preset's body, as a change of the baseline (fields removed are `undefined`). */
const BODY_CHANGES: Record<OpenAICompatiblePresetName, Record<string, unknown>> = {
  azure: { max_tokens: undefined, max_completion_tokens: 100 },
  openrouter: {},
  deepseek: { parallel_tool_calls: undefined },
  groq: {},
  mistral: { stream_options: undefined, tool_choice: "any" },
  together: {},
  fireworks: {},
  xai: {},
  ollama: {},
  vllm: {},
  lmstudio: {},
  llamacpp: {},
};

function withChanges(changes: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...BASELINE, ...changes };
  for (const [key, value] of Object.entries(body)) if (value === undefined) delete body[key];
  return body;
}

describe.each(OPENAI_COMPATIBLE_PRESET_NAMES)("preset %s: the request", (preset) => {
  it("sends the fields its server takes, and none it rejects", async () => {
    const { body, url, headers } = await sent(preset);
    const { messages, tools, ...rest } = body;
    expect(rest).toEqual(withChanges(BODY_CHANGES[preset]));
    expect(messages).toEqual([{ role: "user", content: "hi" }]);
    expect(tools).toHaveLength(1);
    expect(url).toBe(preset === "azure" ? "/openai/v1/chat/completions" : "/v1/chat/completions");
    if (preset === "azure") {
      expect(headers["api-key"]).toBe("k-test");
      expect(headers.authorization).toBeUndefined();
    } else {
      expect(headers.authorization).toBe("Bearer k-test");
    }
  });

  it("non-streaming: no stream fields", async () => {
    const s = await serve(false);
    const model = createOpenAICompatible({ preset, baseURL: baseFor(preset, s), apiKey: "k" })("my-model");
    await model.generate({ messages: [{ role: "user", content: "hi" }] });
    const body = s.requests[0]?.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["messages", "model"]);
    expect(model.provider).toBe(preset);
  });
});

describe("fields a server rejects are removed whoever set them", () => {
  it("Mistral: stream_options and max_completion_tokens from providerOptions/extraBody never reach it", async () => {
    const { body } = await sent("mistral", {
      req: {
        messages: [{ role: "user", content: "hi" }],
        providerOptions: { stream_options: { include_obfuscation: false }, max_completion_tokens: 50 },
      },
      extra: { extraBody: { safe_prompt: true } },
    });
    expect(body.stream_options).toBeUndefined();
    expect(body.max_completion_tokens).toBeUndefined();
    expect(body.max_tokens).toBe(50);
    expect(body.safe_prompt).toBe(true);
  });

  it("DeepSeek: parallel_tool_calls: false is not sent either (DeepSeek has no such switch)", async () => {
    const { body } = await sent("deepseek", { req: { ...request, parallelToolCalls: false } });
    expect("parallel_tool_calls" in body).toBe(false);
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it("a tool choice by name is sent as is (Mistral too)", async () => {
    const { body } = await sent("mistral", {
      req: { ...request, toolChoice: { type: "tool", name: "lookup" } },
    });
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "lookup" } });
  });
});

describe("Azure OpenAI: routes, api-version and auth", () => {
  it.each([
    [undefined, "/openai/v1/chat/completions", { max_completion_tokens: 100 }],
    ["preview", "/openai/v1/chat/completions?api-version=preview", { max_completion_tokens: 100 }],
    [
      "2024-10-21",
      "/openai/deployments/my-model/chat/completions?api-version=2024-10-21",
      { max_completion_tokens: 100 },
    ],
    [
      "2025-04-01-preview",
      "/openai/deployments/my-model/chat/completions?api-version=2025-04-01-preview",
      { max_completion_tokens: 100 },
    ],
    [
      "2024-06-01",
      "/openai/deployments/my-model/chat/completions?api-version=2024-06-01",
      { max_tokens: 100, stream_options: undefined, parallel_tool_calls: undefined },
    ],
  ])("api-version %s → %s", async (apiVersion, path, fields) => {
    const { body, url } = await sent("azure", { extra: apiVersion === undefined ? {} : { apiVersion } });
    expect(url).toBe(path);
    for (const [key, value] of Object.entries(fields)) expect(body[key]).toEqual(value);
    if ("max_completion_tokens" in fields) expect(body.max_tokens).toBeUndefined();
    expect(body.model).toBe("my-model");
  });

  it("reads AZURE_OPENAI_ENDPOINT (trailing slash or /openai/v1 ignored), _API_KEY and _API_VERSION", async () => {
    const s = await serve();
    vi.stubEnv("AZURE_OPENAI_ENDPOINT", `${s.baseURL.replace(/\/v1$/, "")}/openai/v1/`);
    vi.stubEnv("AZURE_OPENAI_API_KEY", "env-key");
    vi.stubEnv("AZURE_OPENAI_API_VERSION", "2024-10-21");
    await readParts(createOpenAICompatible({ preset: "azure" })("dep loy").stream(request));
    expect(s.requests[0]?.url).toBe("/openai/deployments/dep%20loy/chat/completions?api-version=2024-10-21");
    expect(s.requests[0]?.headers["api-key"]).toBe("env-key");
  });

  it("a Microsoft Entra ID token is sent as a bearer token instead of the key (a function is asked per request)", async () => {
    const s = await serve();
    let n = 0;
    const model = createOpenAICompatible({
      preset: "azure",
      baseURL: s.baseURL.replace(/\/v1$/, ""),
      apiKey: "k",
      entraToken: () => `token-${++n}`,
    })("d");
    await readParts(model.stream(request));
    await readParts(model.stream(request));
    expect(s.requests.map((r) => r.headers.authorization)).toEqual(["Bearer token-1", "Bearer token-2"]);
    expect(s.requests[0]?.headers["api-key"]).toBeUndefined();
  });

  it("AZURE_OPENAI_AD_TOKEN is the token's default", async () => {
    const s = await serve();
    vi.stubEnv("AZURE_OPENAI_AD_TOKEN", "ad-token");
    await readParts(
      createOpenAICompatible({ preset: "azure", baseURL: s.baseURL.replace(/\/v1$/, "") })("d").stream(
        request,
      ),
    );
    expect(s.requests[0]?.headers.authorization).toBe("Bearer ad-token");
  });

  it("a resource name makes the endpoint; a call without key or token fails before sending, naming the variable", async () => {
    vi.stubEnv("AZURE_OPENAI_API_KEY", "");
    vi.stubEnv("AZURE_OPENAI_AD_TOKEN", "");
    const model = createOpenAICompatible({ preset: "azure", resourceName: "my-res" })("gpt-4o");
    const error = await model.generate(request).catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).code).toBe("missing_api_key");
    expect((error as ModelCallError).message).toContain("AZURE_OPENAI_API_KEY");
    expect((error as ModelCallError).url).toBe("https://my-res.openai.azure.com/openai/v1/chat/completions");
  });

  it("without an endpoint it is an InvalidArgumentError naming AZURE_OPENAI_ENDPOINT", () => {
    vi.stubEnv("AZURE_OPENAI_ENDPOINT", "");
    vi.stubEnv("AZURE_OPENAI_RESOURCE_NAME", "");
    expect(() => createOpenAICompatible({ preset: "azure" })).toThrow(/AZURE_OPENAI_ENDPOINT/);
  });
});

describe("settings from the environment", () => {
  it("DEEPSEEK_BASE_URL and DEEPSEEK_API_KEY (read at call time)", async () => {
    const s = await serve();
    vi.stubEnv("DEEPSEEK_BASE_URL", s.baseURL);
    const model = createOpenAICompatible({ preset: "deepseek" })("deepseek-chat");
    vi.stubEnv("DEEPSEEK_API_KEY", "later-key");
    await readParts(model.stream(request));
    expect(s.requests[0]?.headers.authorization).toBe("Bearer later-key");
  });

  it.each([
    ["together", "TOGETHER_AI_API_KEY", "TOGETHER_BASE_URL"],
    ["llamacpp", "LLAMA_API_KEY", "LLAMACPP_BASE_URL"],
    ["ollama", "OLLAMA_API_KEY", "OLLAMA_BASE_URL"],
  ] as const)("%s: the key from %s, the URL from %s", async (preset, keyVariable, urlVariable) => {
    const s = await serve();
    vi.stubEnv(urlVariable, s.baseURL);
    vi.stubEnv(keyVariable, "from-env");
    await readParts(createOpenAICompatible({ preset })("m").stream(request));
    expect(s.requests[0]?.headers.authorization).toBe("Bearer from-env");
  });

  it("a local server without a key gets no Authorization header", async () => {
    const s = await serve();
    vi.stubEnv("VLLM_API_KEY", "");
    await readParts(createOpenAICompatible({ preset: "vllm", baseURL: s.baseURL })("m").stream(request));
    expect(s.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("a hosted service at its own host without a key fails before sending, naming its variable", async () => {
    vi.stubEnv("GROQ_API_KEY", "");
    vi.stubEnv("GROQ_BASE_URL", "");
    const error = await createOpenAICompatible({ preset: "groq" })("llama-3.3-70b-versatile")
      .generate(request)
      .catch((e: unknown) => e);
    expect((error as ModelCallError).code).toBe("missing_api_key");
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect((error as Error).message).toBe(
      "No Groq API key: set the GROQ_API_KEY environment variable or pass { apiKey } to createOpenAICompatible() " +
        "(requests to https://api.groq.com/openai/v1/chat/completions need one)",
    );
  });

  it("OpenRouter: HTTP-Referer and X-Title from OPENROUTER_SITE_URL / OPENROUTER_APP_NAME; the user's headers win", async () => {
    const s = await serve();
    vi.stubEnv("OPENROUTER_SITE_URL", "https://example.com");
    vi.stubEnv("OPENROUTER_APP_NAME", "My App");
    await readParts(
      createOpenAICompatible({ preset: "openrouter", baseURL: s.baseURL, apiKey: "k" })("m").stream(request),
    );
    await readParts(
      createOpenAICompatible({
        preset: "openrouter",
        baseURL: s.baseURL,
        apiKey: "k",
        headers: { "X-Title": "Mine" },
      })("m").stream(request),
    );
    expect(s.requests[0]?.headers["http-referer"]).toBe("https://example.com");
    expect(s.requests[0]?.headers["x-title"]).toBe("My App");
    expect(s.requests[1]?.headers["x-title"]).toBe("Mine");
  });

  it("a bad base URL in the environment is an InvalidArgumentError naming the variable", () => {
    vi.stubEnv("MISTRAL_BASE_URL", "not a url");
    expect(() => createOpenAICompatible({ preset: "mistral" })).toThrow(
      expect.objectContaining({ argument: "MISTRAL_BASE_URL" }),
    );
  });
});

describe("capabilities and options", () => {
  it("typed answers natively only where the server honours json_schema", () => {
    const cap = (preset: OpenAICompatiblePresetName, id = "m", structuredOutput?: boolean) =>
      createOpenAICompatible({
        preset,
        baseURL: "http://127.0.0.1:1",
        ...(structuredOutput !== undefined && { structuredOutput }),
      })(id).capabilities.structuredOutput;
    expect(cap("deepseek")).toBe(false);
    expect(cap("openrouter")).toBe(false);
    expect(cap("mistral")).toBe(true);
    expect(cap("azure")).toBe(true);
    expect(cap("groq", "llama-3.3-70b-versatile")).toBe(false);
    expect(cap("groq", "openai/gpt-oss-120b")).toBe(true);
    expect(cap("deepseek", "m", true)).toBe(true);
  });

  it("rejects an unknown preset, Azure options elsewhere and bad values", () => {
    const bad = (options: unknown) => () => createOpenAICompatible(options as never);
    expect(bad({ preset: "acme" })).toThrow(InvalidArgumentError);
    expect(bad({ preset: "acme" })).toThrow(/expected one of azure, openrouter, deepseek/);
    expect(bad({ preset: "groq", apiVersion: "v1" })).toThrow(/Azure option/);
    expect(bad({ preset: "groq", timeoutMs: -1 })).toThrow(InvalidArgumentError);
    expect(bad({ preset: "groq", structuredOutput: "yes" })).toThrow(InvalidArgumentError);
    expect(bad(undefined)).toThrow(InvalidArgumentError);
    expect(() => createOpenAICompatible({ preset: "groq" })(" ")).toThrow(InvalidArgumentError);
  });
});
