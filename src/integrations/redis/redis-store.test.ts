import { randomUUID } from "node:crypto";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { StoreError } from "../../errors/store-error.js";
import type { Message } from "../../models/message.js";
import { describeSessionStoreContract } from "../../stores/session-store-contract.js";
import { describeStateStoreContract } from "../../stores/state-store-contract.js";
import { RedisStateStore } from "./redis-state-store.js";
import { RedisStore } from "./redis-store.js";

const URL = "redis://127.0.0.1:6379";
const prefix = `agentloop-test:${randomUUID()}:`;
const admin = new Redis(URL);
const user = (content: string): Message => ({ role: "user", content });

async function prefixedKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await admin.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
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

describeSessionStoreContract({
  name: "RedisStore",
  create: async () => new RedisStore({ url: URL, prefix }),
  writeRawRecord: async (store, sessionId, record) => {
    await admin.rpush((store as RedisStore).listKey(sessionId), JSON.stringify(record));
  },
});

describeStateStoreContract({
  name: "RedisStateStore",
  create: async () => new RedisStateStore({ url: URL, prefix }),
});

describe("RedisStore", () => {
  it("compact writes nothing when a write lands between its read and its script (then resolves false)", async () => {
    const client = new Redis(URL);
    const store = new RedisStore({ client, prefix });
    const sessionId = `compact-race-${randomUUID()}`;
    await store.append(sessionId, [user("a")]);
    await store.append(sessionId, [user("b")]);
    // A write from elsewhere (an app's saveState, another process) just before the compaction script runs.
    const evalsha = client.evalsha.bind(client);
    let raced = false;
    client.evalsha = (async (...args: Parameters<typeof evalsha>) => {
      if (!raced && args[1] === 2) {
        raced = true;
        await admin.rpush(
          store.listKey(sessionId),
          JSON.stringify({ v: 1, type: "message", at: 1, message: user("c") }),
        );
      }
      return evalsha(...args);
    }) as typeof client.evalsha;
    try {
      expect(await store.compact(sessionId)).toBe(false);
      expect(raced).toBe(true);
      expect(await store.load(sessionId)).toMatchObject({
        messages: [user("a"), user("b"), user("c")],
        records: 3,
      });
      expect(await store.compact(sessionId)).toBe(true);
      expect(await store.load(sessionId)).toMatchObject({
        messages: [user("a"), user("b"), user("c")],
        records: 1,
      });
    } finally {
      await store.close();
      await client.quit();
    }
  });

  it("keeps records in a list, state in its own key and the index in a sorted set", async () => {
    const store = new RedisStore({ url: URL, prefix });
    const sessionId = `layout-${randomUUID()}`;
    await store.append(sessionId, [user("a"), user("b")]);
    await store.saveState(sessionId, { k: 1 });
    await store.replace(sessionId, [user("summary")]);
    const entries = (await admin.lrange(`${prefix}session:{${sessionId}}`, 0, -1)).map((entry) =>
      JSON.parse(entry),
    );
    expect(entries).toMatchObject([{ v: 1, type: "snapshot", messages: [user("summary")] }]);
    expect(JSON.parse((await admin.get(`${prefix}state:{${sessionId}}`))!)).toMatchObject({
      v: 1,
      type: "state",
      state: { k: 1 },
    });
    expect(Number(await admin.zscore(`${prefix}sessions`, sessionId))).toBeGreaterThan(0);
    const lock = await store.lock(sessionId, { ttlMs: 5_000 });
    const ttl = await admin.pttl(`${prefix}lock:{${sessionId}}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    await lock!.release();
    expect(await admin.exists(`${prefix}lock:{${sessionId}}`)).toBe(0);
    await store.delete(sessionId);
    expect(await admin.exists(`${prefix}session:{${sessionId}}`, `${prefix}state:{${sessionId}}`)).toBe(0);
    await store.close();
  });

  it("rejects with StoreError within 2 s when Redis is down, and writes nothing", async () => {
    const store = new RedisStore({ url: "redis://127.0.0.1:1", prefix });
    const sessionId = `down-${randomUUID()}`;
    for (const attempt of [
      () => store.append(sessionId, [user("lost")]),
      () => store.load(sessionId),
      () => store.lock(sessionId, { ttlMs: 1_000 }),
    ]) {
      const started = Date.now();
      const error = await attempt().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(StoreError.isInstance(error)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    await store.close();
    expect(await admin.exists(`${prefix}session:{${sessionId}}`)).toBe(0);
    const state = new RedisStateStore({ url: "redis://127.0.0.1:1", prefix });
    await expect(state.save("k", 1)).rejects.toSatisfy((error: unknown) => StoreError.isInstance(error));
    await state.close();
  });

  it("uses a client passed in without closing it; closes its own", async () => {
    const client = new Redis(URL);
    const store = new RedisStore({ client, prefix });
    await store.append(`own-${randomUUID()}`, [user("x")]);
    await store.close();
    expect(await client.ping()).toBe("PONG");
    await client.quit();
    const owned = new RedisStore({ url: URL, prefix });
    await owned.list();
    await owned.close();
    await expect(owned.list()).rejects.toSatisfy((error: unknown) => StoreError.isInstance(error));
  });

  it("fails fast while Redis is unreachable and recovers when it is back", async () => {
    // A TCP proxy in front of Redis plays the outage.
    const sockets = new Set<Socket>();
    const proxy = createServer((socket) => {
      const upstream = connect(6379, "127.0.0.1");
      sockets.add(socket).add(upstream);
      socket.pipe(upstream).pipe(socket);
      const close = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on("error", close).on("close", close);
      upstream.on("error", close).on("close", close);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const { port } = proxy.address() as AddressInfo;
    const store = new RedisStore({ url: `redis://127.0.0.1:${port}`, prefix });
    const sessionId = `outage-${randomUUID()}`;
    await store.append(sessionId, [user("before")]);

    await new Promise<void>((resolve) => {
      proxy.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    const started = Date.now();
    await expect(store.append(sessionId, [user("during")])).rejects.toSatisfy((error: unknown) =>
      StoreError.isInstance(error),
    );
    expect(Date.now() - started).toBeLessThan(2_000);

    await new Promise<void>((resolve) => proxy.listen(port, "127.0.0.1", resolve));
    let loaded: Message[] | undefined;
    for (let attempt = 0; attempt < 50 && loaded === undefined; attempt++) {
      loaded = await store.load(sessionId).then(
        (data) => data?.messages,
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          return undefined;
        },
      );
    }
    expect(loaded).toEqual([user("before")]);
    await store.close();
    await new Promise<void>((resolve) => {
      proxy.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  });
});
