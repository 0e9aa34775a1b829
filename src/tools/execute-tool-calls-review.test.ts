import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { executeToolCalls, type ToolOutcome } from "./execute-tool-calls.js";
import { call, registry, sleeper } from "./test-utils/tool-fixtures.js";
import { tool } from "./tool.js";

/** A tool that records its start and whether its signal was aborted (and with what). */
function watched(name: string, ms: number, log: string[]) {
  return tool({
    name,
    description: `${name}, watched`,
    parameters: z.object({}),
    execute: async (_args, { signal }) => {
      log.push(`${name} start`);
      await sleep(ms, undefined, { signal }).catch(() => undefined);
      log.push(signal.aborted ? `${name} aborted: ${String(signal.reason)}` : `${name} end`);
      return name;
    },
  });
}

describe("executeToolCalls: review", () => {
  it("keeps every outcome a review keeps (onEnd after the verdict)", async () => {
    const reviewed: string[] = [];
    const ended: string[] = [];
    const outcomes = await executeToolCalls({
      calls: [call("a", { n: 1 }), call("b", { n: 2 })],
      registry: registry(sleeper("a", 10), sleeper("b", 20)),
      turn: 1,
      review: async (outcome) => {
        reviewed.push(String(outcome.content));
        await sleep(5);
        return undefined;
      },
      onEnd: (outcome) => ended.push(String(outcome.content)),
    });
    expect(outcomes.map((o) => o.content)).toEqual(["a:1", "b:2"]);
    expect(reviewed).toEqual(["a:1", "b:2"]);
    expect(ended).toEqual(["a:1", "b:2"]);
  });

  it("a stop keeps that outcome, aborts running calls with its reason, and starts no other call", async () => {
    const log: string[] = [];
    const ended: ToolOutcome[] = [];
    const calls = [call("fast"), call("slow"), call("later")];
    const started = performance.now();
    const outcomes = await executeToolCalls({
      calls,
      registry: registry(watched("fast", 10, log), watched("slow", 500, log), watched("later", 10, log)),
      turn: 1,
      concurrency: 2,
      review: async (outcome) => (outcome.toolName === "fast" ? { stop: "blocked by test" } : undefined),
      onEnd: (outcome) => ended.push(outcome),
    });
    expect(performance.now() - started).toBeLessThan(200);
    await sleep(20); // the aborted tool notices
    expect(log).toEqual(["fast start", "slow start", "fast end", "slow aborted: blocked by test"]);
    expect(outcomes.map((o) => [o.toolName, o.ok, o.error?.type])).toEqual([
      ["fast", true, undefined],
      ["slow", false, "AbortError"],
      ["later", false, "AbortError"],
    ]);
    expect(outcomes[2]?.durationMs).toBe(0);
    expect(ended.map((o) => o.toolName)).toEqual(["fast", "slow", "later"]); // each exactly once
  });

  it("a rejected review stops the batch too", async () => {
    const outcomes = await executeToolCalls({
      calls: [call("a"), call("b")],
      registry: registry(sleeper("a", 5), sleeper("b", 5)),
      turn: 1,
      parallel: false,
      review: () => Promise.reject(new Error("review broke")),
    });
    expect(outcomes.map((o) => [o.ok, o.content])).toEqual([
      [true, "a:0"],
      [false, "aborted"],
    ]);
  });

  it("one at a time: the next call starts only after the previous outcome's review passed", async () => {
    const log: string[] = [];
    await executeToolCalls({
      calls: [call("a"), call("b")],
      registry: registry(watched("a", 1, log), watched("b", 1, log)),
      turn: 1,
      parallel: false,
      review: async (outcome) => {
        log.push(`review ${outcome.toolName}`);
        await sleep(20);
        log.push(`passed ${outcome.toolName}`);
        return undefined;
      },
    });
    expect(log).toEqual([
      "a start",
      "a end",
      "review a",
      "passed a",
      "b start",
      "b end",
      "review b",
      "passed b",
    ]);
  });

  it("the run's abort during a review reports the call aborted", async () => {
    const controller = new AbortController();
    const pending = executeToolCalls({
      calls: [call("a")],
      registry: registry(sleeper("a", 1)),
      turn: 1,
      signal: controller.signal,
      review: () => new Promise(() => {}),
    });
    await sleep(20);
    controller.abort();
    const outcomes = await pending;
    expect(outcomes.map((o) => [o.ok, o.error?.type])).toEqual([[false, "AbortError"]]);
  });
});
