import { describe, expect, it } from "vitest";
import { z } from "zod";
import { askUserTool } from "../builtin-tools/ask-user-tool.js";
import { calculator } from "../builtin-tools/calculator.js";
import { currentTimeTool } from "../builtin-tools/current-time-tool.js";
import { fileTools } from "../builtin-tools/file-tools.js";
import { httpGetTool } from "../builtin-tools/http-get-tool.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { workingMemoryTools } from "../memory/working-memory-tools.js";
import { findSecretInTool } from "./find-secret-in-tool.js";
import { type Tool, tool } from "./tool.js";
import { ToolRegistry } from "./tool-registry.js";

const OPENAI_KEY = "sk-proj-Abc123def456GHI789jkl012MNO345";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
const PEM = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
  "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

function described(description: string, city = "City name"): Tool {
  return tool({
    name: "weather",
    description,
    parameters: z.object({ city: z.string().describe(city) }),
    execute: () => "sunny",
  });
}

function registrationError(candidate: Tool): Error {
  try {
    new ToolRegistry().register(candidate);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected register() to throw");
}

describe("findSecretInTool", () => {
  it.each([
    ["an OpenAI key", `Calls the API with ${OPENAI_KEY}`, "api_key"],
    ["an Anthropic key", "key sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2", "api_key"],
    ["a bearer token", `Send Authorization: Bearer ${JWT}`, "bearer_token"],
    ["a password pair", 'Log in with {"password": "hunter2Hunter2!"}', "secret"],
    ["an api_key pair", "Use api_key=a1b2c3d4e5f6g7h8 for the request", "secret"],
    ["an AWS access key id", "Bucket reader (AKIAIOSFODNN7EXAMPLE)", "aws_access_key"],
    ["a PEM private key", `Signs with\n${PEM}`, "private_key"],
  ])("finds %s in the description", (_label, description, kind) => {
    const finding = findSecretInTool({ tool: described(description) });
    expect(finding).toMatchObject({ kind, location: "description" });
    expect(finding?.preview).toMatch(/^.{4}…$/);
  });

  it("finds a secret in a parameter description, nested anywhere in the schema", () => {
    expect(findSecretInTool({ tool: described("Weather", `City; auth with ${OPENAI_KEY}`) })).toEqual({
      kind: "api_key",
      location: "parameters.properties.city.description",
      preview: "sk-p…",
    });
    const nested = tool({
      name: "nested",
      description: "Nested",
      parameters: {
        type: "object",
        properties: {
          items: {
            type: "array",
            items: { type: "object", title: `Bearer ${JWT}`, properties: {} },
          },
        },
      },
      execute: () => "",
    });
    expect(findSecretInTool({ tool: nested })).toMatchObject({
      kind: "bearer_token",
      location: "parameters.properties.items.items.title",
    });
  });

  it.each([
    ["prose about keys", "Needs an API key: pass it as the api_key argument (format sk-...)."],
    ["prose about passwords", "password: the user's password, checked against the directory"],
    ["the word bearer", "Uses Bearer authentication; the token comes from the environment"],
    ["an e-mail address", "Questions? Write to support@example.com"],
    ["sk- words", "Uses sk-learn and scikit models"],
  ])("leaves %s alone", (_label, description) => {
    expect(findSecretInTool({ tool: described(description) })).toBeUndefined();
  });

  it("passes every built-in tool", () => {
    const builtins: Tool[] = [
      calculator as Tool,
      askUserTool({ ask: async () => "yes" }) as Tool,
      currentTimeTool() as Tool,
      httpGetTool({ allowHosts: ["example.com"] }) as Tool,
      ...(fileTools({ root: "." }) as Tool[]),
      ...(workingMemoryTools() as Tool[]),
    ];
    for (const builtin of builtins) expect(findSecretInTool({ tool: builtin })).toBeUndefined();
  });

  it("does not walk enum values or defaults (only prose the model reads as description)", () => {
    const withEnum = tool({
      name: "pick",
      description: "Pick one",
      parameters: { type: "object", properties: { v: { type: "string", enum: [OPENAI_KEY] } } },
      execute: () => "",
    });
    expect(findSecretInTool({ tool: withEnum })).toBeUndefined();
  });
});

describe("ToolRegistry.register: secrets in descriptions", () => {
  it("throws an InvalidArgumentError naming the tool, the kind and the place, without the secret", () => {
    const error = registrationError(described(`Calls the API with ${OPENAI_KEY}`));
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /tool "weather" has what looks like an API key \(api_key\) in its description/,
    );
    expect(error.message).toContain('starting "sk-p…"');
    expect(error.message).not.toContain(OPENAI_KEY);
    expect(JSON.stringify(error)).not.toContain(OPENAI_KEY);

    const pem = registrationError(described("Signs things", `The key:\n${PEM}`));
    expect(pem.message).toMatch(
      /a private key \(private_key\) in its parameters\.properties\.city\.description/,
    );
    expect(pem.message).not.toContain("MIIEowIBAAKCAQEA");
  });

  it("refuses through the constructor and registerMany too", () => {
    const leaky = described(`Authorization: Bearer ${JWT}`);
    expect(() => new ToolRegistry({ tools: [leaky] })).toThrow(/bearer token/);
    expect(() => new ToolRegistry().registerMany([calculator as Tool, leaky])).toThrow(/bearer token/);
  });

  it("scans a clean tool once, however often it is registered", () => {
    let reads = 0;
    const text = "Lorem ipsum: api key, token, secret and bearer are words here. ".repeat(20_000);
    const base = described("x");
    const counting: Tool = {
      ...base,
      spec: {
        name: "counting",
        get description() {
          reads++;
          return text;
        },
        parameters: base.spec.parameters,
      },
    };
    for (let i = 0; i < 100; i++) new ToolRegistry().register(counting);
    expect(reads).toBe(1);
  });
});
