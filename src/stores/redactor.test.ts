import { describe, expect, it } from "vitest";
import type { Message } from "../models/message.js";
import { createRedactor } from "./redactor.js";
import type { JsonValue } from "./session-store.js";

const redactor = createRedactor();
const text = (input: string) => redactor.redactText(input);

describe("createRedactor: default patterns", () => {
  it("redacts OpenAI and Anthropic API keys", () => {
    expect(text("key sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD ok")).toBe("key [REDACTED:api_key] ok");
    expect(text("sk-proj-Ab12Cd34Ef56Gh78Ij90_Kl-Mn12Op34")).toBe("[REDACTED:api_key]");
    expect(text("use sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz0123_456.")).toBe("use [REDACTED:api_key].");
    expect(text("pip install scikit-learn; sk-learn-is-a-library-name")).toBe(
      "pip install scikit-learn; sk-learn-is-a-library-name",
    );
    expect(text("task-abcdefghijklmnop1234567890")).toBe("task-abcdefghijklmnop1234567890");
  });

  it("redacts bearer tokens but keeps the word", () => {
    expect(text("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc-_123")).toBe(
      "Authorization: Bearer [REDACTED:bearer_token]",
    );
    expect(text("bearer AbCdEf0123456789==")).toBe("bearer [REDACTED:bearer_token]");
    expect(text("Bearer authentication is a scheme")).toBe("Bearer authentication is a scheme");
  });

  it("redacts the values of key=value and JSON secret pairs, keeping names and quotes", () => {
    expect(text("curl https://x.test/?api_key=abc123&q=1")).toBe(
      "curl https://x.test/?api_key=[REDACTED:secret]&q=1",
    );
    expect(text('{"apiKey": "s3cr3t value", "model": "gpt"}')).toBe(
      '{"apiKey": "[REDACTED:secret]", "model": "gpt"}',
    );
    expect(text("OPENAI_API_KEY=abcd\nAWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG")).toBe(
      "OPENAI_API_KEY=[REDACTED:secret]\nAWS_SECRET_ACCESS_KEY: [REDACTED:secret]",
    );
    expect(text("password='hunter2' x-api-key: k1 client_secret=zz")).toBe(
      "password='[REDACTED:secret]' x-api-key: [REDACTED:secret] client_secret=[REDACTED:secret]",
    );
    expect(text('{"pwd":"a\\"b"}')).toBe('{"pwd":"[REDACTED:secret]"}');
    expect(text("secretary: Jane; max_tokens: 100; keyboard=qwerty")).toBe(
      "secretary: Jane; max_tokens: 100; keyboard=qwerty",
    );
  });

  it("redacts AWS access key ids", () => {
    expect(text("id AKIAIOSFODNN7EXAMPLE and ASIAY34FZKBOKMUTVV7A")).toBe(
      "id [REDACTED:aws_access_key] and [REDACTED:aws_access_key]",
    );
    expect(text("AKIAshort")).toBe("AKIAshort");
  });

  it("redacts email addresses", () => {
    expect(text("Mail jane.doe+tag@mail.example.co.uk, or bob@example.com.")).toBe(
      "Mail [REDACTED:email], or [REDACTED:email].",
    );
    expect(text("icon@2x.png and @scope/pkg")).toBe("icon@2x.png and @scope/pkg");
  });

  it("leaves clean text alone and is idempotent", () => {
    const clean = "Nothing to see here: the weather is fine, tokens: 12.";
    expect(text(clean)).toBe(clean);
    const once = text("api_key=abc sk-abcdefghijklmnopqrstuvwxyz012345 a@b.co Bearer abcdefghijkl1234");
    expect(text(once)).toBe(once);
  });

  it("stays fast on large texts without secrets", () => {
    const big = `${"aB3+/".repeat(200_000)} key token secret @ sk-`;
    const started = performance.now();
    expect(text(big)).toBe(big);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("createRedactor: messages and values", () => {
  const message: Message = {
    role: "assistant",
    content: "Mail me at a@example.com",
    toolCalls: [
      {
        id: "c1",
        name: "http",
        rawArguments:
          '{"url":"https://x.test","headers":{"Authorization":"Bearer abcdef1234567890"},"apiKey":"k"}',
        arguments: {
          url: "https://x.test",
          headers: { Authorization: "Bearer abcdef1234567890" },
          apiKey: "k",
          nested: [{ password: 1234, note: "contact ops@example.com" }],
        },
      },
    ],
    providerData: { signature: "sk-abcdefghijklmnopqrstuvwxyz012345" },
  };

  it("redacts content, raw and parsed arguments (deeply) without mutating the input", () => {
    const before = structuredClone(message);
    const out = redactor.redactMessage(message);
    expect(message).toEqual(before);
    expect(out).not.toBe(message);
    expect(out).toEqual({
      role: "assistant",
      content: "Mail me at [REDACTED:email]",
      toolCalls: [
        {
          id: "c1",
          name: "http",
          rawArguments:
            '{"url":"https://x.test","headers":{"Authorization":"Bearer [REDACTED:bearer_token]"},"apiKey":"[REDACTED:secret]"}',
          arguments: {
            url: "https://x.test",
            headers: { Authorization: "Bearer [REDACTED:bearer_token]" },
            apiKey: "[REDACTED:secret]",
            nested: [{ password: "[REDACTED:secret]", note: "contact [REDACTED:email]" }],
          },
        },
      ],
      providerData: { signature: "sk-abcdefghijklmnopqrstuvwxyz012345" },
    });
    expect(JSON.parse(out.role === "assistant" ? out.toolCalls![0]!.rawArguments : "")).toBeTruthy();
  });

  it("redacts tool results, user and system messages", () => {
    const tool: Message = {
      role: "tool",
      toolCallId: "c1",
      toolName: "t",
      content: "AKIAIOSFODNN7EXAMPLE",
      isError: true,
    };
    expect(redactor.redactMessage(tool)).toEqual({ ...tool, content: "[REDACTED:aws_access_key]" });
    expect(redactor.redactMessage({ role: "user", content: "x@y.io" })).toEqual({
      role: "user",
      content: "[REDACTED:email]",
    });
    expect(redactor.redactMessage({ role: "system", content: "plain" })).toEqual({
      role: "system",
      content: "plain",
    });
  });

  it("redactValue keeps the base64 data of image and file parts, which a pattern can match by chance", () => {
    // Valid base64 that happens to hold a Google API key's shape (`AIza` + 35 characters, after a `/`).
    const data = `AAAA/AIza${"B".repeat(35)}/AAAA`;
    const value: JsonValue = {
      content: [
        { type: "image", data, mediaType: "image/png" },
        { type: "file", data, mediaType: "application/pdf" },
        { type: "text", text: data },
        { type: "image", data: "mail a@b.co" },
      ],
    };
    expect(redactor.redactValue(value)).toEqual({
      content: [
        { type: "image", data, mediaType: "image/png" },
        { type: "file", data, mediaType: "application/pdf" },
        { type: "text", text: "AAAA/[REDACTED:google_api_key]/AAAA" },
        { type: "image", data: "mail [REDACTED:email]" },
      ],
    });
  });

  it("redactValue copies JSON deeply", () => {
    const value = { list: ["a@b.co", { token: "x", access_token: "y" }], n: 1, ok: null };
    const out = redactor.redactValue(value);
    expect(out).toEqual({
      list: ["[REDACTED:email]", { token: "x", access_token: "[REDACTED:secret]" }],
      n: 1,
      ok: null,
    });
    expect(value.list[0]).toBe("a@b.co");
  });
});

describe("createRedactor: options", () => {
  it("adds custom patterns (with or without the g flag) and a custom replacement", () => {
    const custom = createRedactor({ patterns: [/ticket-\d+/, /internal\.corp/gi], replacement: "<hidden>" });
    expect(custom.redactText("ticket-1 ticket-22 on INTERNAL.corp by a@b.co")).toBe(
      "<hidden> <hidden> on <hidden> by <hidden>",
    );
  });

  it("can drop the default patterns", () => {
    const only = createRedactor({ defaults: false, patterns: [/secret-\w+/] });
    expect(only.redactText("secret-abc a@b.co api_key=1")).toBe("[REDACTED] a@b.co api_key=1");
    expect(only.redactValue({ password: "p" })).toEqual({ password: "p" });
  });

  it("does not share regex state with the caller", () => {
    const pattern = /x\d/g;
    const custom = createRedactor({ patterns: [pattern], defaults: false });
    pattern.lastIndex = 5;
    expect(custom.redactText("x1 x2")).toBe("[REDACTED] [REDACTED]");
    expect(pattern.lastIndex).toBe(5);
  });
});
