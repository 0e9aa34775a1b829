import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { hashRecord } from "./hash-record.js";
import { replay } from "./replay.js";
import { loadTrace, saveTrace } from "./trace-file.js";
import type { Trace } from "./trace-types.js";
import { verifyTrace } from "./verify-trace.js";

let executions = 0;
const lookup = tool({
  name: "lookup",
  description: "looks up a word",
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => {
    executions++;
    return `${word}: a small domesticated carnivore`;
  },
});

const script = () =>
  new ScriptedModel([
    { toolCalls: [{ id: "c1", name: "lookup", arguments: { word: "cat" } }] },
    { text: "A cat is a small domesticated carnivore." },
  ]);

/** Re-hashes a trace from `from` on (as someone legitimately re-recording would). */
function rehash(trace: Trace): Trace {
  let prevHash = "0".repeat(64);
  const records = trace.records.map((r) => {
    const record = { ...r, prevHash, hash: hashRecord({ seq: r.seq, kind: r.kind, data: r.data, prevHash }) };
    prevHash = record.hash;
    return record;
  });
  return { ...trace, records };
}

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("Agent traces", () => {
  it("records a run, saves and loads it losslessly, and replays it offline to the same answer", async () => {
    executions = 0;
    const model = script();
    const agent = new Agent({ model, tools: [lookup], system: "Define words.", trace: true });
    const recorded = await agent.run("What is a cat?");
    const trace = recorded.trace;
    expect(trace).toBeDefined();
    if (trace === undefined) return;
    expect(verifyTrace(trace)).toEqual({ ok: true });
    expect(
      trace.records.filter((r) => r.kind === "event").map((r) => (r.data as { type: string }).type),
    ).toEqual(recorded.events.map((e) => e.type));
    dir = await mkdtemp(join(tmpdir(), "agentloop-trace-"));
    const file = join(dir, "run.jsonl");
    await saveTrace({ trace, path: file });
    const loaded = await loadTrace(file);
    expect(loaded).toEqual(trace);

    const before = { modelCalls: model.calls.length, executions };
    const { result, divergence } = await replay(loaded, { agent });
    expect(divergence).toBeNull();
    expect(result.text).toBe(recorded.text);
    expect(model.calls.length).toBe(before.modelCalls); // no model call: answered from the recording
    expect(executions).toBe(before.executions); // no tool run: results from the recording
  });

  it("detects a modified trace with verifyTrace and, once re-hashed, as a replay divergence", async () => {
    const agent = new Agent({ model: script(), tools: [lookup], trace: true });
    const trace = (await agent.run("What is a cat?")).trace as Trace;
    const index = trace.records.findIndex((r) => r.kind === "tool_result");
    const tampered: Trace = structuredClone(trace);
    const record = tampered.records[index];
    if (record === undefined) throw new Error("no tool_result record");
    (record.data as { result: string }).result = "cat: a kind of dog";
    expect(verifyTrace(tampered)).toMatchObject({ ok: false, brokenAt: record.seq });
    await expect(replay(tampered, { agent })).rejects.toThrow(/trace/i);

    const rerecorded = rehash(tampered);
    expect(verifyTrace(rerecorded)).toEqual({ ok: true });
    const { divergence } = await replay(rerecorded, { agent });
    expect(divergence).toMatchObject({ call: 1, path: expect.stringMatching(/^messages\[\d+\]\.content$/) });
  });

  it("records streamed runs and run-level trace options", async () => {
    const agent = new Agent({ model: script(), tools: [lookup] });
    const stream = agent.stream("What is a cat?", { trace: true });
    for await (const _ of stream) {
      // consume
    }
    const result = await stream.result;
    expect(
      result.trace?.records.some(
        (r) => r.kind === "model_request" && (r.data as { mode: string }).mode === "stream",
      ),
    ).toBe(true);
    expect((await new Agent({ model: script(), tools: [lookup] }).run("x")).trace).toBeUndefined();
  });
});
