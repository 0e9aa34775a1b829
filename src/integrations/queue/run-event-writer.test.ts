import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createEvent } from "../../loop/create-event.js";
import { RunEventWriter } from "./run-event-writer.js";

const admin = new Redis("redis://127.0.0.1:6379");
const base = `agentloop-test:writer-${randomUUID()}:`;

afterAll(async () => {
  const keys = await admin.keys(`${base}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

/** The commands Redis receives for `key` while `task` runs (MONITOR), lower-cased names first. */
async function monitorKey(key: string, task: () => Promise<void>): Promise<string[][]> {
  const monitor = await admin.monitor();
  const seen: string[][] = [];
  monitor.on("monitor", (_time: string, args: string[]) => {
    if (args[1] === key) seen.push([args[0]?.toLowerCase() ?? "", ...args.slice(1)]);
  });
  try {
    await task();
    await admin.ping();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    monitor.disconnect();
  }
  return seen;
}

const turn = (n: number) => createEvent("turn_start", n, { model: "test:model" });

describe("RunEventWriter", () => {
  it("sets the stream's TTL with the first event and the attempt's last write, not with every event", async () => {
    const key = `${base}${randomUUID()}`;
    const writer = new RunEventWriter({ client: admin, key, maxLen: 100, ttlSeconds: 3_600 });
    const sent = await monitorKey(key, async () => {
      for (let n = 1; n <= 5; n++) writer.append(turn(n));
      writer.append(createEvent("loop_end", 5, { stopReason: "completed", text: "done" }));
      expect(writer.holdsEnd).toBe(true);
      await writer.finish({ end: true });
    });
    const names = sent.map(([name]) => name);
    expect(names.filter((name) => name === "xadd")).toHaveLength(6);
    expect(names).toEqual(["xadd", "expire", "xadd", "xadd", "xadd", "xadd", "xadd", "expire"]);
    const events = (await admin.xrange(key, "-", "+")).map(
      ([, fields]) => JSON.parse(fields[1] ?? "{}").type,
    );
    expect(events).toEqual([
      "turn_start",
      "turn_start",
      "turn_start",
      "turn_start",
      "turn_start",
      "loop_end",
    ]);
    const ttl = await admin.ttl(key);
    expect(ttl).toBeGreaterThan(3_590);
    expect(ttl).toBeLessThanOrEqual(3_600);
  });

  it("refreshes the TTL once half of it has passed, and at the end of an attempt that does not end the run", async () => {
    const key = `${base}${randomUUID()}`;
    const writer = new RunEventWriter({ client: admin, key, maxLen: 100, ttlSeconds: 2 });
    const sent = await monitorKey(key, async () => {
      writer.append(turn(1));
      writer.append(turn(2)); // within the first half: no EXPIRE
      await new Promise((resolve) => setTimeout(resolve, 1_050));
      writer.append(turn(3)); // past half the TTL: refreshed
      writer.append(turn(4));
      await writer.finish({ end: false }); // drops nothing held, but the last write was not refreshed
    });
    expect(sent.map(([name]) => name)).toEqual([
      "xadd",
      "expire",
      "xadd",
      "xadd",
      "expire",
      "xadd",
      "expire",
    ]);
  });
});
