/**
 * Secrets (issue #10): the provider's API key never reaches errors, events, traces (in memory and saved) or
 * stored sessions, even when the provider's error body echoes it; keys in conversation content are redacted in
 * what a FileStore writes to disk. Real providers against local mock servers on 127.0.0.1.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { redactCredentials } from "../../src/http/redact-credentials.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import { createAnthropic } from "../../src/providers/anthropic/create-anthropic.js";
import { startAnthropicMockServer } from "../../src/providers/anthropic/test-utils/anthropic-mock-server.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { FileStore } from "../../src/stores/file-store.js";
import { createRedactor } from "../../src/stores/redactor.js";
import { startMockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";
import { tool } from "../../src/tools/tool.js";
import { saveTrace } from "../../src/trace/trace-file.js";

const OPENAI_KEY = "sk-test-SECRET0123456789abcdefABCDEFabcd";
/** Not `sk-…`: only the exact value can be found, no pattern matches it. */
const ANTHROPIC_KEY = "anthropic-live-SECRET-9f8e7d6c5b4a3210";
const AZURE_KEY = "azure0SECRET1key2in3a4custom5header";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "agentloop-secrets-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every file under `dir`, concatenated. */
async function filesUnder(root: string): Promise<string> {
  const names = await readdir(root, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    names
      .filter((entry) => entry.isFile())
      .map((entry) => readFile(path.join(entry.parentPath, entry.name), "utf8")),
  );
  return texts.join("\n");
}

/** Asserts `secret` is in none of the places a run's failure can reach: the error, its JSON, events, trace. */
async function expectNowhere(
  secret: string,
  result: AgentResult,
  events: readonly AgentEvent[] = [],
): Promise<void> {
  const error = result.error as (Error & { body?: unknown }) | undefined;
  expect(error, "the run should have failed").toBeDefined();
  expect(error?.message).not.toContain(secret);
  expect(String(error?.body)).not.toContain(secret);
  expect(JSON.stringify(error)).not.toContain(secret);
  expect(String(error?.cause)).not.toContain(secret);
  expect(error?.stack).not.toContain(secret);
  expect(JSON.stringify(result.events)).not.toContain(secret);
  expect(JSON.stringify(events)).not.toContain(secret);
  expect(result.trace).toBeDefined();
  expect(JSON.stringify(result.trace)).not.toContain(secret);
  const traceFile = path.join(dir, `trace-${Math.random().toString(36).slice(2)}.jsonl`);
  await saveTrace({ trace: result.trace as NonNullable<AgentResult["trace"]>, path: traceFile });
  expect(await readFile(traceFile, "utf8")).not.toContain(secret);
}

const echo401 = (key: string) => ({
  error: {
    message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    type: "invalid_request_error",
    param: null,
    code: "invalid_api_key",
  },
});

