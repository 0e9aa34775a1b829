import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { validateHistory } from "../../src/context/validate-history.js";
import { EmptyResponseError } from "../../src/errors/empty-response-error.js";
import { ModelCallError } from "../../src/errors/model-call-error.js";
import type { AgentEventOf } from "../../src/loop/agent-event.js";
import type { AgentLimits } from "../../src/loop/agent-limits.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import type { MockReply, MockToolCall } from "../../src/testing/mock-reply.js";
import { tool } from "../../src/tools/tool.js";

// Bad output from the model, sent over the wire by a real local OpenAI-compatible server and read by the real
// provider: the loop must feed a clear error back (or end with one), never run a call it cannot trust, and
// keep the history valid.

let server: MockOpenAIServer;
let executions: string[];

const lookup = tool({
  name: "lookup",
  description: "Look a word up",
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => {
    executions.push(word.length > 40 ? `${word.slice(0, 10)}…(${word.length})` : word);
    return `definition of ${word.slice(0, 20)}`;
  },
});

beforeEach(async () => {
  executions = [];
  server = await startMockOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

function agent(limits?: Partial<AgentLimits>) {
  return new Agent({
    model: createOpenAI({ baseURL: server.url, apiKey: "k", retry: { baseDelayMs: 1, maxRetries: 1 } })(
      "gpt-4o-mini",
    ),
    tools: [lookup],
    retry: { baseDelayMs: 1, maxRetries: 1 },
    ...(limits !== undefined && { limits }),
  });
}

const call = (args: unknown, name = "lookup", id = "call_1"): MockToolCall => ({ id, name, arguments: args });

/** The tool messages the model received in request `index`. */
function toolResults(index: number): Array<{ tool_call_id: string; content: string }> {
  const body = server.requests[index]?.body as { messages: Array<{ role: string }> } | undefined;
  return (body?.messages ?? []).filter((m) => m.role === "tool") as Array<{
    tool_call_id: string;
    content: string;
  }>;
}

const errorsOf = (result: AgentResult) =>
  result.events.filter((e): e is AgentEventOf<"error"> => e.type === "error");

describe.each([false, true])("bad model output (stream: %s)", (streaming) => {
  const runIt = (a: Agent, input: string) => (streaming ? a.stream(input).result : a.run(input));

  it("arguments that are not JSON: not executed, the parse error goes back to the model, the run recovers", async () => {
    server.setScript([
      { toolCalls: [call('{"word": "lo')] },
      { toolCalls: [call({ word: "loop" })] },
      { text: "ok" },
    ]);
    const result = await runIt(agent(), "go");
    expect(result.stopReason).toBe("completed");
    expect(executions).toEqual(["loop"]);
    const [first] = toolResults(1);
    expect(first?.content).toMatch(/received invalid JSON/i);
    expect(first?.content).toContain('{"word": "lo');
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("JSON of the wrong shape: the schema error names the field and what was expected", async () => {
    server.setScript([{ toolCalls: [call({ word: 42, extra: true })] }, { text: "ok" }]);
    const result = await runIt(agent(), "go");
    expect(result.stopReason).toBe("completed");
    expect(executions).toEqual([]);
    const content = toolResults(1)[0]?.content ?? "";
    expect(content).toMatch(/word/);
    expect(content).toMatch(/string/i);
    expect(result.toolCalls[0]).toMatchObject({ ok: false });
  });

  it("huge arguments (1 MB) are parsed and validated once; the tool runs once with all of it", async () => {
    const word = "x".repeat(1_000_000);
    server.setScript([{ toolCalls: [call({ word })] }, { text: "ok" }]);
    const result = await runIt(agent(), "go");
    expect(result.stopReason).toBe("completed");
    expect(executions).toEqual([`xxxxxxxxxx…(1000000)`]);
  });

  it("huge arguments that are not JSON: the error sent back is bounded, not the whole megabyte", async () => {
    server.setScript([{ toolCalls: [call(`{"word": "${"y".repeat(1_000_000)}`)] }, { text: "ok" }]);
    const result = await runIt(agent(), "go");
    expect(result.stopReason).toBe("completed");
    expect(executions).toEqual([]);
    const content = toolResults(1)[0]?.content ?? "";
    expect(content).toMatch(/received invalid JSON/i);
    expect(content.length).toBeLessThan(2_000);
  });

  it("an unknown tool: the model is told which tools exist, and the run goes on", async () => {
    server.setScript([
      { toolCalls: [call({ word: "a" }, "lookpu")] },
      { toolCalls: [call({ word: "a" })] },
      { text: "ok" },
    ]);
    const result = await runIt(agent(), "go");
    expect(result.stopReason).toBe("completed");
    expect(toolResults(1)[0]?.content).toMatch(/Unknown tool "lookpu".*lookup/s);
    expect(executions).toEqual(["a"]);
  });

  it("a response with neither text nor tool calls ends the run with EmptyResponseError, history untouched", async () => {
    const store = new MemoryStore();
    server.setScript([{ toolCalls: [call({ word: "a" })] }, { text: "", finishReason: "length" }]);
    const a = new Agent({ model: agent().model, tools: [lookup], store });
    const result = streaming
      ? await a.stream("go", { sessionId: "s" }).result
      : await a.run("go", { sessionId: "s" });
    expect(result.stopReason).toBe("error");
    expect(EmptyResponseError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/empty response.*finish reason: length.*maxOutputTokens/);
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect((await store.load("s"))?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(result.events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "error" } });
  });

  it("thousands of tool calls in one response: none run, each is answered with the limit, the run goes on", async () => {
    const calls = Array.from({ length: 3_000 }, (_, i) => call({ word: `w${i}` }, "lookup", `call_${i}`));
    server.setScript([{ toolCalls: calls }, { toolCalls: [call({ word: "one" })] }, { text: "ok" }]);
    const result = await runIt(agent(), "go");
    expect(result.stopReason).toBe("completed");
    expect(executions).toEqual(["one"]);
    const answered = toolResults(1);
    expect(answered).toHaveLength(3_000);
    expect(answered[2_999]?.content).toBe(
      "Not executed: the response made 3000 tool calls and at most 128 are allowed in one response, so none ran; make at most 128 calls at a time.",
    );
    expect(errorsOf(result).map((e) => [e.data.name, e.data.fatal])).toEqual([["TooManyToolCalls", false]]);
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("the tool-call limit is exact: at the limit every call runs, one more and none do", async () => {
    const batch = (n: number) =>
      Array.from({ length: n }, (_, i) => call({ word: `${n}-${i}` }, "lookup", `c${n}_${i}`));
    server.setScript([{ toolCalls: batch(3) }, { toolCalls: batch(4) }, { text: "ok" }]);
    const result = await runIt(agent({ maxToolCallsPerTurn: 3 }), "go");
    expect(result.stopReason).toBe("completed");
    expect(executions.sort()).toEqual(["3-0", "3-1", "3-2"]);
    expect(toolResults(2).slice(3)).toHaveLength(4);
    expect(toolResults(2).slice(3)[0]?.content).toMatch(/made 4 tool calls and at most 3/);
  });
});

describe("a response that is not a response", () => {
  it("non-streaming: an empty 200 body is a clear, non-retryable error (one request)", async () => {
    server.setScript([{ fault: { status: 200, body: "" } } as MockReply]);
    const result = await agent().run("go");
    expect(result.stopReason).toBe("error");
    expect(ModelCallError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/200 with a body that is not JSON/);
    expect(server.requests).toHaveLength(1);
  });

  it("streaming: an empty 200 stream is retried as an interrupted stream, then ends with a clear error", async () => {
    server.setScript(() => ({ fault: { status: 200, body: "" } }));
    const result = await agent().stream("go").result;
    expect(result.stopReason).toBe("error");
    expect(result.error?.message).toMatch(/ended|finish/i);
    expect(server.requests).toHaveLength(2); // maxRetries: 1
  });
});
