import { describe, expect, it } from "vitest";
import { isContextLengthError } from "../../errors/is-context-length-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import { isRetryableOpenAIStatus, parseOpenAIErrorBody } from "./parse-openai-error.js";
import { readFixture } from "./test-utils/fixtures.js";

describe("parseOpenAIErrorBody", () => {
  it("reads the recorded OpenAI envelope", () => {
    expect(
      parseOpenAIErrorBody(readFixture("error-400-unsupported-parameter.json").toString("utf8")),
    ).toEqual({
      message:
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      code: "unsupported_parameter",
      rawCode: "unsupported_parameter",
      type: "invalid_request_error",
    });
  });

  it("falls back to error.type when code is null", () => {
    expect(
      parseOpenAIErrorBody('{"error":{"message":"m","type":"server_error","param":null,"code":null}}'),
    ).toEqual({
      message: "m",
      code: "server_error",
      type: "server_error",
    });
  });

  it.each([
    ['{"error":"model not loaded"}', { message: "model not loaded" }],
    ['{"message":"bad request"}', { message: "bad request" }],
    ['{"detail":"Not Found"}', { message: "Not Found" }],
    ['{"error":{"message":"m","code":503}}', { message: "m", code: "503", rawCode: 503 }],
    [
      '{"object":"error","message":"This model\'s maximum context length is 4096 tokens.","type":"BadRequestError","param":null,"code":400}',
      {
        message: "This model's maximum context length is 4096 tokens.",
        type: "BadRequestError",
        code: "BadRequestError",
        rawCode: 400,
      },
    ],
    [
      '{"error":{"code":400,"message":"request (538 tokens) exceeds the available context size (512 tokens), try increasing it","type":"exceed_context_size_error"}}',
      {
        message: "request (538 tokens) exceeds the available context size (512 tokens), try increasing it",
        code: "exceed_context_size_error",
        type: "exceed_context_size_error",
        rawCode: 400,
      },
    ],
    [
      "<html>\n  <body>502 Bad Gateway</body>\n</html>",
      { message: "<html> <body>502 Bad Gateway</body> </html>" },
    ],
    ["", {}],
    ["[1,2]", {}],
  ])("reads compatible-server bodies: %s", (body, expected) => {
    expect(parseOpenAIErrorBody(body)).toEqual(expected);
  });

  it("shortens long non-JSON bodies", () => {
    expect(parseOpenAIErrorBody("x".repeat(1000)).message).toHaveLength(201);
  });
});

describe("isRetryableOpenAIStatus", () => {
  it.each([
    [429, {}, true],
    [429, { code: "rate_limit_exceeded" }, true],
    [429, { code: "insufficient_quota" }, false],
    [500, {}, true],
    [503, {}, true],
    [408, {}, true],
    [400, {}, false],
    [401, {}, false],
    [404, {}, false],
  ])("%i %j → %s", (status, info, expected) => {
    expect(isRetryableOpenAIStatus(status, info)).toBe(expected);
  });
});

describe("isContextLengthError", () => {
  const error = (options: { status?: number; code?: string; message: string }) =>
    new ModelCallError({ isRetryable: false, ...options });

  it("recognises OpenAI's code", () => {
    expect(isContextLengthError(error({ status: 400, code: "context_length_exceeded", message: "x" }))).toBe(
      true,
    );
  });

  it("recognises compatible servers' messages on 400/413", () => {
    const message =
      "http://localhost:8000/v1/chat/completions answered 400: This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.";
    expect(isContextLengthError(error({ status: 400, message }))).toBe(true);
    expect(isContextLengthError(error({ status: 413, message: "prompt is too long" }))).toBe(true);
  });

  it("rejects anything else", () => {
    expect(
      isContextLengthError(error({ status: 400, code: "unsupported_parameter", message: "Unsupported" })),
    ).toBe(false);
    expect(isContextLengthError(error({ status: 500, message: "maximum context length" }))).toBe(false);
    expect(isContextLengthError(new StreamInterruptedError({ message: "broke off" }))).toBe(false);
    expect(isContextLengthError(new Error("maximum context length"))).toBe(false);
    expect(isContextLengthError(undefined)).toBe(false);
  });
});
