// agentloop/redis on a real local Redis Cluster (three redis-server processes started here, joined with
// `redis-cli --cluster create`): the session, state and journal contracts, sessions spread over slots, and a
// durable run paused on one Agent object and finished by another, all through an ioredis `Cluster`.
import { randomUUID } from "node:crypto";
import type { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { describeRunJournalContract } from "../../src/durable/run-journal-contract.js";
import { RedisJournal, RedisStateStore, RedisStore } from "../../src/integrations/redis/index.js";
import type { Message } from "../../src/models/message.js";
import { describeSessionStoreContract } from "../../src/stores/session-store-contract.js";
import { describeStateStoreContract } from "../../src/stores/state-store-contract.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";
import { tool } from "../../src/tools/tool.js";
import {
  type LocalRedisCluster,
  REDIS_CLUSTER_SKIP_REASON,
  startRedisCluster,
} from "../test-utils/start-redis-cluster.js";

if (REDIS_CLUSTER_SKIP_REASON !== undefined) console.warn(REDIS_CLUSTER_SKIP_REASON);

const user = (content: string): Message => ({ role: "user", content });

describe.skipIf(REDIS_CLUSTER_SKIP_REASON !== undefined)("agentloop/redis on a Redis Cluster", () => {
  let cluster: LocalRedisCluster;
  let client: Cluster;
  const slotOf = async (key: string) => Number(await client.cluster("KEYSLOT", key));
  /** The port of the master serving `key`'s slot. */
  const nodeOf = async (key: string): Promise<number> => {
    const slot = await slotOf(key);
    const ranges = (await client.cluster("SLOTS")) as Array<[number, number, [string, number]]>;
    const range = ranges.find(([from, to]) => slot >= from && slot <= to);
    if (range === undefined) throw new Error(`no node serves slot ${slot}`);
    return range[2][1];
  };

  beforeAll(async () => {
    cluster = await startRedisCluster();
    client = cluster.connect();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  describeSessionStoreContract({
    name: "RedisStore on a Redis Cluster",
    create: async () => new RedisStore({ client, prefix: `c-${randomUUID()}:` }),
    writeRawRecord: async (store, sessionId, record) => {
      await client.rpush((store as RedisStore).listKey(sessionId), JSON.stringify(record));
    },
    propertyRuns: 10,
  });

  describeStateStoreContract({
    name: "RedisStateStore on a Redis Cluster",
    create: async () => new RedisStateStore({ client, prefix: `c-${randomUUID()}:` }),
    propertyRuns: 10,
  });

  describeRunJournalContract({
    name: "RedisJournal on a Redis Cluster",
    // `indexRefreshMs: 0`: the contract reads `updatedAt` as the exact last append time.
    create: async () => new RedisJournal({ client, prefix: `c-${randomUUID()}:`, indexRefreshMs: 0 }),
    reopen: async (journal) =>
      new RedisJournal({ client, prefix: (journal as RedisJournal).prefix, indexRefreshMs: 0 }),
  });

  describe("RedisStore", () => {
    it("keeps each session's keys in one slot and spreads sessions over the nodes", async () => {
      const store = new RedisStore({ client, prefix: `spread-${randomUUID()}:` });
      // Ids that would cut a tag of their own short or leave it empty are tagged by their hash.
      const ids = [...Array.from({ length: 24 }, (_, index) => `user-${index}`), "}lead", "a}b", "{x}", ""];
      await Promise.all(ids.map((id) => store.append(id, [user(`hello ${id}`)], { appendId: "a1" })));
      await Promise.all(ids.map((id) => store.saveState(id, { id })));
      const nodes = new Set<number>();
      for (const id of ids) {
        const keys = [store.listKey(id), store.stateKey(id), store.lastAppendKey(id), store.lockKey(id)];
        const slots = new Set(await Promise.all(keys.map(slotOf)));
        expect(slots.size).toBe(1);
        nodes.add(await nodeOf(store.listKey(id)));
        expect((await store.load(id))?.messages).toEqual([user(`hello ${id}`)]);
      }
      expect(nodes.size).toBe(3);
      expect((await store.list()).map((info) => info.sessionId).sort()).toEqual([...ids].sort());
      await store.delete("user-0");
      expect(await store.load("user-0")).toBeUndefined();
      expect(await store.list()).toHaveLength(ids.length - 1);
    });

    it("concurrent appends and locks of two sessions in different slots", async () => {
      const store = new RedisStore({ client, prefix: `two-${randomUUID()}:` });
      const [a, b] = ["alice", "bob"];
      expect(await slotOf(store.listKey(a))).not.toBe(await slotOf(store.listKey(b)));
      const lockA = await store.lock(a, { ttlMs: 5_000 });
      const lockB = await store.lock(b, { ttlMs: 5_000 });
      expect(lockA).toBeDefined();
      expect(lockB).toBeDefined();
      expect(await store.lock(a, { ttlMs: 5_000 })).toBeUndefined();
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          store.append(index % 2 === 0 ? a : b, [user(`${index}-1`), user(`${index}-2`)]),
        ),
      );
      expect(await lockA?.renew()).toBe(true);
      await lockA?.release();
      expect(await lockA?.renew()).toBe(false);
      const again = await store.lock(a, { ttlMs: 5_000 });
      expect(again).toBeDefined();
      await Promise.all([again?.release(), lockB?.release()]);
      for (const [id, parity] of [
        [a, 0],
        [b, 1],
      ] as const) {
        const contents = (await store.load(id))?.messages.map((message) => String(message.content)) ?? [];
        expect(contents).toHaveLength(20);
        for (let index = 0; index < contents.length; index += 2) {
          const call = contents[index]?.split("-")[0];
          expect(Number(call) % 2).toBe(parity);
          expect(contents[index + 1]).toBe(`${call}-2`);
        }
      }
      expect(await store.compact(a)).toBe(true); // one snapshot record (a script on the session's slot)
      expect((await store.load(a))?.messages).toHaveLength(20);
      await store.replace(a, [user("fresh")]);
      expect((await store.load(a))?.messages).toEqual([user("fresh")]);
    });
  });

  it("RedisStateStore.clear() removes the values on every node, and only under its prefix", async () => {
    const prefix = `kv-${randomUUID()}:`;
    const store = new RedisStateStore({ client, prefix });
    const other = new RedisStateStore({ client, prefix: `kv-other-${randomUUID()}:` });
    const keys = Array.from({ length: 30 }, (_, index) => `key-${index}`);
    await Promise.all(keys.map((key) => store.save(key, { key })));
    await other.save("kept", 1);
    const nodes = new Set(await Promise.all(keys.map((key) => nodeOf(store.valueKey(key)))));
    expect(nodes.size).toBe(3);
    await store.clear();
    for (const key of keys) expect(await store.load(key)).toBeUndefined();
    expect(await other.load("kept")).toBe(1);
  });

  it("a durable run in a session: paused on one Agent object, finished by another", async () => {
    const prefix = `run-${randomUUID()}:`;
    const effects: string[] = [];
    const tools = [
      tool({
        name: "lookup",
        description: "looks a thing up",
        parameters: z.object({ q: z.string() }),
        execute: ({ q }) => {
          effects.push(`lookup ${q}`);
          return `found ${q}`;
        },
      }),
      tool({
        name: "pay",
        description: "pays",
        parameters: z.object({ to: z.string() }),
        needsApproval: true,
        execute: ({ to }) => {
          effects.push(`pay ${to}`);
          return `paid ${to}`;
        },
      }),
    ];
    // Two objects each (as two processes would have), on the same cluster.
    const open = () => ({
      store: new RedisStore({ client, prefix }),
      journal: new RedisJournal({ client, prefix }),
    });
    const first = open();
    const runId = `r-${randomUUID()}`;
    const sessionId = `s-${randomUUID()}`;
    const paused = await new Agent({
      model: new ScriptedModel([
        { toolCalls: [{ id: "l1", name: "lookup", arguments: { q: "bill" } }] },
        { toolCalls: [{ id: "p1", name: "pay", arguments: { to: "acme" } }] },
      ]),
      tools,
      ...first,
    }).run("Pay the bill", { runId, sessionId });
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(effects).toEqual(["lookup bill"]);
    expect((await first.journal.list()).map((info) => [info.runId, info.finished])).toEqual([[runId, false]]);

    const second = open();
    const model = new ScriptedModel([{ text: "Paid acme." }]);
    const done = await new Agent({ model, tools, ...second }).resume(runId, { approve: ["p1"] });
    expect(done.text).toBe("Paid acme.");
    expect(effects).toEqual(["lookup bill", "pay acme"]);
    expect(model.calls).toHaveLength(1);
    const kinds = (await second.journal.load(runId))?.map((record) => record.kind);
    expect(kinds?.[0]).toBe("start");
    expect(kinds).toContain("approval_decided");
    expect(kinds?.at(-1)).toBe("end");
    expect((await second.journal.list()).map((info) => [info.runId, info.finished])).toEqual([[runId, true]]);
    expect((await second.store.load(sessionId))?.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(await second.journal.compact(runId)).toBe(true);
    expect((await second.journal.load(runId))?.map((record) => record.kind)).toEqual(["start", "end"]);
    // The run's own keys share a slot; the run and the session are independent of each other's slots.
    const runSlots = new Set(
      await Promise.all([second.journal.runKey(runId), second.journal.lockKey(runId)].map(slotOf)),
    );
    expect(runSlots.size).toBe(1);
  });
});
