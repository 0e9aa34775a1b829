import { describe, expect, it } from "vitest";
import { ModelCallError } from "../errors/model-call-error.js";
import { displayUrl } from "./display-url.js";
import { REDACTED_CREDENTIAL, redactCallError, redactCredentials } from "./redact-credentials.js";

describe("displayUrl", () => {
  it("drops user:password@ and keeps everything else as written", () => {
    expect(displayUrl("http://u:p%40ss@host:8080/v1/chat?x=1")).toBe("http://host:8080/v1/chat?x=1");
    expect(displayUrl("https://token@host")).toBe("https://host");
    expect(displayUrl("https://api.openai.com/v1")).toBe("https://api.openai.com/v1");
    expect(displayUrl("not a url @ all")).toBe("not a url @ all");
  });
});

describe("redactCredentials with a URL", () => {
  const url = "http://agent:p%40ss-SECRET-123@127.0.0.1:1/v1/chat/completions";
  it("removes the userinfo wherever the URL appears, and the password in any form", () => {
    const text = [
      `fetch failed: ${url}`,
      "password p@ss-SECRET-123 and p%40ss-SECRET-123",
      `basic ${Buffer.from("agent:p@ss-SECRET-123").toString("base64")}`,
    ].join("\n");
    const out = redactCredentials({ text, headers: {}, url });
    expect(out).toContain("fetch failed: http://127.0.0.1:1/v1/chat/completions");
    expect(out).not.toContain("SECRET");
    expect(out).not.toContain(Buffer.from("agent:p@ss-SECRET-123").toString("base64"));
    expect(out).toContain(REDACTED_CREDENTIAL);
  });

  it("cleans a ModelCallError in place: message, stack, body, url and cause", () => {
    const key = "sk-live-0123456789abcdef";
    const cause = new Error(`socket said ${key}`);
    const error = new ModelCallError({
      message: `bad key ${key} at ${url}`,
      body: `{"error":"${key}"}`,
      url,
      isRetryable: false,
      cause,
    });
    const same = redactCallError(error, { headers: { authorization: `Bearer ${key}` }, url });
    expect(same).toBe(error);
    for (const text of [error.message, error.stack, error.body, error.url, cause.message, cause.stack]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain("SECRET");
    }
    expect(error.url).toBe("http://127.0.0.1:1/v1/chat/completions");
  });
});
