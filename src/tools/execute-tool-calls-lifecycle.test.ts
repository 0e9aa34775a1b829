import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { executeToolCalls, type ToolOutcome } from "./execute-tool-calls.js";
import { call, registry, sleeper } from "./test-utils/tool-fixtures.js";
import { tool } from "./tool.js";

describe("executeToolCalls: outer abort", () => {
  it("aborts running tools and resolves promptly", async () => {
    const signals: AbortSignal[] = [];
    const wait = tool({
      name: "wait",
      description: "",
      parameters: z.object({}),
      execute: (_args, ctx) => {
        signals.push(ctx.signal);
        return new Promise(() => undefined);
      },
    });
    const reg = registry(wait, sleeper("quick", 10));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user cancelled")), 50);
    const started = performance.now();
    const outcomes = await executeToolCalls({
      calls: [call("quick"), call("wait"), call("wait")],
      registry: reg,
      turn: 1,
      signal: controller.signal,
      concurrency: 2,
    });
    expect(performance.now() - started).toBeLessThan(90);
    expect(outcomes.map((o) => [o.ok, o.content])).toEqual([
      [true, "quick:0"],
      [false, "aborted"],
      [false, "aborted"],
    ]);
    expect(outcomes[1]?.error?.type).toBe("AbortError");
    expect(outcomes[1]?.durationMs).toBeGreaterThan(20);
    expect(signals).toHaveLength(2);
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(signals[0]?.reason).toEqual(new Error("user cancelled"));
  });

  it("reports every call as aborted when the signal is already aborted", async () => {
    const ends: string[] = [];
    const outcomes = await executeToolCalls({
      calls: [call("nap"), call("nap")],
      registry: registry(sleeper("nap")),
      turn: 1,
      signal: AbortSignal.abort(),
      onEnd: (o) => ends.push(o.toolCallId),
    });
    expect(outcomes.map((o) => o.content)).toEqual(["aborted", "aborted"]);
    expect(ends).toHaveLength(2);
  });

  it("does not pile up abort listeners on a signal it is called with again and again", async () => {
    const controller = new AbortController();
    let added = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    signal.addEventListener = (...args: Parameters<typeof add>) => {
      added++;
      add(...args);
    };
    for (let i = 0; i < 20; i++) {
      await executeToolCalls({
        calls: [call("nap")],
        registry: registry(sleeper("nap", 1)),
        turn: 1,
        signal,
      });
    }
    // One real listener for the signal's life (src/util/listen-for-abort.ts), not one per batch.
    expect(added).toBe(1);
    controller.abort(); // the finished batches' listeners were removed: nothing of theirs runs
  });
});

