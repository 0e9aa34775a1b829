import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { ModelCallError } from "../errors/model-call-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import type { AgentEventOf } from "./agent-event.js";

const echo = tool({
  name: "echo",
  description: "echoes",
  parameters: z.object({ v: z.number() }),
  execute: ({ v }) => `v=${v}`,
});

/** A model that keeps calling `echo` with a new argument each turn (never loops, never answers). */
const busyModel = (options: { delayMs?: number; totalTokens?: number } = {}) =>
  new ScriptedModel((_request, index) => ({
    toolCalls: [{ id: `c${index}`, name: "echo", arguments: { v: index } }],
    ...(options.delayMs !== undefined && { delayMs: options.delayMs }),
    usage: {
      inputTokens: (options.totalTokens ?? 10) - 2,
      outputTokens: 2,
      totalTokens: options.totalTokens ?? 10,
    },
  }));

describe("agent loop: limits", () => {
  it("stops at maxTurns with a valid history", async () => {
    const model = busyModel();
    const result = await new Agent({ model, tools: [echo], limits: { maxTurns: 3 } }).run("go");
    expect(result.stopReason).toBe("max_turns");
    expect(result.turns).toBe(3);
    expect(model.calls).toHaveLength(3);
    expect(result.messages.at(-1)?.role).toBe("tool");
    expect(result.events.at(-1)?.type).toBe("loop_end");
  });

  it("wraps up with one tool-less call when limits.wrapUp is set", async () => {
    const model = new ScriptedModel((request, index) =>
      request.toolChoice === "none"
        ? { text: "Best answer so far: v=1." }
        : { toolCalls: [{ id: `c${index}`, name: "echo", arguments: { v: index } }] },
    );
    const result = await new Agent({ model, tools: [echo], limits: { maxTurns: 2, wrapUp: true } }).run("go");
    expect(result.stopReason).toBe("max_turns");
    expect(result.text).toBe("Best answer so far: v=1.");
    const last = model.calls.at(-1)?.request;
    expect(last?.toolChoice).toBe("none");
    expect(last?.messages.at(-1)).toMatchObject({
      role: "user",
      content: expect.stringMatching(/step limit/),
    });
  });

  it("stops on the global timeout, aborting the in-flight model call", async () => {
    const model = busyModel({ delayMs: 60 });
    const started = performance.now();
    const result = await new Agent({ model, tools: [echo], limits: { timeoutMs: 150 } }).run("go");
    expect(result.stopReason).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(400);
    expect(result.turns).toBeGreaterThanOrEqual(2);
    expect(result.events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "timeout" } });
  });

  it("stops at the cumulative token limit without running the last turn's tools", async () => {
    let runs = 0;
    const counted = tool({
      name: "echo",
      description: "echoes",
      parameters: z.object({ v: z.number() }),
      execute: ({ v }) => {
        runs++;
        return `v=${v}`;
      },
    });
    const result = await new Agent({
      model: busyModel({ totalTokens: 40 }),
      tools: [counted],
      limits: { maxTotalTokens: 100 },
    }).run("go");
    expect(result.stopReason).toBe("token_limit");
    expect(result.turns).toBe(3);
    expect(result.usage.totalTokens).toBe(120);
    expect(runs).toBe(2);
    expect(result.messages.at(-1)).toMatchObject({
      role: "tool",
      isError: true,
      content: expect.stringMatching(/token limit/),
    });
  });

  it("fires the soft step checkpoint at steps N, 2N, ... and goes on", async () => {
    const model = new ScriptedModel((_request, index) =>
      index < 7
        ? { toolCalls: [{ id: `c${index}`, name: "echo", arguments: { v: index } }] }
        : { text: "finished" },
    );
    const result = await new Agent({
      model,
      tools: [echo],
      limits: { softMaxTurns: 3 },
      prompts: { softTurns: ({ turns }) => `CHECKPOINT after ${turns}` },
    }).run("go");
    expect(result.stopReason).toBe("completed");
    const soft = result.events.filter((e): e is AgentEventOf<"soft_limit"> => e.type === "soft_limit");
    expect(soft.map((e) => e.turn)).toEqual([3, 6]);
    expect(soft[0]?.data).toEqual({ reason: "turns", prompt: "CHECKPOINT after 3" });
    const fourth = model.calls[3]?.request.messages.at(-1);
    expect(fourth).toEqual({ role: "user", content: "CHECKPOINT after 3" });
    expect(model.calls[2]?.request.messages.at(-1)?.role).toBe("tool");
  });

  it("fires the soft time checkpoint", async () => {
    const model = new ScriptedModel((_request, index) =>
      index < 4
        ? { toolCalls: [{ id: `c${index}`, name: "echo", arguments: { v: index } }], delayMs: 40 }
        : { text: "ok" },
    );
    const result = await new Agent({ model, tools: [echo], limits: { softTimeoutMs: 70 } }).run("go");
    const soft = result.events.filter((e) => e.type === "soft_limit");
    expect(soft.length).toBeGreaterThanOrEqual(1);
    expect(soft[0]?.data).toMatchObject({ reason: "time" });
    expect(result.stopReason).toBe("completed");
  });

  it("detects identical calls and stops with loop_detected, every call answered", async () => {
    const model = new ScriptedModel(() => ({ toolCalls: [{ name: "echo", arguments: { v: 1 } }] }));
    const result = await new Agent({ model, tools: [echo] }).run("go");
    expect(result.stopReason).toBe("loop_detected");
    expect(result.turns).toBe(3);
    const calls = result.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
    const answered = new Set(result.messages.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
    expect(calls.every((c) => answered.has(c.id))).toBe(true);
  });

  it("detects A,B alternation", async () => {
    const model = new ScriptedModel((_request, index) => ({
      toolCalls: [{ name: "echo", arguments: { v: index % 2 } }],
    }));
    const result = await new Agent({ model, tools: [echo], limits: { maxTurns: 20 } }).run("go");
    expect(result.stopReason).toBe("loop_detected");
    expect(result.turns).toBe(6);
  });

  it("treats the same arguments in another key order as the same call", async () => {
    const model = new ScriptedModel((_request, index) => ({
      toolCalls: [{ name: "echo", arguments: index % 2 ? '{"v":1,"w":2}' : '{"w":2,"v":1}' }],
    }));
    const result = await new Agent({ model, tools: [echo], limits: { maxTurns: 10 } }).run("go");
    expect(result.stopReason).toBe("loop_detected");
    expect(result.turns).toBe(3);
  });

  it("ends with error, a fatal error event and loop_end last when the model fails", async () => {
    const model = new ScriptedModel([
      {
        error: new ModelCallError({ message: "upstream 401: invalid key", status: 401, isRetryable: false }),
      },
    ]);
    const result = await new Agent({ model }).run("go");
    expect(result.stopReason).toBe("error");
    expect(ModelCallError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/invalid key/);
    const types = result.events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(["error", "loop_end"]);
    expect(result.events.at(-2)?.data).toMatchObject({ fatal: true });
  });
});
