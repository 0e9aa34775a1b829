import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { resolveModel } from "../resolve-model.js";
import { createGoogle } from "./create-google.js";
import { DEFAULT_GOOGLE_BASE_URL } from "./index.js";
import { readFixture } from "./test-utils/fixtures.js";

const request = { messages: [{ role: "user" as const, content: "hi" }] };

let server: FixtureServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function okServer() {
  server = await startFixtureServer({
    body: readFixture("nonstream-cached-content.json"),
    contentType: "application/json",
  });
  return server;
}

function clearKeys() {
  vi.stubEnv("GOOGLE_GENERATIVE_AI_API_KEY", "");
  vi.stubEnv("GEMINI_API_KEY", "");
  vi.stubEnv("GOOGLE_BASE_URL", undefined as unknown as string);
}

describe("createGoogle", () => {
  it("sends the key as x-goog-api-key (never in the URL) to {baseURL}/models/{model}:generateContent", async () => {
    const { baseURL } = await okServer();
    await createGoogle({ baseURL: `${baseURL}/`, apiKey: "AIza-test-key" })("gemini-2.5-flash").generate(
      request,
    );
    const sent = server?.requests[0];
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe("/v1/models/gemini-2.5-flash:generateContent");
    expect(sent?.url).not.toContain("key");
    expect(sent?.headers["x-goog-api-key"]).toBe("AIza-test-key");
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it("reads GOOGLE_GENERATIVE_AI_API_KEY, else GEMINI_API_KEY, at call time, and GOOGLE_BASE_URL", async () => {
    const { baseURL } = await okServer();
    clearKeys();
    vi.stubEnv("GOOGLE_BASE_URL", baseURL);
    vi.stubEnv("GEMINI_API_KEY", "gemini-key");
    const model = createGoogle({ headers: { "X-Goog-User-Project": "proj" } })("gemini-2.5-flash");
    await model.generate(request);
    expect(server?.requests[0]?.headers["x-goog-api-key"]).toBe("gemini-key");
    expect(server?.requests[0]?.headers["x-goog-user-project"]).toBe("proj");
    vi.stubEnv("GOOGLE_GENERATIVE_AI_API_KEY", "google-key");
    await model.generate(request);
    expect(server?.requests[1]?.headers["x-goog-api-key"]).toBe("google-key");
  });

  it("sends no key header to a local server without a key", async () => {
    const { baseURL } = await okServer();
    clearKeys();
    await createGoogle({ baseURL })("gemini-2.5-flash").generate(request);
    expect(server?.requests[0]?.headers["x-goog-api-key"]).toBeUndefined();
  });

  it("fails without a request when Google's own API has no key, naming both variables", async () => {
    clearKeys();
    const model = createGoogle()("gemini-2.5-flash");
    const error = await model.generate(request).catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).code).toBe("missing_api_key");
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect((error as Error).message).toMatch(/GOOGLE_GENERATIVE_AI_API_KEY.*GEMINI_API_KEY/);
    expect(DEFAULT_GOOGLE_BASE_URL).toBe("https://generativelanguage.googleapis.com/v1beta");
  });

  it("uses a resource path as it is (tuned models) and models/<id> otherwise", async () => {
    const { baseURL } = await okServer();
    await createGoogle({ baseURL, apiKey: "k" })("tunedModels/my-model-7").generate(request);
    await createGoogle({ baseURL, apiKey: "k" })("models/gemini-2.5-pro").generate(request);
    expect(server?.requests.map((r) => r.url)).toEqual([
      "/v1/tunedModels/my-model-7:generateContent",
      "/v1/models/gemini-2.5-pro:generateContent",
    ]);
  });

  it("answers typed answers natively from Gemini 3 on, through a tool call before (unless told)", () => {
    const google = createGoogle({ apiKey: "k" });
    expect(google("gemini-3-flash-preview").capabilities).toEqual({ structuredOutput: true });
    expect(google("gemini-2.5-flash").capabilities).toEqual({ structuredOutput: false });
    expect(google("models/gemini-1.5-pro").capabilities).toEqual({ structuredOutput: false });
    expect(createGoogle({ apiKey: "k", structuredOutput: true })("gemini-2.5-flash").capabilities).toEqual({
      structuredOutput: true,
    });
    expect(google("gemini-2.5-flash").provider).toBe("google");
  });

  it.each([
    [{ baseURL: "ftp://x" }, "baseURL"],
    [{ baseURL: "http://x/v1beta?key=abc" }, "baseURL"],
    [{ apiKey: 5 }, "apiKey"],
    [{ timeoutMs: 0 }, "timeoutMs"],
    [{ thinking: { budgetTokens: -2 } }, "thinking.budgetTokens"],
    [{ thinking: { level: "max" } }, "thinking.level"],
    [{ thinking: { level: "low", budgetTokens: 10 } }, "thinking"],
    [{ thinking: { budget: 10 } }, "thinking.budget"],
    [{ thinking: { includeThoughts: "yes" } }, "thinking.includeThoughts"],
    [{ safetySettings: [{ category: "X" }] }, "safetySettings[0]"],
    [{ safetySettings: {} }, "safetySettings"],
    [{ extraBody: [] }, "extraBody"],
    [{ structuredOutput: "yes" }, "structuredOutput"],
    [{ retry: { maxRetries: -1 } }, "retry.maxRetries"],
  ])("refuses %j (argument %s)", (options, argument) => {
    let error: unknown;
    try {
      createGoogle(options as never);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe(argument);
  });

  it("refuses an empty model id", () => {
    expect(() => createGoogle({ apiKey: "k" })(" ")).toThrow(InvalidArgumentError);
  });
});

describe('resolveModel("google:…")', () => {
  it("makes a Gemini model from the environment", async () => {
    const { baseURL } = await okServer();
    vi.stubEnv("GOOGLE_BASE_URL", baseURL);
    vi.stubEnv("GEMINI_API_KEY", "env-key");
    const model = resolveModel("google:gemini-2.5-flash");
    expect(model.provider).toBe("google");
    expect(model.modelId).toBe("gemini-2.5-flash");
    const response = await model.generate(request);
    expect(response.text).toBe("Paris.");
    expect(server?.requests[0]?.headers["x-goog-api-key"]).toBe("env-key");
  });

  it("infers Google for a bare gemini-* id", () => {
    expect(resolveModel("gemini-2.5-pro").provider).toBe("google");
  });
});
