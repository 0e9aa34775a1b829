import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../models/message.js";
import { type Tool, tool } from "../tools/tool.js";
import { replay } from "./replay.js";
import { copyTrace, recordRun, rehash } from "./test-utils/record-run.js";
import { loadTrace, saveTrace } from "./trace-file.js";
import type { Trace, TraceToolResult } from "./trace-types.js";

const KEY = "sk-proj-UserPastedKey0123456789abcdefABCDEF";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-replay-tool-failures-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A tool failing in every way a tool can, counting its executions. */
function flakyTool(): { tool: Tool; executions: () => number } {
  let count = 0;
  const flaky = tool({
    name: "flaky",
    description: "Fails in several ways",
    parameters: { type: "object", properties: { how: { type: "string" } }, required: ["how"] },
    timeoutMs: 20,
    execute: async ({ how }) => {
      count++;
      if (how === "throw") throw new TypeError("boom: bad input");
      if (how === "secret") throw new Error(`rejected key ${KEY}`);
      if (how === "bigint") return { n: 1n };
      if (how === "hang") return new Promise(() => {});
      return "fine";
    },
  });
  return { tool: flaky, executions: () => count };
}

const STEPS = [
  {
    toolCalls: [
      { id: "t1", name: "flaky", arguments: { how: "throw" } },
      { id: "t2", name: "flaky", arguments: { how: "bigint" } },
      { id: "t3", name: "flaky", arguments: { how: "hang" } },
      { id: "t4", name: "flaky", arguments: { how: "secret" } },
      { id: "t5", name: "flaky", arguments: { how: "ok" } },
      { id: "t6", name: "flaky", arguments: { how: 7 } },
    ],
  },
  { text: "Handled." },
];

const toolMessages = (messages: readonly Message[]) => messages.filter((m) => m.role === "tool");

const toolResults = (trace: Trace): TraceToolResult[] =>
  trace.records.flatMap((r) => (r.kind === "tool_result" ? [r.data] : []));

async function recordFailures() {
  const flaky = flakyTool();
  const recorded = await recordRun({ steps: STEPS, tools: [flaky.tool] });
  return { ...recorded, executions: flaky.executions };
}

describe("replay: tool failures recorded with their structured failure", () => {
  it("records how each tool call failed, in the journal's shape", async () => {
    const { trace } = await recordFailures();
    const failures = Object.fromEntries(toolResults(trace).map((r) => [r.toolCallId, r.failure]));
    expect(failures).toEqual({
      t1: { how: "threw", type: "TypeError", message: "boom: bad input" },
      t2: { how: "unserialisable", type: "TypeError", message: expect.stringContaining("BigInt") },
      t3: { how: "timed_out", type: "ToolTimeoutError", message: 'Tool "flaky" timed out after 20 ms' },
      t4: { how: "threw", type: "Error", message: `rejected key ${KEY}` },
      t5: undefined,
      t6: undefined, // invalid arguments: the executor's own failure, reproduced by the executor
    });
  });

  it("replays a throw, an unserialisable value and a timeout with exactly the same tool messages", async () => {
    const { trace, result, agent, executions } = await recordFailures();
    const ran = executions();
    const replayed = await replay(trace, { agent });
    expect(replayed.divergence).toBeNull();
    expect(toolMessages(replayed.result.messages)).toEqual(toolMessages(result.messages));
    expect(toolMessages(result.messages).map((m) => m.content)).toContain(
      'Tool "flaky" timed out after 20 ms',
    );
    expect(executions()).toBe(ran);
  });

  it("still replays a trace recorded before tool_result records carried their failure (0.1)", async () => {
    const { trace, result, agent } = await recordFailures();
    const old = copyTrace(trace);
    for (const record of old.records) if (record.kind === "tool_result") delete record.data.failure;
    const replayed = await replay(rehash(old), { agent });
    expect(replayed.divergence).toBeNull();
    expect(toolMessages(replayed.result.messages)).toEqual(toolMessages(result.messages));
  });

  it("reads the failure from the text when the two disagree (the model is told what was recorded)", async () => {
    const { trace, result, agent } = await recordFailures();
    const edited = copyTrace(trace);
    const first = edited.records.find((r) => r.kind === "tool_result" && r.data.toolCallId === "t1");
    if (first?.kind !== "tool_result" || first.data.failure === undefined) throw new Error("no failure");
    first.data.failure.message = "something else";
    const replayed = await replay(rehash(edited), { agent });
    expect(replayed.divergence).toBeNull();
    expect(toolMessages(replayed.result.messages)).toEqual(toolMessages(result.messages));
  });

  it("a saved trace (redacted by default) replays its failures with the recorded, redacted text", async () => {
    const { trace, agent } = await recordFailures();
    const path = join(dir, "failures.jsonl");
    await saveTrace({ trace, path });
    const loaded = await loadTrace(path);
    const secret = toolResults(loaded).find((r) => r.toolCallId === "t4");
    expect(secret?.result).not.toContain(KEY);
    expect(secret?.failure?.message).not.toContain(KEY);
    const replayed = await replay(loaded, { agent });
    expect(replayed.divergence).toBeNull();
    const byId = new Map(toolResults(loaded).map((r) => [r.toolCallId, r.result]));
    for (const message of toolMessages(replayed.result.messages)) {
      if (message.role === "tool") expect(message.content).toBe(byId.get(message.toolCallId));
    }
  });
});
