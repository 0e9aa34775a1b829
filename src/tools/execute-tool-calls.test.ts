import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createToolCall } from "../models/message.js";
import { executeToolCalls } from "./execute-tool-calls.js";
import { call, registry, sleeper } from "./test-utils/tool-fixtures.js";
import { tool } from "./tool.js";

const weather = tool({
  name: "get_weather",
  description: "Weather",
  parameters: z.object({ city: z.string(), days: z.number().int().max(7).optional() }),
  execute: ({ city }) => ({ city, tempC: 18 }),
});

const explode = tool({
  name: "explode",
  description: "throws",
  parameters: z.object({}),
  execute: () => {
    throw new RangeError("boom at 3");
  },
});

describe("executeToolCalls: parallel execution", () => {
  it("runs calls concurrently and keeps call order", async () => {
    const reg = registry(sleeper("a"), sleeper("b"), sleeper("c"));
    const started = performance.now();
    const outcomes = await executeToolCalls({
      calls: [call("c", { n: 3 }), call("a", { n: 1 }), call("b", { n: 2 })],
      registry: reg,
      turn: 1,
    });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(250);
    expect(outcomes.map((o) => o.content)).toEqual(["c:3", "a:1", "b:2"]);
    for (const outcome of outcomes) {
      expect(outcome.ok).toBe(true);
      expect(outcome.durationMs).toBeGreaterThanOrEqual(95);
      expect(outcome.durationMs).toBeLessThan(200);
    }
  });

  it("does not let one failing tool spoil the others", async () => {
    const reg = registry(sleeper("a"), sleeper("b"), explode);
    const outcomes = await executeToolCalls({
      calls: [call("a"), call("explode"), call("b")],
      registry: reg,
      turn: 1,
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes.map((o) => o.content)).toEqual([
      "a:0",
      'Tool "explode" failed: RangeError: boom at 3',
      "b:0",
    ]);
    expect(outcomes[1]?.error).toEqual({
      type: "ToolExecutionError",
      message: 'Tool "explode" failed: RangeError: boom at 3',
    });
  });

  it("passes the context to the tool", async () => {
    let seen: { toolCallId: string; turn: number; aborted: boolean } | undefined;
    const probe = tool({
      name: "probe",
      description: "",
      parameters: z.object({}),
      execute: (_args, ctx) => {
        seen = { toolCallId: ctx.toolCallId, turn: ctx.turn, aborted: ctx.signal.aborted };
      },
    });
    const c = call("probe");
    await executeToolCalls({ calls: [c], registry: registry(probe), turn: 7 });
    expect(seen).toEqual({ toolCallId: c.id, turn: 7, aborted: false });
  });

  it("resolves with [] for no calls", async () => {
    await expect(executeToolCalls({ calls: [], registry: registry(), turn: 0 })).resolves.toEqual([]);
  });
});

describe("executeToolCalls: errors fed back to the model", () => {
  const reg = registry(weather, explode, sleeper("nap"));

  it("names the unknown tool and every available one", async () => {
    const [outcome] = await executeToolCalls({ calls: [call("get_wether")], registry: reg, turn: 1 });
    expect(outcome).toMatchObject({ ok: false, error: { type: "ToolNotFoundError" } });
    expect(outcome?.content).toBe(
      'Unknown tool "get_wether". Available tools: "get_weather", "explode", "nap".',
    );
  });

  it("reports invalid JSON with the parser's message and the raw text", async () => {
    const bad = createToolCall({ id: "j", name: "get_weather", rawArguments: '{"city": ' });
    expect(bad.parseError).toBeDefined();
    const [outcome] = await executeToolCalls({ calls: [bad], registry: reg, turn: 1 });
    expect(outcome).toMatchObject({ ok: false, error: { type: "ToolArgumentsError" } });
    expect(outcome?.content).toContain(
      'Invalid arguments for tool "get_weather": expected a JSON object, received invalid JSON (',
    );
    expect(outcome?.content).toContain(bad.parseError);
    expect(outcome?.content).toContain('{"city": ');
  });

  it("reports schema violations with path, expected and received", async () => {
    const [wrongType, twoIssues] = await executeToolCalls({
      calls: [call("get_weather", { city: 3 }), call("get_weather", { days: 9.5 })],
      registry: reg,
      turn: 1,
    });
    expect(wrongType?.content).toBe(
      'Invalid arguments for tool "get_weather": at "city": expected string, received number',
    );
    expect(twoIssues?.content).toBe(
      'Invalid arguments for tool "get_weather": at "city": expected string, received nothing; ' +
        'at "days": expected integer, received number',
    );
  });

  it("reports a non-Error throw", async () => {
    const throwsString = tool({
      name: "s",
      description: "",
      parameters: z.object({}),
      execute: async () => {
        throw "plain string";
      },
    });
    const [outcome] = await executeToolCalls({
      calls: [call("s")],
      registry: registry(throwsString),
      turn: 1,
    });
    expect(outcome?.content).toBe('Tool "s" failed: string: plain string');
  });

  it("times out, aborts the tool's signal and does not wait for it", async () => {
    let signal: AbortSignal | undefined;
    const hang = tool({
      name: "hang",
      description: "",
      parameters: z.object({}),
      timeoutMs: 50,
      execute: (_args, ctx) => {
        signal = ctx.signal;
        return new Promise(() => undefined);
      },
    });
    const started = performance.now();
    const [outcome] = await executeToolCalls({ calls: [call("hang")], registry: registry(hang), turn: 1 });
    expect(performance.now() - started).toBeLessThan(1_000); // the 50 ms timeout, not a wait for the tool (it never settles); slack for a loaded machine
    expect(outcome).toMatchObject({
      ok: false,
      content: 'Tool "hang" timed out after 50 ms',
      error: { type: "ToolTimeoutError" },
    });
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({ name: "ToolTimeoutError", timeoutMs: 50 });
  });

  it("uses defaultTimeoutMs when the tool sets none, and ignores a late rejection", async () => {
    const late = tool({
      name: "late",
      description: "",
      parameters: z.object({}),
      execute: async () => {
        await sleep(80);
        throw new Error("too late to matter");
      },
    });
    const [outcome] = await executeToolCalls({
      calls: [call("late")],
      registry: registry(late),
      turn: 1,
      defaultTimeoutMs: 30,
    });
    expect(outcome?.content).toBe('Tool "late" timed out after 30 ms');
    await sleep(80); // the abandoned promise rejects now; no unhandled rejection may surface
  });
});
