import { describe, expect, it } from "vitest";
import { buildWaterfall } from "./build-waterfall.js";
import type { AgentEvent } from "./types.js";

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
const finish = { unified: "tool_calls" as const, raw: "tool_calls" };

function modelCall(at: number, latencyMs: number, turn: number, agent?: string): AgentEvent {
  return {
    type: "model_call",
    turn,
    timestamp: at,
    data: { model: "m:x", finishReason: finish, usage, latencyMs, costUsd: 0.001, priced: true },
    ...(agent !== undefined && { agent }),
  };
}

describe("buildWaterfall", () => {
  it("places model calls (latency before their event) and tool calls (action to observation) in time", () => {
    const events: AgentEvent[] = [
      { type: "loop_start", turn: 0, timestamp: 1000, data: { task: "t", model: "m:x" } },
      modelCall(1100, 90, 1),
      {
        type: "action",
        turn: 1,
        timestamp: 1100,
        data: { toolCallId: "c1", toolName: "add", arguments: {} },
      },
      { type: "text_delta", turn: 1, timestamp: 1105, data: { delta: "x" } },
      {
        type: "observation",
        turn: 1,
        timestamp: 1150,
        data: { toolCallId: "c1", toolName: "add", result: "5", ok: true, durationMs: 50 },
      },
      modelCall(1300, 100, 2, "lead/helper"),
      {
        type: "retry",
        turn: 2,
        timestamp: 1180,
        data: { attempt: 1, delayMs: 10, error: "503", source: "request" },
      },
      { type: "loop_end", turn: 2, timestamp: 1310, data: { stopReason: "completed", text: "" } },
    ];
    const waterfall = buildWaterfall(events);
    expect(waterfall.startedAt).toBe(1000);
    expect(waterfall.durationMs).toBe(310);
    expect(waterfall.rows.map((row) => [row.kind, row.label, row.startMs, row.endMs, row.depth])).toEqual([
      ["model", "turn 1", 10, 100, 0],
      ["tool", "add", 100, 150, 0],
      ["model", "helper · turn 2", 200, 300, 1],
    ]);
    expect(waterfall.rows[0]?.detail).toBe("m:x · 10 in / 5 out tokens · $0.001000 · tool_calls");
    expect(waterfall.markers).toEqual([{ kind: "retry", atMs: 180, label: "retry 1 (request): 503" }]);
  });

  it("places a replayed tool result without an action by its duration; an empty run has no rows", () => {
    const events: AgentEvent[] = [
      {
        type: "observation",
        turn: 1,
        timestamp: 500,
        data: { toolCallId: "c", toolName: "t", result: "x".repeat(300), ok: false, durationMs: 20 },
      },
    ];
    const [row] = buildWaterfall(events).rows;
    expect(row).toMatchObject({ startMs: 0, endMs: 20, ok: false });
    expect(row?.detail.length).toBeLessThan(140);
    expect(buildWaterfall([])).toEqual({ rows: [], markers: [], startedAt: 0, durationMs: 0 });
  });
});
