import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { journalRecords } from "../../durable/run-journal-contract.js";
import type { Message } from "../../models/message.js";
import { migrateRedisKeys } from "./migrate-redis-keys.js";
import { RedisJournal } from "./redis-journal.js";
import { RedisStore } from "./redis-store.js";

const client = new Redis({ host: "127.0.0.1", port: 6379 });
const prefix = `agentloop-test:migrate-${randomUUID()}:`;

afterAll(async () => {
  const keys = await client.keys(`${prefix}*`);
  if (keys.length > 0) await client.del(...keys);
  await client.quit();
});

describe("migrateRedisKeys", () => {
  it("renames the pre-0.2 keys so the stores find the sessions and runs again, once", async () => {
    const { start, response, end } = journalRecords;
    const message: Message = { role: "user", content: "hi" };
    // What 0.1 wrote: untagged per-session and per-run keys, and the index entries.
    await client.rpush(`${prefix}session:s1`, JSON.stringify({ v: 1, type: "message", at: 1, message }));
    await client.set(`${prefix}state:s1`, JSON.stringify({ v: 1, type: "state", at: 2, state: { k: 1 } }));
    await client.set(`${prefix}last-append:s1`, "a1");
    await client.rpush(`${prefix}session:a}b`, JSON.stringify({ v: 1, type: "message", at: 1, message }));
    await client.zadd(`${prefix}sessions`, 2, "s1", 1, "a}b");
    await client.rpush(
      `${prefix}journal:r1`,
      ...[start("r1"), response(0), end("r1")].map((r) => JSON.stringify(r)),
    );
    await client.zadd(`${prefix}journal-runs`, 3, "r1");
    await client.sadd(`${prefix}journal-finished`, "r1");
    const store = new RedisStore({ client, prefix });
    const journal = new RedisJournal({ client, prefix });
    expect(await store.load("s1")).toBeUndefined(); // invisible until migrated

    expect(await migrateRedisKeys({ client, prefix })).toEqual({ renamed: 5, skipped: [] });
    expect(await store.load("s1")).toMatchObject({ sessionId: "s1", messages: [message], state: { k: 1 } });
    expect((await store.load("a}b"))?.messages).toEqual([message]);
    expect((await journal.load("r1"))?.map((record) => record.kind)).toEqual([
      "start",
      "model_response",
      "end",
    ]);
    expect(await journal.list()).toMatchObject([{ runId: "r1", finished: true }]);
    // The last append id moved too: a retry of the last append is still dropped.
    await store.append("s1", [message], { appendId: "a1" });
    expect((await store.load("s1"))?.messages).toHaveLength(1);

    // Again: nothing to do. An old key whose new one exists is left and reported, never overwritten.
    expect(await migrateRedisKeys({ client, prefix })).toEqual({ renamed: 0, skipped: [] });
    await client.set(`${prefix}state:s1`, "old");
    expect(await migrateRedisKeys({ client, prefix })).toEqual({
      renamed: 0,
      skipped: [`${prefix}state:s1`],
    });
    expect((await store.load("s1"))?.state).toEqual({ k: 1 });
  });
});
