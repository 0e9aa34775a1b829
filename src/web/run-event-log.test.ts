import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { RunEventLog } from "./run-event-log.js";
import { countingStream } from "./test-utils/counting-stream.js";

/** Records a run and drains it to its end (a detached run). */
async function recordFinished(log: RunEventLog, runId: string, count = 10) {
  const entry = log.record({ runId, stream: countingStream({ count }).stream });
  if (entry === undefined) throw new Error("not recorded");
  entry.detach(entry.attach(0), false);
  await entry.finished;
  return entry;
}

describe("RunEventLog", () => {
  it("holds a run while it runs and for ttlMs after it ended", async () => {
    const log = new RunEventLog({ ttlMs: 50 });
    const running = log.record({ runId: "a", stream: countingStream().stream });
    expect(log.has("a")).toBe(true);
    expect(log.record({ runId: "a", stream: countingStream().stream })).toBeUndefined(); // running: not replaced
    await recordFinished(log, "b");
    expect(log.has("b")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(log.has("b")).toBe(false);
    expect(log.get("a")).toBe(running); // still running: kept
    expect(log.size).toBe(1);
  });

  it("replaces an ended run by a new stream of it", async () => {
    const log = new RunEventLog();
    const ended = await recordFinished(log, "a");
    const next = log.record({ runId: "a", stream: countingStream().stream });
    expect(next).toBeDefined();
    expect(next).not.toBe(ended);
  });

  it("at maxRuns: the oldest ended run goes; with all running, a new run is not kept", async () => {
    const log = new RunEventLog({ maxRuns: 2 });
    await recordFinished(log, "old");
    log.record({ runId: "running", stream: countingStream().stream });
    expect(log.record({ runId: "new", stream: countingStream().stream })).toBeDefined();
    expect(log.has("old")).toBe(false);
    expect(log.record({ runId: "newer", stream: countingStream().stream })).toBeUndefined();
    expect(log.size).toBe(2);
  });

  it("keeps the total within maxTotalChars: ended runs first, then the growing run's oldest messages", async () => {
    const log = new RunEventLog({ maxTotalChars: 3_000 });
    await recordFinished(log, "first", 10);
    expect(log.chars).toBeGreaterThan(500);
    const big = await recordFinished(log, "big", 100);
    expect(log.has("first")).toBe(false);
    expect(big.complete).toBe(false);
    expect(log.chars).toBeLessThanOrEqual(3_000);
    expect(log.chars).toBe(big.chars);
  });

  it("refuses bad bounds", () => {
    expect(() => new RunEventLog({ maxEvents: 0 })).toThrow(InvalidArgumentError);
    expect(() => new RunEventLog({ ttlMs: -1 })).toThrow(InvalidArgumentError);
    expect(() => new RunEventLog({ maxChars: Number.NaN })).toThrow(InvalidArgumentError);
    expect(new RunEventLog({ ttlMs: 0 })).toBeInstanceOf(RunEventLog);
  });
});
