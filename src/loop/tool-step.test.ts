import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolCall } from "../models/message.js";
import { tool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import type { AgentEvent } from "./agent-event.js";
import { type ApprovalDecisions, DENIED_RESULT, type ToolStepResult, toolStep } from "./tool-step.js";

const ran: string[] = [];
const sleep = tool({
  name: "sleep",
  description: "waits",
  parameters: z.object({ ms: z.number() }),
  execute: async ({ ms }, { signal }) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    ran.push(`sleep ${ms}`);
    return `slept ${ms}`;
  },
});
const gated = tool({
  name: "rm",
  description: "deletes",
  parameters: z.object({ path: z.string() }),
  needsApproval: true,
  execute: ({ path }) => {
    ran.push(`rm ${path}`);
    return `removed ${path}`;
  },
});
const flaky = tool({
  name: "flaky_check",
  description: "its approval check throws",
  parameters: z.object({}),
  needsApproval: () => {
    throw new Error("check failed");
  },
  execute: () => "ran",
});
const registry = new ToolRegistry({ tools: [sleep, gated, flaky] });

const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  name,
  arguments: args,
  rawArguments: JSON.stringify(args),
});

async function step(calls: ToolCall[], extra: { decisions?: ApprovalDecisions; signal?: AbortSignal } = {}) {
  ran.length = 0;
  const events: AgentEvent[] = [];
  const gen = toolStep({
    calls,
    registry,
    turn: 3,
    signal: extra.signal ?? new AbortController().signal,
    parallel: true,
    concurrency: undefined,
    timeoutMs: 5000,
    maxResultChars: undefined,
    decisions: extra.decisions,
  });
  for (;;) {
    const next = await gen.next();
    if (next.done) return { events, result: next.value as ToolStepResult };
    events.push(next.value);
  }
}

const ids = (events: AgentEvent[], type: string) =>
  events.filter((e) => e.type === type).map((e) => (e.data as { toolCallId: string }).toolCallId);

describe("toolStep", () => {
  it("emits every action first, then observations as calls finish; tool messages come back in call order", async () => {
    const { events, result } = await step([
      call("slow", "sleep", { ms: 40 }),
      call("fast", "sleep", { ms: 1 }),
    ]);
    expect(events.map((e) => e.type)).toEqual(["action", "action", "observation", "observation"]);
    expect(ids(events, "observation")).toEqual(["fast", "slow"]);
    expect(events.every((e) => e.turn === 3)).toBe(true);
    expect(result).toEqual({
      kind: "done",
      messages: [
        { role: "tool", toolCallId: "slow", toolName: "sleep", content: "slept 40" },
        { role: "tool", toolCallId: "fast", toolName: "sleep", content: "slept 1" },
      ],
    });
  });

  it("pauses the whole turn on a gated call without decisions: nothing runs", async () => {
    const { events, result } = await step([
      call("a", "sleep", { ms: 1 }),
      call("g", "rm", { path: "/tmp/x" }),
    ]);
    expect(ran).toEqual([]);
    expect(events).toEqual([
      expect.objectContaining({
        type: "approval_requested",
        turn: 3,
        data: { calls: [{ toolCallId: "g", toolName: "rm", arguments: { path: "/tmp/x" } }] },
      }),
    ]);
    expect(result).toEqual({
      kind: "paused",
      pending: [{ toolCallId: "g", toolName: "rm", arguments: { path: "/tmp/x" } }],
    });
  });

  it("treats a failing approval check as gated", async () => {
    const { result } = await step([call("f", "flaky_check", {})]);
    expect(result.kind).toBe("paused");
  });

  it("with decisions: runs approved and ungated calls; denied ones (and gated ones not approved) get the denied result", async () => {
    const decisions = { approve: new Set(["g1"]), deny: new Set(["g2"]) };
    const calls = [
      call("g1", "rm", { path: "a" }),
      call("g2", "rm", { path: "b" }),
      call("g3", "rm", { path: "c" }),
      call("s", "sleep", { ms: 1 }),
    ];
    const { events, result } = await step(calls, { decisions });
    expect(ran.sort()).toEqual(["rm a", "sleep 1"]);
    expect(ids(events, "action")).toEqual(["g1", "g2", "g3", "s"]);
    expect(ids(events, "observation").slice(-2)).toEqual(["g2", "g3"]);
    const denied = events.find((e) => e.type === "observation" && e.data.toolCallId === "g2");
    expect(denied?.data).toMatchObject({
      ok: false,
      result: DENIED_RESULT,
      error: { type: "ApprovalDenied" },
    });
    expect(
      result.kind === "done" && result.messages.map((m) => [m.toolCallId, m.content, m.isError]),
    ).toEqual([
      ["g1", "removed a", undefined],
      ["g2", DENIED_RESULT, true],
      ["g3", DENIED_RESULT, true],
      ["s", "slept 1", undefined],
    ]);
  });

  it("an abort ends the step at once: every call still gets one observation", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 20);
    const started = performance.now();
    const { events, result } = await step(
      [call("a", "sleep", { ms: 5000 }), call("b", "sleep", { ms: 5000 })],
      {
        signal: controller.signal,
      },
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(ids(events, "observation").sort()).toEqual(["a", "b"]);
    expect(result.kind === "done" && result.messages.every((m) => m.isError === true)).toBe(true);
  });
});
