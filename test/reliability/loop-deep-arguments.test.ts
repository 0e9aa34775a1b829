import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import type { ToolCall } from "../../src/models/message.js";
import type { Model, ModelResponse } from "../../src/models/model.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { FileStore } from "../../src/stores/file-store.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";
import { tool } from "../../src/tools/tool.js";
import { jsonTextTooDeep, valueTooDeep } from "../../src/util/json-depth.js";

// Tool-call arguments nested thousands of levels deep are refused with a message the model can act on; nothing
// (loop detection, the trace hash chain, the session store, the provider's history conversion) overflows the
// stack, and the user's message is saved in the session.

const deepText = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const deepValue = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

const echo = tool({
  name: "echo",
  description: "echoes",
  parameters: { type: "object", properties: {}, additionalProperties: true },
  execute: () => "echoed",
});

let server: MockOpenAIServer;
let dir: string;
beforeAll(async () => {
  server = await startMockOpenAIServer();
  dir = await mkdtemp(join(tmpdir(), "agentloop-deep-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function expectRefused(result: AgentResult, store: FileStore, sessionId: string): Promise<void> {
  expect(result.stopReason).toBe("completed");
  expect(result.text).toBe("ok");
  expect(result.toolCalls[0]?.ok).toBe(false);
  expect(result.toolCalls[0]?.result).toMatch(/nested deeper than 64 levels/);
  const stored = (await store.load(sessionId))?.messages ?? [];
  expect(stored[0]).toMatchObject({ role: "user", content: "deep" });
  expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
}

describe.each([10_000, 100_000])("arguments nested %i levels deep", (depth) => {
  it.each(["run", "stream"] as const)("through the OpenAI provider and a real server (%s)", async (mode) => {
    server.setScript([
      { toolCalls: [{ id: "c1", name: "echo", arguments: deepText(depth) }] },
      { text: "ok" },
    ]);
    const store = new FileStore({ dir });
    const sessionId = `openai-${depth}-${mode}`;
    const agent = new Agent({
      model: createOpenAI({ baseURL: server.url, apiKey: "test" })("gpt-4o-mini"),
      tools: [echo],
      store,
      trace: true,
    });
    const result =
      mode === "run"
        ? await agent.run("deep", { sessionId })
        : await agent.stream("deep", { sessionId }).result;
    await expectRefused(result, store, sessionId);
    // The trace hash chain was computed over the refused call (its raw text, never the deep value).
    expect(result.trace?.records.length).toBeGreaterThan(0);
  });

  it("through ScriptedModel", async () => {
    const store = new FileStore({ dir });
    const sessionId = `scripted-${depth}`;
    const model = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "echo", arguments: deepText(depth) }] },
      { text: "ok" },
    ]);
    const result = await new Agent({ model, tools: [echo], store, trace: true }).run("deep", { sessionId });
    await expectRefused(result, store, sessionId);
  });

  it("from a custom Model that hands over the deep value itself", async () => {
    const call: ToolCall = { id: "c1", name: "echo", arguments: deepValue(depth), rawArguments: "" };
    const answers: ModelResponse[] = [
      {
        text: "",
        toolCalls: [call],
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        finishReason: { unified: "tool_calls", raw: "tool_calls" },
      },
      {
        text: "ok",
        toolCalls: [],
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        finishReason: { unified: "stop", raw: "stop" },
      },
    ];
    let index = 0;
    const model: Model = {
      provider: "custom",
      modelId: "deep",
      generate: async () => answers[index++] as ModelResponse,
      stream: () => {
        throw new Error("not used");
      },
    };
    const store = new FileStore({ dir });
    const sessionId = `custom-${depth}`;
    const result = await new Agent({ model, tools: [echo], store }).run("deep", { sessionId });
    await expectRefused(result, store, sessionId);
  });
});

describe("depth checks", () => {
  it("count brackets outside strings only, and stop at the limit", () => {
    expect(jsonTextTooDeep(deepText(64))).toBe(false);
    expect(jsonTextTooDeep(deepText(65))).toBe(true);
    expect(jsonTextTooDeep(JSON.stringify({ a: "[".repeat(1000), b: '\\"[[[' }))).toBe(false);
    expect(valueTooDeep(deepValue(63))).toBe(false);
    expect(valueTooDeep(deepValue(64))).toBe(true);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(valueTooDeep(cycle)).toBe(true);
    // A wide shared graph is walked in bounded time.
    let shared: unknown = {};
    for (let i = 0; i < 50; i++) shared = { a: shared, b: shared };
    expect(valueTooDeep(shared)).toBe(false);
  });

  it("lets 64 levels through", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "echo", arguments: { a: deepValue(62) } }] },
      { text: "ok" },
    ]);
    const result = await new Agent({ model, tools: [echo] }).run("deep");
    expect(result.toolCalls[0]).toMatchObject({ ok: true, result: "echoed" });
  });
});
