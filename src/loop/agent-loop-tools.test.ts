import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const slow = (name: string) =>
  tool({
    name,
    description: `slow ${name}`,
    parameters: z.object({ n: z.number() }),
    execute: async ({ n }) => {
      await sleep(100);
      return `${name}:${n}`;
    },
  });

const failing = tool({
  name: "explode",
  description: "always throws",
  parameters: z.object({}),
  execute: () => {
    throw new RangeError("boom at 3");
  },
});

describe("agent loop: tools", () => {
  it("runs three 100 ms tools of one turn in parallel, results in call order, a failure not spoiling the rest", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "t1", arguments: { n: 1 } },
          { id: "b", name: "explode", arguments: {} },
          { id: "c", name: "t2", arguments: { n: 2 } },
          { id: "d", name: "t3", arguments: { n: 3 } },
        ],
      },
      { text: "done" },
    ]);
    const agent = new Agent({ model, tools: [slow("t1"), slow("t2"), slow("t3"), failing] });
    const started = performance.now();
    const result = await agent.run("go");
    const elapsed = performance.now() - started;

    expect(result.stopReason).toBe("completed");
    expect(elapsed).toBeLessThan(300);
    const toolMessages = model.calls[1]?.request.messages.filter((m) => m.role === "tool") ?? [];
    expect(toolMessages.map((m) => m.content)).toEqual([
      "t1:1",
      expect.stringMatching(/RangeError.*boom at 3/),
      "t2:2",
      "t3:3",
    ]);
    expect(result.toolCalls.map((c) => [c.id, c.ok])).toEqual([
      ["a", true],
      ["b", false],
      ["c", true],
      ["d", true],
    ]);
    for (const call of result.toolCalls.filter((c) => c.ok))
      expect(call.durationMs).toBeGreaterThanOrEqual(90);
    const types = result.events.map((e) => e.type);
    expect(types.lastIndexOf("action")).toBeLessThan(types.indexOf("observation"));
  });

  it("runs calls one by one with parallelToolCalls: false", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "t1", arguments: { n: 1 } },
          { id: "b", name: "t2", arguments: { n: 2 } },
        ],
      },
      { text: "done" },
    ]);
    const agent = new Agent({ model, tools: [slow("t1"), slow("t2")], parallelToolCalls: false });
    const started = performance.now();
    await agent.run("go");
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    expect(model.calls[0]?.request.parallelToolCalls).toBe(false);
  });

  it("feeds every tool-error kind back to the model, which corrects itself", async () => {
    const strict = tool({
      name: "lookup",
      description: "look up a user",
      parameters: z.object({ id: z.number().int() }),
      execute: ({ id }) => `user ${id}`,
    });
    const hang = tool({
      name: "hang",
      description: "never answers",
      parameters: z.object({}),
      timeoutMs: 50,
      execute: () => new Promise(() => undefined),
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "1", name: "lookup_user", arguments: { id: 1 } }] },
      { toolCalls: [{ id: "2", name: "lookup", arguments: '{"id": 1' }] },
      { toolCalls: [{ id: "3", name: "lookup", arguments: { id: "one" } }] },
      { toolCalls: [{ id: "4", name: "explode", arguments: {} }] },
      { toolCalls: [{ id: "5", name: "hang", arguments: {} }] },
      { toolCalls: [{ id: "6", name: "lookup", arguments: { id: 1 } }] },
      { text: "Found user 1." },
    ]);
    const result = await new Agent({ model, tools: [strict, failing, hang] }).run("find user 1");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("Found user 1.");
    const fed = result.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(fed[0]).toMatch(/lookup_user/);
    expect(fed[0]).toMatch(/lookup/);
    expect(fed[0]).toMatch(/explode/);
    expect(fed[1]).toMatch(/JSON/i);
    expect(fed[2]).toMatch(/id/);
    expect(fed[2]).toMatch(/number/);
    expect(fed[2]).toMatch(/string/);
    expect(fed[3]).toMatch(/RangeError: boom at 3|RangeError.*boom at 3/);
    expect(fed[4]).toMatch(/timed out after 50 ms/);
    expect(fed[5]).toBe("user 1");
    const errors = result.messages.filter((m) => m.role === "tool" && m.isError);
    expect(errors).toHaveLength(5);
  });

  it("times out a hanging tool without waiting for it, and aborts its signal", async () => {
    let toolSignal: AbortSignal | undefined;
    const hang = tool({
      name: "hang",
      description: "hangs",
      parameters: z.object({}),
      execute: (_args, ctx) => {
        toolSignal = ctx.signal;
        return new Promise(() => undefined);
      },
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "h", name: "hang", arguments: {} }] },
      { text: "gave up" },
    ]);
    const started = performance.now();
    const result = await new Agent({ model, tools: [hang], toolTimeoutMs: 80 }).run("go");
    expect(performance.now() - started).toBeLessThan(500);
    expect(toolSignal?.aborted).toBe(true);
    expect(result.toolCalls[0]).toMatchObject({
      ok: false,
      result: expect.stringMatching(/timed out after 80 ms/),
    });
  });

  it("aborts mid-tool: the tool's signal fires, the run ends aborted with a valid history", async () => {
    let toolSignal: AbortSignal | undefined;
    const waitForever = tool({
      name: "wait",
      description: "waits",
      parameters: z.object({}),
      execute: (_args, ctx) => {
        toolSignal = ctx.signal;
        return new Promise(() => undefined);
      },
    });
    const model = new ScriptedModel([{ toolCalls: [{ id: "w", name: "wait", arguments: {} }] }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const result = await new Agent({ model, tools: [waitForever] }).run("go", { signal: controller.signal });
    expect(performance.now() - started).toBeLessThan(500);
    expect(result.stopReason).toBe("aborted");
    expect(toolSignal?.aborted).toBe(true);
    expect(result.events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "aborted" } });
    const last = result.messages.at(-1);
    expect(last).toMatchObject({ role: "tool", toolCallId: "w", isError: true });
    expect(model.calls).toHaveLength(1);
  });
});