describe("the provider's API key, echoed by the provider's error", () => {
  it("OpenAI: a 401 (run) and a retried 500 then 401 (stream) never carry the key anywhere", async () => {
    const server = await startMockOpenAIServer({
      script: [
        { fault: { status: 401, body: echo401(OPENAI_KEY) } },
        {
          fault: {
            status: 500,
            retryAfterMs: 0,
            body: `<html>upstream auth=Bearer ${OPENAI_KEY} failed</html>`,
          },
        },
        { fault: { status: 401, body: echo401(OPENAI_KEY) } },
      ],
    });
    const sessions = path.join(dir, "openai-sessions");
    try {
      const openai = createOpenAI({
        baseURL: server.url,
        apiKey: OPENAI_KEY,
        retry: { maxRetries: 1, baseDelayMs: 1 },
      });
      const agent = new Agent({
        model: openai("gpt-4o-mini"),
        trace: true,
        store: new FileStore({ dir: sessions }),
      });

      const ran = await agent.run("hello", { sessionId: "run" });
      expect(ran.stopReason).toBe("error");
      expect(ran.error?.message).toMatch(
        /answered 401: Incorrect API key provided: \[REDACTED:credential\]\./,
      );
      await expectNowhere(OPENAI_KEY, ran);

      const stream = agent.stream("hello", { sessionId: "stream" });
      const events: AgentEvent[] = [];
      for await (const event of stream) events.push(event);
      const streamed = await stream.result;
      expect(events.filter((e) => e.type === "retry")).toHaveLength(1);
      expect(streamed.error?.message).toMatch(/answered 401/);
      await expectNowhere(OPENAI_KEY, streamed, events);

      expect(server.requests.map((r) => r.headers.authorization)).toEqual(
        Array(3).fill(`Bearer ${OPENAI_KEY}`),
      );
      expect(await filesUnder(sessions)).not.toContain(OPENAI_KEY);
    } finally {
      await server.close();
    }
  });

  it("OpenAI-compatible: a key in a custom header (Azure's api-key) is removed too", async () => {
    const server = await startMockOpenAIServer({
      script: [{ fault: { status: 403, body: { error: { message: `key ${AZURE_KEY} is not allowed` } } } }],
    });
    try {
      const provider = createOpenAI({ baseURL: server.url, apiKey: "", headers: { "api-key": AZURE_KEY } });
      const result = await new Agent({ model: provider("gpt-4o-mini"), trace: true }).run("hello");
      expect(result.error?.message).toMatch(/answered 403: key \[REDACTED:credential\] is not allowed/);
      await expectNowhere(AZURE_KEY, result);
    } finally {
      await server.close();
    }
  });

  it("Anthropic: a 401 that echoes the x-api-key never carries it, for run and stream", async () => {
    const body = JSON.stringify({
      type: "error",
      error: { type: "authentication_error", message: `invalid x-api-key: ${ANTHROPIC_KEY}` },
    });
    const server = await startAnthropicMockServer([{ status: 401, errorBody: body }]);
    try {
      const anthropic = createAnthropic({ baseURL: server.baseURL, apiKey: ANTHROPIC_KEY });
      const agent = new Agent({ model: anthropic("claude-haiku-4-5"), trace: true });
      const ran = await agent.run("hello");
      expect(ran.error?.message).toMatch(/answered 401: invalid x-api-key: \[REDACTED:credential\]/);
      await expectNowhere(ANTHROPIC_KEY, ran);
      const stream = agent.stream("hello");
      const events: AgentEvent[] = [];
      for await (const event of stream) events.push(event);
      await expectNowhere(ANTHROPIC_KEY, await stream.result, events);
      expect(server.requests.map((r) => r.headers["x-api-key"])).toEqual([ANTHROPIC_KEY, ANTHROPIC_KEY]);
    } finally {
      await server.close();
    }
  });

  it("redactCredentials removes credential header values and bearer tokens, longest first", () => {
    const headers = {
      authorization: `Bearer ${OPENAI_KEY}`,
      "x-api-key": ANTHROPIC_KEY,
      "content-type": "application/json",
      "x-short-token": "abc",
    };
    expect(
      redactCredentials({
        text: `a=Bearer ${OPENAI_KEY} b=${OPENAI_KEY} c=${ANTHROPIC_KEY} d=application/json e=abc`,
        headers,
      }),
    ).toBe(
      "a=[REDACTED:credential] b=[REDACTED:credential] c=[REDACTED:credential] d=application/json e=abc",
    );
  });
});

describe("keys in the conversation", () => {
  it("are redacted in the FileStore session file (user message, tool arguments and tool result)", async () => {
    const userKey = "sk-proj-USERkey0123456789abcdefghij";
    const toolKey = "sk-ant-api03-TOOLkey0123456789abcdef";
    const lookup = tool({
      name: "lookup",
      description: "Looks up a config value",
      parameters: z.object({ name: z.string() }),
      execute: () => `OPENAI_API_KEY=${toolKey}`,
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "lookup", arguments: { name: "key", apiKey: userKey } }] },
      { text: `Your key ${toolKey} is set.` },
    ]);
    const sessions = path.join(dir, "content-sessions");
    // Stored redaction is opt-in (the stored conversation is what the model sees on later runs).
    const agent = new Agent({
      model,
      tools: [lookup],
      store: new FileStore({ dir: sessions }),
      redact: true,
    });
    const result = await agent.run(`my key is ${userKey}`, { sessionId: "chat" });
    expect(result.stopReason).toBe("completed");
    // The run itself keeps the content (documented: only what is persisted is redacted).
    expect(JSON.stringify(result.messages)).toContain(userKey);
    const onDisk = await filesUnder(sessions);
    expect(onDisk).toContain("[REDACTED:api_key]");
    expect(onDisk).not.toContain(userKey);
    expect(onDisk).not.toContain(toolKey);
  });

  it("a PEM private key is redacted whole by the default redactor (the session stores' default)", () => {
    const pem = [
      "-----BEGIN OPENSSH PRIVATE KEY-----",
      "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
      "QyNTUxOQAAACDQlE0cYmD0gk3gYvW6ZwYkZTiUSDW5q3t4fZ9qjXbX3AAAAJgAAAAAAAAA",
      "-----END OPENSSH PRIVATE KEY-----",
    ].join("\n");
    const redactor = createRedactor();
    expect(redactor.redactText(`key:\n${pem}\nthanks`)).toBe("key:\n[REDACTED:private_key]\nthanks");
    // Without its END line: the header and the base64 lines after it.
    expect(redactor.redactText(pem.split("\n").slice(0, 3).join("\n"))).toBe("[REDACTED:private_key]");
  });
});
