import { describe, expect, it } from "vitest";
import { describeEvent } from "./describe-event.js";

describe("describeEvent", () => {
  it("skips streamed fragments and describes calls, results, retries and guardrails", () => {
    expect(
      describeEvent({ type: "text_delta", turn: 1, timestamp: 0, data: { delta: "x" } }),
    ).toBeUndefined();
    const action = describeEvent({
      type: "action",
      turn: 1,
      timestamp: 0,
      data: { toolCallId: "c", toolName: "add", arguments: { a: 1 } },
    });
    expect(action).toMatchObject({ title: "→ add", meta: '{"a":1}', tone: "tool" });
    const failed = describeEvent({
      type: "observation",
      turn: 1,
      timestamp: 0,
      data: {
        toolCallId: "c",
        toolName: "add",
        result: "no",
        ok: false,
        durationMs: 3,
        error: { type: "ApprovalDenied", message: "denied" },
      },
    });
    expect(failed).toMatchObject({ badge: "failed", meta: "ApprovalDenied: denied", tone: "error" });
    const retry = describeEvent({
      type: "retry",
      turn: 2,
      timestamp: 0,
      data: { attempt: 2, delayMs: 1500, error: "429", source: "stream" },
    });
    expect(retry?.title).toBe("retry 2 in 1.50 s (the streamed text is discarded)");
    const guardrail = describeEvent({
      type: "guardrail",
      turn: 1,
      timestamp: 0,
      data: { kind: "tool", name: "no-rm", reason: "rm -rf", toolCallId: "c", phase: "call" },
    });
    expect(guardrail).toMatchObject({
      title: 'tool guardrail "no-rm" blocked the run',
      meta: "rm -rf (call c, call)",
      tone: "error",
    });
  });
});
