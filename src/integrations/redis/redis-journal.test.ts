import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { describeRunJournalContract, journalRecords } from "../../durable/run-journal-contract.js";
import { StoreError } from "../../errors/store-error.js";
import { RedisJournal } from "./redis-journal.js";

const URL = "redis://127.0.0.1:6379";
const base = `agentloop-test:${randomUUID()}:`;
const admin = new Redis(URL);

async function prefixedKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await admin.scan(cursor, "MATCH", `${base}*`, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys;
}

afterAll(async () => {
  const keys = await prefixedKeys();
  if (keys.length > 0) await admin.del(...keys);
  expect(await prefixedKeys()).toEqual([]);
  await admin.quit();
});

describeRunJournalContract({
  name: "RedisJournal",
  // A prefix per test: `list` sees only that test's runs.
  // `indexRefreshMs: 0`: the contract reads `updatedAt` as the exact last append time.
  create: async () => new RedisJournal({ url: URL, prefix: `${base}${randomUUID()}:`, indexRefreshMs: 0 }),
  close: (journal) => (journal as RedisJournal).close(),
  reopen: async (journal) =>
    new RedisJournal({ url: URL, prefix: (journal as RedisJournal).prefix, indexRefreshMs: 0 }),
});

const { start, response, toolStart, toolResult, end } = journalRecords;

/** The requests (name and args) Redis receives for keys under `prefix` while `task` runs (MONITOR). */
async function monitorKeys(prefix: string, task: () => Promise<void>): Promise<string[][]> {
  const monitor = await admin.monitor();
  const seen: string[][] = [];
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    // Requests only: the commands a Lua script runs show with source "lua".
    if (source !== "lua" && args.some((arg) => arg.startsWith(prefix))) seen.push(args);
  });
  try {
    await task();
    await admin.ping(); // MONITOR lines arrive asynchronously: let the last ones in
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    monitor.disconnect();
  }
  return seen;
}

describe("RedisJournal", () => {
  it("keeps a run in a list, the index in a sorted set and finished runs in a set", async () => {
    const prefix = `${base}layout:`;
    const journal = new RedisJournal({ client: admin, prefix });
    await journal.append("r1", [start("r1"), response(0)]);
    await journal.append("r1", [end("r1")]);
    const entries = await admin.lrange(`${prefix}journal:{r1}`, 0, -1);
    expect(entries.map((entry) => JSON.parse(entry).kind)).toEqual(["start", "model_response", "end"]);
    expect(Number(await admin.zscore(`${prefix}journal-runs`, "r1"))).toBeGreaterThan(0);
    expect(await admin.sismember(`${prefix}journal-finished`, "r1")).toBe(1);
    await journal.delete("r1");
    expect(
      await admin.exists(`${prefix}journal:{r1}`, `${prefix}journal-runs`, `${prefix}journal-finished`),
    ).toBe(0);
    await journal.close();
    expect(admin.status).toBe("ready"); // a client passed in stays open
  });

  it("updates the index only when a run starts or ends, or indexRefreshMs after this object last did", async () => {
    const prefix = `${base}index-${randomUUID()}:`;
    const journal = new RedisJournal({ client: admin, prefix, indexRefreshMs: 200 });
    const score = async () => Number(await admin.zscore(`${prefix}journal-runs`, "r"));
    const sent = await monitorKeys(prefix, async () => {
      await journal.append("r", [start("r")]);
      const started = await score();
      await journal.append("r", [response(0)]);
      await journal.append("r", [toolStart("c1")]);
      await journal.append("r", [toolResult("c1")]);
      expect(await score()).toBe(started); // mid-run appends: a bare RPUSH
      await new Promise((resolve) => setTimeout(resolve, 220));
      await journal.append("r", [response(1)]);
      expect(await score()).toBeGreaterThanOrEqual(started + 200); // refreshed once due
      await journal.append("r", [end("r")]);
    });
    const names = sent.map((args) => args[0]?.toLowerCase());
    expect(names.filter((name) => name === "rpush")).toHaveLength(6);
    expect(names.filter((name) => name === "zadd")).toHaveLength(3); // start, the refresh, end
    expect(names.filter((name) => name === "sadd")).toHaveLength(1);
    expect((await journal.list()).map((info) => [info.runId, info.finished])).toEqual([["r", true]]);
    expect((await journal.load("r"))?.map((record) => record.kind)).toEqual([
      "start",
      "model_response",
      "tool_start",
      "tool_result",
      "model_response",
      "end",
    ]);
    // Another journal object (another process taking the run over) indexes with its first append.
    const other = new RedisJournal({ client: admin, prefix, indexRefreshMs: 60_000 });
    await journal.append("s", [start("s")]);
    const before = Number(await admin.zscore(`${prefix}journal-runs`, "s"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await other.append("s", [response(0)]);
    expect(Number(await admin.zscore(`${prefix}journal-runs`, "s"))).toBeGreaterThan(before);
    expect(() => new RedisJournal({ client: admin, indexRefreshMs: -1 })).toThrow(/indexRefreshMs/);
  });

  it("reads the run's records with its lock, so the load just after it costs no round trip", async () => {
    const prefix = `${base}prefetch-${randomUUID()}:`;
    const journal = new RedisJournal({ client: admin, prefix });
    await journal.append("p", [start("p"), response(0)]);
    const sent = await monitorKeys(prefix, async () => {
      const lock = await journal.lock("p", { ttlMs: 10_000 });
      expect(lock).toBeDefined();
      expect((await journal.load("p"))?.map((record) => record.kind)).toEqual(["start", "model_response"]);
      expect(await journal.lock("p", { ttlMs: 10_000 })).toBeUndefined(); // held: nothing read
      await journal.append("p", [response(1)]);
      expect(await journal.load("p")).toHaveLength(3); // read again: the prefetch is used once
      await lock?.release();
    });
    const names = sent.map((args) => args[0]?.toLowerCase());
    expect(names.filter((name) => name === "lrange")).toEqual(["lrange"]); // the second load's
    expect(names.filter((name) => name === "set")).toEqual([]); // SET NX runs inside the script
    // An unknown run: the lock is taken, the load finds nothing.
    const lock = await journal.lock("nothing", { ttlMs: 10_000 });
    expect(await journal.load("nothing")).toBeUndefined();
    await lock?.release();
  });

  it("rejects with StoreError within 2 s when Redis is down", async () => {
    const journal = new RedisJournal({ url: "redis://127.0.0.1:1", prefix: base });
    const started = Date.now();
    const error = await journal.append("down", [start("down")]).catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('RedisJournal append of run "down" failed');
    expect(Date.now() - started).toBeLessThan(2_500);
    await journal.close();
  });
});
