import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { DEFAULT_REDACTION_RULES } from "../stores/redaction-rule.js";
import type {
  GuardrailCheck,
  GuardrailVerdict,
  InputGuardrail,
  OutputGuardrail,
  ToolGuardrail,
} from "./guardrail.js";
import { type SecretKind, secretsGuardrail } from "./secrets-guardrail.js";

// Fake credentials of the right shapes (never real ones), built so that no scanner mistakes this file for a leak.
const alnum = (n: number, seed = 7) =>
  Array.from({ length: n }, (_, i) => "aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0z"[(i * seed) % 31]).join("");
const signal = new AbortController().signal;

const input = (text: string): GuardrailCheck => ({ kind: "input", input: text, messages: [], signal });
const output = (text: string, value?: unknown): GuardrailCheck => ({
  kind: "output",
  text,
  output: value,
  messages: [],
  signal,
});
const result = (text: string): GuardrailCheck => ({
  kind: "tool",
  phase: "result",
  toolName: "read_file",
  toolCallId: "c1",
  arguments: { path: ".env" },
  rawArguments: '{"path":".env"}',
  turn: 1,
  result: text,
  ok: true,
  messages: [],
  signal,
});
const call = (rawArguments: string, args?: unknown): GuardrailCheck => ({
  kind: "tool",
  phase: "call",
  toolName: "http_get",
  toolCallId: "c2",
  arguments: args,
  rawArguments,
  turn: 1,
  messages: [],
  signal,
});

const verdict = (check: GuardrailCheck, guardrail = secretsGuardrail()) =>
  guardrail.check(check) as GuardrailVerdict;

describe("secretsGuardrail", () => {
  it.each([
    ["an OpenAI project key", `use ${"sk"}-proj-${alnum(40)} for this`, "api_key"],
    ["an Anthropic key", `key: ${"sk"}-ant-api03-${alnum(60)}`, "api_key"],
    ["a GitHub token", `git clone https://${"ghp"}_${alnum(36)}@github.com/x/y`, "github_token"],
    ["an AWS access key id", `aws_access_key_id = ${"AKIA"}IOSFODNN7EXAMPL3`, "aws_access_key"],
    ["a Slack bot token", `${"xoxb"}-1234567890-0987654321-${alnum(24)}`, "slack_token"],
    ["a Stripe key", `STRIPE=${"sk_live"}_${alnum(24)}`, "stripe_key"],
    ["a JWT", `Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${alnum(43)}`, "jwt"],
    ["a bearer token", `curl -H "Authorization: Bearer ${alnum(40)}"`, "bearer_token"],
    ["a password assignment", `DB_PASSWORD=Tr0ub4dor-3xyzzy99`, "secret"],
    [
      "a PEM private key",
      `-----BEGIN RSA ${"PRIVATE"} KEY-----\nMIIEow${alnum(60)}\n-----END RSA ${"PRIVATE"} KEY-----`,
      "private_key",
    ],
    ["an email address", "Reach Jane at jane.doe@example.com tomorrow.", "email"],
  ])("finds %s", (_, text, kind) => {
    const found = verdict(input(text));
    expect(found.block).toBe(true);
    expect(found.block && found.reason).toContain(kind);
    expect(found.block && found.reason).toMatch(/^the input contains /);
  });

  it.each([
    "What is the capital of France?",
    "The password field must be at least 12 characters; see the docs.",
    "Use Bearer authentication with your token.",
    "pip install scikit-learn; sk-learn is its old name",
    "icon@2x.png and logo@3x.png are the retina assets",
    "The secret: we launch on Monday.",
    "",
  ])("lets ordinary text through: %j", (text) => {
    expect(verdict(input(text))).toEqual({ block: false });
  });

  it("names the kinds found, never the secret", () => {
    const key = `${"sk"}-proj-${alnum(40)}`;
    const found = verdict(result(`OPENAI_API_KEY=${key}\nADMIN=ops@example.org`));
    expect(found).toEqual({
      block: true,
      reason: "the result of read_file contains api_key, secret, email",
    });
    expect(JSON.stringify(found)).not.toContain(key.slice(8));
  });

  it("checks a call's raw arguments, and the typed answer when the answer has no text", () => {
    expect(verdict(call(`{"url":"https://x.test/?token=${"ghp"}_${alnum(36)}"}`))).toMatchObject({
      block: true,
      reason: "the arguments of http_get contains github_token",
    });
    expect(verdict(call("", { to: "bob@example.com" }))).toMatchObject({ block: true });
    expect(verdict(output("", { contact: "bob@example.com" }))).toMatchObject({
      block: true,
      reason: "the answer contains email",
    });
  });

  it("looks at text parts only (images are not text)", () => {
    const check: GuardrailCheck = {
      kind: "input",
      input: [
        { type: "text", text: "what is in this picture?" },
        {
          type: "image",
          data: "c2stcHJvai1hYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejEyMzQ1Njc4OTA=",
          mediaType: "image/png",
        },
      ],
      messages: [],
      signal,
    };
    expect(verdict(check)).toEqual({ block: false });
  });

  it("kinds picks what to look for; patterns add your own", () => {
    const pii = secretsGuardrail({ kinds: ["email"], name: "pii" });
    expect(pii.name).toBe("pii");
    expect(verdict(input(`${"sk"}-proj-${alnum(40)}`), pii)).toEqual({ block: false });
    expect(verdict(input("write to a@example.com"), pii)).toMatchObject({ block: true });
    const ssn = secretsGuardrail({ kinds: [], patterns: [/\b\d{3}-\d{2}-\d{4}\b/] });
    expect(verdict(input("my SSN is 078-05-1120"), ssn)).toEqual({
      block: true,
      reason: "the input contains custom",
    });
  });

  it("refuses unknown kinds and non-regex patterns", () => {
    expect(() => secretsGuardrail({ kinds: ["emails" as SecretKind] })).toThrow(InvalidArgumentError);
    expect(() => secretsGuardrail({ patterns: ["x" as unknown as RegExp] })).toThrow(InvalidArgumentError);
  });

  it("its kinds are exactly the redactor's", () => {
    const kinds: Record<SecretKind, true> = {
      private_key: true,
      api_key: true,
      bearer_token: true,
      github_token: true,
      slack_token: true,
      stripe_key: true,
      google_api_key: true,
      npm_token: true,
      jwt: true,
      basic_auth: true,
      cookie: true,
      secret: true,
      aws_access_key: true,
      email: true,
    };
    expect(new Set(DEFAULT_REDACTION_RULES.map((rule) => rule.kind))).toEqual(new Set(Object.keys(kinds)));
  });

  it("one object serves as input, output and tool guardrail (types and values)", () => {
    const guardrail = secretsGuardrail({ phase: "result", mode: "parallel" });
    const asInput: InputGuardrail = guardrail;
    const asOutput: OutputGuardrail = guardrail;
    const asTool: ToolGuardrail = guardrail;
    expect([asInput.mode, asTool.phase, asOutput.name]).toEqual(["parallel", "result", "secrets"]);
  });

  it("stays fast on a megabyte of adversarial text", () => {
    const text = `${"sk-".repeat(100_000)}${"a@".repeat(100_000)}${"password=".repeat(50_000)}`;
    const t0 = performance.now();
    verdict(input(text));
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
