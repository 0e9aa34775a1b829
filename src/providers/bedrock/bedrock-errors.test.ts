import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isContextLengthError } from "../../errors/is-context-length-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { RetryInfo } from "../../models/model.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { readParts } from "../openai/test-utils/stream-parts.js";
import { resolveModel } from "../resolve-model.js";
import { createBedrock } from "./create-bedrock.js";
import { testBedrockModel } from "./test-utils/bedrock-test-model.js";
import { converseAnswer, converseFrames } from "./test-utils/converse-answer.js";
import { bedrockEventFrame, encodeEventStreamMessage } from "./test-utils/encode-event-stream.js";

const request = { messages: [{ role: "user" as const, content: "hi" }] };
const ok = (stream: boolean) => converseAnswer({ turn: { text: "Fine." }, stream });
const status = (code: number, errorType: string, message: string, headers: Record<string, string> = {}) => ({
  status: code,
  body: JSON.stringify({ message }),
  headers: {
    "x-amzn-errortype": `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    ...headers,
  },
});

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ModelCallError.isInstance(error), String(error)).toBe(true);
  return error as ModelCallError;
}

describe("Bedrock HTTP errors", () => {
  it.each([
    [429, "ThrottlingException", "Too many requests, please wait before trying again."],
    [429, "ModelNotReadyException", "Model is not ready"],
    [500, "InternalServerException", "Internal error"],
    [503, "ServiceUnavailableException", "Service unavailable"],
    [408, "ModelTimeoutException", "Model timed out"],
  ])("%i %s is retried by the provider (onRetry reports it)", async (code, type, message) => {
    server = await startFixtureServer([status(code, type, message, { "retry-after": "0" }), ok(false)]);
    const retries: RetryInfo[] = [];
    const response = await testBedrockModel(server.baseURL).generate(request, {
      onRetry: (info) => retries.push(info),
    });
    expect(response.text).toBe("Fine.");
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]?.error).toMatchObject({ status: code, code: type, isRetryable: true });
    expect(String((retries[0]?.error as Error | undefined)?.message)).toContain(message);
  });

  it.each([
    [
      400,
      "ValidationException",
      "The model returned the following errors: messages: at least one message is required",
    ],
    [403, "AccessDeniedException", "You don't have access to the model with the specified model ID."],
    [404, "ResourceNotFoundException", "Model not found"],
    [424, "ModelErrorException", "The model failed"],
  ])("%i %s is final", async (code, type, message) => {
    server = await startFixtureServer([status(code, type, message), ok(false)]);
    const error = await failure(testBedrockModel(server.baseURL).generate(request));
    expect(error).toMatchObject({ status: code, code: type, errorType: type, isRetryable: false });
    expect(error.message).toContain(message);
    expect(isContextLengthError(error)).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    "Input is too long for requested model.",
    "The model returned the following errors: prompt is too long: 214601 tokens > 200000 maximum",
    "Too many input tokens. Max input tokens: 300000, request input token count: 301000",
  ])(
    "a ValidationException saying %j is a context-length error (the loop compacts and retries)",
    async (message) => {
      server = await startFixtureServer(status(400, "ValidationException", message));
      const error = await failure(testBedrockModel(server.baseURL).generate(request));
      expect(error).toMatchObject({
        code: "context_length_exceeded",
        errorType: "ValidationException",
        isRetryable: false,
      });
      expect(isContextLengthError(error)).toBe(true);
    },
  );

  it("reads a __type body when the header is missing, and removes echoed credentials", async () => {
    server = await startFixtureServer({
      status: 403,
      body: JSON.stringify({
        __type: "com.amazon.coral.service#UnrecognizedClientException",
        message: "The security token included in the request is invalid: tok-SECRET-session-1234",
      }),
    });
    const model = createBedrock({
      baseURL: server.baseURL,
      region: "us-east-1",
      credentials: { accessKeyId: "AKIDX", secretAccessKey: "s", sessionToken: "tok-SECRET-session-1234" },
    })("m");
    const error = await failure(model.generate(request));
    expect(error).toMatchObject({ code: "UnrecognizedClientException", isRetryable: false });
    expect(error.message).not.toContain("tok-SECRET-session-1234");
    expect(error.body).not.toContain("tok-SECRET-session-1234");
  });
});

describe("Bedrock stream errors", () => {
  const stream = () => readParts(testBedrockModel(server?.baseURL ?? "").stream(request));
  const frames = converseFrames({ text: "Hello there." });
  const head = Buffer.concat(frames.slice(0, 2).map((f) => f.bytes)); // messageStart + the first text delta
  const exception = (type: string, message: string) =>
    encodeEventStreamMessage({
      headers: { ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" },
      payload: JSON.stringify({ message }),
    });

  it.each([
    ["throttlingException", "Too many tokens, please wait before trying again."],
    ["modelStreamErrorException", "The model stream failed."],
    ["internalServerException", "Internal server error."],
    ["serviceUnavailableException", "Service is unavailable."],
  ])("an in-stream %s is a retryable StreamInterruptedError", async (type, message) => {
    server = await startFixtureServer({ body: Buffer.concat([head, exception(type, message)]) });
    const error = await failure(stream());
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: type, errorType: type, isRetryable: true });
    expect(error.message).toContain(message);
  });

  it("an in-stream validationException is final (and a context-length error when it says so)", async () => {
    server = await startFixtureServer({
      body: Buffer.concat([head, exception("validationException", "Input is too long for requested model.")]),
    });
    const error = await failure(stream());
    expect(StreamInterruptedError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({ isRetryable: false, errorType: "validationException" });
    expect(isContextLengthError(error)).toBe(true);
  });

  it("an `:message-type: error` frame carries its code and message in headers", async () => {
    const frame = encodeEventStreamMessage({
      headers: { ":message-type": "error", ":error-code": "InternalFailure", ":error-message": "boom" },
      payload: "",
    });
    server = await startFixtureServer({ body: Buffer.concat([head, frame]) });
    const error = await failure(stream());
    expect(error).toMatchObject({ code: "InternalFailure", isRetryable: false });
    expect(error.message).toContain("boom");
  });

  it("a frame with a bad CRC is a retryable malformed-stream error naming the check", async () => {
    server = await startFixtureServer(
      converseAnswer({ turn: { text: "Hi" }, stream: true, fault: { type: "corrupt-frame-after-text" } }),
    );
    const error = await failure(stream());
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/malformed event-stream frame: message CRC mismatch/);
  });

  it("a payload that is not JSON is a malformed event", async () => {
    const bad = encodeEventStreamMessage({
      headers: { ":event-type": "contentBlockDelta", ":message-type": "event" },
      payload: "{not json",
    });
    server = await startFixtureServer({ body: Buffer.concat([head, bad]) });
    const error = await failure(stream());
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/malformed event: \{not json/);
  });

  it("a body that ends before messageStop is interrupted (also inside a frame)", async () => {
    server = await startFixtureServer({ body: head });
    expect((await failure(stream())).message).toMatch(/ended before the model finished \(no messageStop\)$/);
    await server.close();
    const last = frames[2]?.bytes ?? new Uint8Array();
    server = await startFixtureServer({ body: Buffer.concat([head, last.subarray(0, 9)]) });
    expect((await failure(stream())).message).toMatch(/broke off inside a frame, 9 bytes in/);
  });

  it("a body that fails after messageStop still completes (metadata lost: usage 0)", async () => {
    const body = Buffer.concat(frames.slice(0, -1).map((f) => f.bytes));
    server = await startFixtureServer({ body, destroyAfterBytes: body.length });
    const parts = await readParts(testBedrockModel(server.baseURL).stream(request));
    expect(parts.at(-1)).toMatchObject({
      type: "finish",
      usage: { inputTokens: 0 },
      finishReason: { unified: "stop" },
    });
  });

  it("events after messageStop other than metadata are ignored", async () => {
    const extra = bedrockEventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: " LATE" } });
    const all = frames.map((f) => f.bytes);
    const body = Buffer.concat([...all.slice(0, -1), extra, ...all.slice(-1)]);
    server = await startFixtureServer({ body });
    const parts = await readParts(testBedrockModel(server.baseURL).stream(request));
    expect(
      parts
        .filter((p) => p.type === "text_delta")
        .map((p) => (p as { delta: string }).delta)
        .join(""),
    ).toBe("Hello there.");
    expect(parts.at(-1)).toMatchObject({ usage: { inputTokens: 40, outputTokens: 10 } });
  });
});

describe("Bedrock configuration at call time", () => {
  const ENV = [
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
    "AWS_ENDPOINT_URL",
  ] as const;
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
    for (const name of ENV) delete process.env[name];
  });
  afterEach(() => {
    for (const name of ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("without a region, a call fails clearly (no request); the region is read when the call is made", async () => {
    const model = createBedrock({ credentials: { accessKeyId: "A", secretAccessKey: "B" } })("m");
    const error = await failure(model.generate(request));
    expect(error).toMatchObject({ code: "missing_region", isRetryable: false });
    expect(error.message).toMatch(/AWS_REGION/);
    await expect(readParts(model.stream(request))).rejects.toThrow(/AWS_REGION/);
  });

  it("without credentials, a call to AWS fails clearly before any request", async () => {
    process.env.AWS_REGION = "eu-west-3";
    const error = await failure(createBedrock()("m").generate(request));
    expect(error).toMatchObject({ code: "missing_credentials", isRetryable: false });
    expect(error.message).toContain("https://bedrock-runtime.eu-west-3.amazonaws.com/model/m");
  });

  it("AWS_ENDPOINT_URL_BEDROCK_RUNTIME (else AWS_ENDPOINT_URL) sets the endpoint; env keys sign the request", async () => {
    server = await startFixtureServer(ok(false));
    process.env.AWS_ENDPOINT_URL = "http://127.0.0.1:1/unused";
    process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME = server.baseURL;
    process.env.AWS_ACCESS_KEY_ID = "AKIDFROMENV";
    process.env.AWS_SECRET_ACCESS_KEY = "env-secret";
    const model = createBedrock({ region: "ap-southeast-2" })("anthropic.claude-3-haiku-20240307-v1:0");
    expect((await model.generate(request)).text).toBe("Fine.");
    expect(server.requests[0]?.headers.authorization).toMatch(
      /Credential=AKIDFROMENV\/\d{8}\/ap-southeast-2\/bedrock\//,
    );

    process.env.AWS_BEARER_TOKEN_BEDROCK = "bedrock-api-key-123";
    await createBedrock({ region: "ap-southeast-2" })("m").generate(request);
    expect(server.requests[1]?.headers.authorization).toBe("Bearer bedrock-api-key-123");
  });

  it('resolves "bedrock:<model-id>" model strings (ids with ":" kept whole)', () => {
    const model = resolveModel("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0");
    expect(model.provider).toBe("bedrock");
    expect(model.modelId).toBe("us.anthropic.claude-sonnet-4-5-20250929-v1:0");
    expect(model.capabilities).toEqual({ structuredOutput: false });
  });

  it("validates its options", () => {
    expect(() => createBedrock({ region: "Not A Region" })).toThrow(/region/);
    expect(() => createBedrock({ baseURL: "ftp://x" })).toThrow(/http\(s\) URL/);
    expect(() => createBedrock({ credentials: { accessKeyId: 1 } as never })).toThrow(/credentials/);
    expect(() => createBedrock({ promptCaching: "yes" as never })).toThrow(/promptCaching/);
    expect(() => createBedrock({ timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createBedrock()("")).toThrow(/modelId/);
    process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME = "not a url";
    expect(() => createBedrock()).toThrow(/AWS_ENDPOINT_URL_BEDROCK_RUNTIME/);
  });
});
