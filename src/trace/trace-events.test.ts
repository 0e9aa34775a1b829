import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../loop/agent-event.js";
import { traceEvents } from "./trace-events.js";
import { TraceRecorder } from "./trace-recorder.js";
import { verifyTrace } from "./verify-trace.js";

const start: AgentEvent = { type: "loop_start", turn: 0, timestamp: 1, data: { task: "t", model: "m:x" } };
const end: AgentEvent = {
  type: "loop_end",
  turn: 1,
  timestamp: 2,
  data: { stopReason: "completed", text: "ok" },
};

function recorder(): TraceRecorder {
  return new TraceRecorder({ input: "t", messages: [], model: "m:x", tools: [] });
}

describe("traceEvents", () => {
  it("passes events through, records them and adds the trace to the outcome", async () => {
    const rec = recorder();
    const events = (async function* () {
      yield start;
      yield end;
      return { text: "ok" };
    })();
    const traced = traceEvents({ events, recorder: rec });
    const seen: AgentEvent[] = [];
    let next = await traced.next();
    while (!next.done) {
      seen.push(next.value);
      next = await traced.next();
    }
    expect(seen).toEqual([start, end]);
    expect(next.value.text).toBe("ok");
    expect(next.value.trace.records.map((r) => r.kind)).toEqual(["meta", "event", "event"]);
    expect(verifyTrace(next.value.trace)).toEqual({ ok: true });
  });

  it("closes the run's generator when closed early", async () => {
    let closed = false;
    const events = (async function* () {
      try {
        yield start;
        yield end;
      } finally {
        closed = true;
      }
    })();
    const traced = traceEvents({ events, recorder: recorder() });
    await traced.next();
    await traced.return({ trace: { version: 1, records: [] } } as never);
    expect(closed).toBe(true);
  });
});
