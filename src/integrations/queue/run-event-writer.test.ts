import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { journalRecords } from "../../durable/run-journal-contract.js";
import { createEvent } from "../../loop/create-event.js";
import { RedisJournal } from "../redis/redis-journal.js";
import { RunEventWriter } from "./run-event-writer.js";

const admin = new Redis("redis://127.0.0.1:6379");
/** The client of the writers that share a journal (its requests are counted). */
const client = new Redis("redis://127.0.0.1:6379");
const base = `agentloop-test:writer-${randomUUID()}:`;

// Connected first: commands queued while connecting are written one by one.
beforeAll(async () => {
  await client.ping();
});

afterAll(async () => {
  const keys = await admin.keys(`${base}*`);
  if (keys.length > 0) await admin.del(...keys);
  await Promise.all([admin.quit(), client.quit()]);
});

/** The requests (socket writes) `client` sends while `task` runs. */
async function requests(task: () => Promise<void>): Promise<number> {
  const write = vi.spyOn(client.stream, "write");
  try {
    await task();
    return write.mock.calls.length;
  } finally {
    write.mockRestore();
  }
}

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

  it("sends the events of one event-loop turn together, in the request of the run's journal append when one comes", async () => {
    const prefix = `${base}${randomUUID()}:`;
    const journal = new RedisJournal({ client, prefix, indexRefreshMs: 60_000 });
    const key = `${prefix}events:{r}`;
    const writer = new RunEventWriter({
      client,
      key,
      maxLen: 100,
      ttlSeconds: 3_600,
      journal: { journal, runId: "r" },
    });
    const types = async () =>
      (await admin.xrange(key, "-", "+")).map(([, f]) => JSON.parse(f[1] ?? "{}").type);
    // Two events and an append in one turn: one request, the events ahead of the record.
    const carried = await requests(async () => {
      writer.append(turn(1));
      writer.append(createEvent("error", 1, { name: "Note", message: "a warning", fatal: false }));
      await journal.append("r", [journalRecords.start("r")]);
      expect(await types()).toEqual(["turn_start", "error"]); // there once the append is acknowledged
    });
    expect(carried).toBe(1);
    // Events alone: one request at the end of the turn.
    const alone = await requests(async () => {
      writer.append(turn(2));
      writer.append(turn(3));
      expect(await types()).toHaveLength(2); // not sent yet
      await new Promise((resolve) => setImmediate(resolve));
    });
    expect(alone).toBe(1);
    expect(await types()).toHaveLength(4);
    // After `finish` the writer is detached: an append carries nothing, an event goes at once.
    writer.append(createEvent("loop_end", 3, { stopReason: "completed", text: "done" }));
    await writer.finish({ end: true });
    expect(await types()).toEqual(["turn_start", "error", "turn_start", "turn_start", "loop_end"]);
    expect(await requests(() => journal.append("r", [journalRecords.response(0)]))).toBe(1);
    expect(await admin.ttl(key)).toBeGreaterThan(3_590);
  });

  it("reports a failed event carried by an append from finish, and the append succeeds", async () => {
    const prefix = `${base}${randomUUID()}:`;
    const journal = new RedisJournal({ client, prefix });
    const key = `${prefix}events:{f}`;
    await admin.set(key, "not a stream");
    const writer = new RunEventWriter({
      client,
      key,
      maxLen: 100,
      ttlSeconds: 60,
      journal: { journal, runId: "f" },
    });
    writer.append(turn(1));
    await journal.append("f", [journalRecords.start("f")]);
    expect(await journal.load("f")).toHaveLength(1);
    await expect(writer.finish({ end: false })).rejects.toThrow(/WRONGTYPE/);
  });
});
