import { describe, expect, it } from "vitest";
import { hashRecord } from "./hash-record.js";
import {
  copyTrace,
  countingWeatherTool,
  recordRun,
  rehash,
  TOOL_RUN_STEPS,
} from "./test-utils/record-run.js";
import type { Trace } from "./trace-types.js";
import { verifyTrace } from "./verify-trace.js";

async function recorded(): Promise<Trace> {
  const { trace } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
  return copyTrace(trace);
}

function toolResultSeq(trace: Trace): number {
  const record = trace.records.find((r) => r.kind === "tool_result");
  if (record === undefined) throw new Error("no tool_result");
  return record.seq;
}

describe("verifyTrace", () => {
  it("accepts an untouched trace", async () => {
    expect(verifyTrace(await recorded())).toEqual({ ok: true });
  });

  it("finds a changed tool result at its own record", async () => {
    const trace = await recorded();
    const seq = toolResultSeq(trace);
    const record = trace.records[seq];
    if (record?.kind !== "tool_result") throw new Error("expected a tool_result");
    record.data.result = '{"city":"Paris","tempC":35}';
    expect(verifyTrace(trace)).toEqual({
      ok: false,
      brokenAt: seq,
      reason: expect.stringContaining("hash mismatch"),
    });
  });

  it("finds a changed record whose own hash was recomputed at the next record (broken chain)", async () => {
    const trace = await recorded();
    const seq = toolResultSeq(trace);
    const record = trace.records[seq];
    if (record?.kind !== "tool_result") throw new Error("expected a tool_result");
    record.data.result = "forged";
    record.hash = hashRecord({ seq, kind: record.kind, data: record.data, prevHash: record.prevHash });
    expect(verifyTrace(trace)).toEqual({
      ok: false,
      brokenAt: seq + 1,
      reason: expect.stringContaining("broken chain"),
    });
  });

  it("finds a removed record", async () => {
    const trace = await recorded();
    const seq = toolResultSeq(trace);
    trace.records.splice(seq, 1);
    expect(verifyTrace(trace)).toEqual({
      ok: false,
      brokenAt: seq + 1,
      reason: expect.stringContaining("seq"),
    });
  });

  it("finds a removed record even when the later seqs were renumbered", async () => {
    const trace = await recorded();
    const seq = toolResultSeq(trace);
    trace.records.splice(seq, 1);
    trace.records.forEach((r, i) => {
      r.seq = i;
    });
    const result = verifyTrace(trace);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.brokenAt).toBe(seq);
  });

  it("finds swapped records", async () => {
    const trace = await recorded();
    const [a, b] = [trace.records[3], trace.records[4]];
    if (a === undefined || b === undefined) throw new Error("short trace");
    trace.records[3] = b;
    trace.records[4] = a;
    expect(verifyTrace(trace)).toMatchObject({ ok: false, brokenAt: 4 });
  });

  it("accepts a modified trace whose hashes were all recomputed (it is a different, valid recording)", async () => {
    const trace = await recorded();
    const record = trace.records[toolResultSeq(trace)];
    if (record?.kind !== "tool_result") throw new Error("expected a tool_result");
    record.data.result = "other";
    expect(verifyTrace(rehash(trace))).toEqual({ ok: true });
  });

  it("rejects an unsupported version, an empty trace and a trace that does not start with meta", async () => {
    const trace = await recorded();
    expect(verifyTrace({ ...trace, version: 3 as 2 })).toMatchObject({
      ok: false,
      brokenAt: 0,
      reason: expect.stringContaining("version"),
    });
    expect(verifyTrace({ version: 1, records: [] })).toMatchObject({ ok: false, brokenAt: 0 });
    expect(verifyTrace(rehash({ version: 1, records: trace.records.slice(1) }))).toMatchObject({
      ok: false,
      brokenAt: 0,
      reason: expect.stringContaining("meta"),
    });
  });
});