describe("executeToolCalls: results", () => {
  function returning(value: unknown, options: { maxResultChars?: number } = {}) {
    return tool({ name: "r", description: "", parameters: z.object({}), ...options, execute: () => value });
  }
  async function run(value: unknown, options: { maxResultChars?: number; toolMax?: number } = {}) {
    const t = returning(value, options.toolMax === undefined ? {} : { maxResultChars: options.toolMax });
    const [outcome] = await executeToolCalls({
      calls: [call("r")],
      registry: registry(t),
      turn: 1,
      ...(options.maxResultChars !== undefined && { maxResultChars: options.maxResultChars }),
    });
    return outcome as ToolOutcome;
  }

  it("sends strings as is, nothing as (empty) and other values as JSON", async () => {
    expect(await run("plain")).toMatchObject({ ok: true, content: "plain", value: "plain" });
    expect(await run(undefined)).toMatchObject({ ok: true, content: "(empty)" });
    expect(await run(null)).toMatchObject({ ok: true, content: "(empty)" });
    expect(await run({ a: [1, 2], b: "x" })).toMatchObject({
      ok: true,
      content: '{"a":[1,2],"b":"x"}',
      value: { a: [1, 2], b: "x" },
    });
    expect(await run(42)).toMatchObject({ ok: true, content: "42" });
  });

  it("turns an unserialisable result into an error outcome", async () => {
    const big = await run({ n: 10n });
    expect(big.ok).toBe(false);
    expect(big.content).toMatch(
      /^Tool "r" returned a value that cannot be sent as JSON: TypeError: .*BigInt/,
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect((await run(cyclic)).content).toMatch(/circular/i);
  });

  it("truncates long results with a marker; the tool's limit wins", async () => {
    const long = "x".repeat(30_000);
    expect((await run(long)).content).toBe(`${"x".repeat(20_000)}…[truncated 10000 characters]`);
    expect((await run(long, { maxResultChars: 100 })).content).toBe(
      `${"x".repeat(100)}…[truncated 29900 characters]`,
    );
    expect((await run(long, { maxResultChars: 100, toolMax: 10 })).content).toBe(
      `${"x".repeat(10)}…[truncated 29990 characters]`,
    );
    expect((await run(`${"a".repeat(9)}😀tail`, { maxResultChars: 10 })).content).toBe(
      `${"a".repeat(9)}…[truncated 6 characters]`,
    );
  });
});

describe("executeToolCalls: scheduling", () => {
  it("runs one by one with parallel: false", async () => {
    const reg = registry(sleeper("a", 50), sleeper("b", 50), sleeper("c", 50));
    const started = performance.now();
    const outcomes = await executeToolCalls({
      calls: [call("a"), call("b"), call("c")],
      registry: reg,
      turn: 1,
      parallel: false,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(outcomes.map((o) => o.content)).toEqual(["a:0", "b:0", "c:0"]);
  });

  it("never runs a sequential tool beside another tool", async () => {
    const log: Array<[string, string, number]> = [];
    const lock = tool({
      name: "lock",
      description: "",
      parameters: z.object({}),
      sequential: true,
      execute: async () => {
        log.push(["lock", "start", performance.now()]);
        await sleep(40);
        log.push(["lock", "end", performance.now()]);
        return "locked";
      },
    });
    const reg = registry(lock, sleeper("a", 40, log), sleeper("b", 40, log), sleeper("c", 40, log));
    const outcomes = await executeToolCalls({
      calls: [call("a"), call("b"), call("lock"), call("c")],
      registry: reg,
      turn: 1,
    });
    expect(outcomes.map((o) => o.content)).toEqual(["a:0", "b:0", "locked", "c:0"]);
    const span = (name: string) => {
      const start = log.find(([n, e]) => n === name && e === "start")?.[2] ?? Number.NaN;
      const end = log.find(([n, e]) => n === name && e === "end")?.[2] ?? Number.NaN;
      return [start, end] as const;
    };
    const [lockStart, lockEnd] = span("lock");
    for (const other of ["a", "b", "c"]) {
      const [start, end] = span(other);
      expect(end <= lockStart || start >= lockEnd).toBe(true);
    }
    // a and b still overlap each other.
    expect(span("b")[0]).toBeLessThan(span("a")[1]);
  });

  it("respects the concurrency limit", async () => {
    let running = 0;
    let peak = 0;
    const counted = tool({
      name: "counted",
      description: "",
      parameters: z.object({}),
      execute: async () => {
        running++;
        peak = Math.max(peak, running);
        await sleep(20);
        running--;
      },
    });
    const calls = Array.from({ length: 7 }, () => call("counted"));
    const outcomes = await executeToolCalls({ calls, registry: registry(counted), turn: 1, concurrency: 3 });
    expect(peak).toBe(3);
    expect(outcomes.every((o) => o.ok)).toBe(true);
  });

  it("ignores throwing onStart/onEnd hooks", async () => {
    const seen: string[] = [];
    const outcomes = await executeToolCalls({
      calls: [call("a"), call("missing")],
      registry: registry(sleeper("a", 5)),
      turn: 1,
      onStart: (c) => {
        seen.push(`start:${c.name}`);
        throw new Error("observer bug");
      },
      onEnd: (o) => {
        seen.push(`end:${o.toolName}`);
        throw new Error("observer bug");
      },
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, false]);
    expect(seen.sort()).toEqual(["end:a", "end:missing", "start:a", "start:missing"]);
  });

  it("rejects invalid options", async () => {
    await expect(
      executeToolCalls({ calls: [], registry: registry(), turn: 0, concurrency: 0 }),
    ).rejects.toThrow(/concurrency/);
    await expect(
      executeToolCalls({ calls: [], registry: registry(), turn: 0, defaultTimeoutMs: -1 }),
    ).rejects.toThrow(/defaultTimeoutMs/);
  });
});

describe("executeToolCalls: abort from a hook", () => {
  it("does not start a call once onStart aborted the batch", async () => {
    const controller = new AbortController();
    let executed = 0;
    const counted = tool({
      name: "counted",
      description: "",
      parameters: z.object({}),
      execute: () => {
        executed++;
      },
    });
    const outcomes = await executeToolCalls({
      calls: [call("counted"), call("counted")],
      registry: registry(counted),
      turn: 1,
      signal: controller.signal,
      onStart: () => controller.abort(),
    });
    await sleep(10);
    expect(executed).toBe(0);
    expect(outcomes.map((o) => o.content)).toEqual(["aborted", "aborted"]);
  });
});
