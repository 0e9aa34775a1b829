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
  create: async () => new RedisJournal({ url: URL, prefix: `${base}${randomUUID()}:` }),
  close: (journal) => (journal as RedisJournal).close(),
  reopen: async (journal) => new RedisJournal({ url: URL, prefix: (journal as RedisJournal).prefix }),
});

const { start, response, end } = journalRecords;

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
