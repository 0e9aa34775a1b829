import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { FinishReason } from "../models/finish-reason.js";
import type { ModelResponse } from "../models/model.js";
import { replay } from "./replay.js";
import { countingWeatherTool, recordRun, rehash, TOOL_RUN_STEPS } from "./test-utils/record-run.js";
import { loadTrace } from "./trace-file.js";
import type { Trace } from "./trace-types.js";
import { upgradeTrace } from "./upgrade-trace.js";
import { verifyTrace } from "./verify-trace.js";

// A trace as agentloop 0.1 saved it: events with `step` (not `turn`), tool calls named `tool` / `args` in
// events and `tool_result` records, finish reasons in kebab-case (`tool-calls`).
const FIXTURE = new URL("./test-utils/trace-0.1.jsonl", import.meta.url);

async function legacyTrace(): Promise<Trace> {
  const lines = (await readFile(FIXTURE, "utf8")).trimEnd().split("\n").slice(1);
  return { version: 1, records: lines.map((line) => JSON.parse(line)) };
}

const meta = () =>
  ({
    seq: 0,
    kind: "meta",
    data: { input: "", messages: [], model: "m:x", tools: [], startedAt: 0 },
  }) as never;
const eventRecord = (data: unknown) => ({ seq: 1, kind: "event", data }) as never;

const dataOf = (trace: Trace, kind: string, type?: string) =>
  trace.records
    .filter((r) => r.kind === kind && (type === undefined || (r.data as { type?: string }).type === type))
    .map((r) => r.data as unknown as Record<string, unknown>);

describe("traces recorded by agentloop 0.1", () => {
  it("load in the current shape, with a hash chain that verifies", async () => {
    const trace = await loadTrace(FIXTURE.pathname);
    expect(verifyTrace(trace)).toEqual({ ok: true });
    for (const event of dataOf(trace, "event")) {
      expect(event.turn).toEqual(expect.any(Number));
      expect(event).not.toHaveProperty("step");
    }
    expect(dataOf(trace, "event", "action").map((e) => e.turn)).toEqual([1, 2, 2]);
    const actions = dataOf(trace, "event", "action").map((e) => e.data);
    expect(actions[0]).toEqual({ toolCallId: "c1", toolName: "get_weather", arguments: { city: "Paris" } });
    for (const observation of dataOf(trace, "event", "observation").map((e) => e.data)) {
      expect(observation).toMatchObject({ toolName: "get_weather" });
      expect(observation).not.toHaveProperty("tool");
    }
    const reasons = dataOf(trace, "model_response").map(
      (r) => (r.response as ModelResponse).finishReason.unified,
    );
    expect(reasons).toEqual(["tool_calls", "tool_calls", "stop"]);
    const calls = dataOf(trace, "event", "model_call").map(
      (e) => (e.data as { finishReason: FinishReason }).finishReason,
    );
    expect(calls.map((reason) => reason.unified)).toEqual(["tool_calls", "tool_calls", "stop"]);
    const results = dataOf(trace, "tool_result");
    expect(results).toHaveLength(3);
    for (const result of results) {
      expect(result).toMatchObject({ toolName: "get_weather" });
      expect(result).not.toHaveProperty("tool");
    }
  });

  it("replay offline without divergence, whether loaded from a file or given as parsed", async () => {
    const weather = countingWeatherTool();
    const { agent, result } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [weather.tool] });
    const executions = weather.executions();
    for (const trace of [await loadTrace(FIXTURE.pathname), await legacyTrace()]) {
      const replayed = await replay(trace, { agent });
      expect(replayed.divergence).toBeNull();
      expect(replayed.result.text).toBe(result.text);
      expect(replayed.result.toolCalls.map((c) => [c.name, c.result])).toEqual(
        result.toolCalls.map((c) => [c.name, c.result]),
      );
    }
    expect(weather.executions()).toBe(executions);
  });

  it('render and replay a soft limit of reason "steps" as "turns"', () => {
    const event = { type: "soft_limit", step: 3, timestamp: 1, data: { reason: "steps", prompt: "wrap up" } };
    const upgraded = upgradeTrace(rehash({ version: 1, records: [meta(), eventRecord(event)] }));
    expect(upgraded.records[1]?.data).toEqual({
      type: "soft_limit",
      turn: 3,
      timestamp: 1,
      data: { reason: "turns", prompt: "wrap up" },
    });
  });

  it('read a compaction of strategy "sliding-window" as "sliding_window"', () => {
    const data = { removedMessages: 2, truncatedToolResults: 0, tokensBefore: 9, tokensAfter: 5 };
    const compaction = { strategy: "sliding-window", reason: "threshold", ...data };
    const event = { type: "compaction", step: 2, timestamp: 1, data: compaction };
    const upgraded = upgradeTrace(rehash({ version: 1, records: [meta(), eventRecord(event)] }));
    expect(upgraded.records[1]?.data).toMatchObject({
      turn: 2,
      data: { strategy: "sliding_window", ...data },
    });
  });

  it("are upgraded only when their original hash chain verifies: a changed old trace stays broken", async () => {
    const trace = await legacyTrace();
    const changed = dataOf(trace, "tool_result")[0] as Record<string, unknown>;
    changed.result = "tampered";
    const upgraded = upgradeTrace(trace);
    expect(upgraded).toBe(trace);
    expect(verifyTrace(upgraded)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/hash mismatch/),
    });
  });

  it("a current trace is returned as it is", async () => {
    const { trace } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
    expect(upgradeTrace(trace)).toBe(trace);
  });
});
