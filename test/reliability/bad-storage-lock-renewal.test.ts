import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { FileJournal } from "../../src/durable/file-journal.js";
import { InvalidArgumentError } from "../../src/errors/invalid-argument-error.js";
import { LockLostError } from "../../src/errors/lock-lost-error.js";
import { SessionBusyError } from "../../src/errors/session-busy-error.js";
import { PostgresStore } from "../../src/integrations/postgres/postgres-store.js";
import { RedisJournal } from "../../src/integrations/redis/redis-journal.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import { FileStore } from "../../src/stores/file-store.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import type { SessionStore } from "../../src/stores/session-store.js";
import { ScriptedModel } from "../../src/testing/index.js";

// Session locks live `lockTtlMs` without renewal and are renewed every third of it while the run lives: a run
// longer than the TTL keeps its session to itself, and leaves no timer behind.

const dbUser = process.env.PGUSER ?? userInfo().username;
const connectionString = `postgres://${encodeURIComponent(dbUser)}@127.0.0.1:5432/test`;
const table = `agentloop_renew_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const prefix = `agentloop-renew-${randomUUID()}:`;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-renew-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  const admin = new pg.Pool({ connectionString, max: 1 });
  await admin.query(`DROP TABLE IF EXISTS "${table}", "${table}_locks"`);
  await admin.end();
  const redis = new Redis();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const TTL = 300;
const stores: [string, () => SessionStore][] = [
  ["MemoryStore", () => new MemoryStore({ lockTtlMs: TTL })],
  ["FileStore", () => new FileStore({ dir, lockTtlMs: TTL })],
  ["RedisStore", () => new RedisStore({ prefix, lockTtlMs: TTL })],
  ["PostgresStore", () => new PostgresStore({ connectionString, table, lockTtlMs: TTL })],
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const timers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;
const sockets = () => process.getActiveResourcesInfo().filter((name) => name === "TCPSocketWrap").length;

describe.each(stores)("%s session lock renewal", (_name, create) => {
  it("a 1 s run keeps a 300 ms lock: every other run is busy throughout; no timer is left", async () => {
    const store = create();
    const sessionId = `renew-${randomUUID()}`;
    // Warm the store up (connections, tables), so the timer count compares like with like.
    await store.load(sessionId);
    const before = timers();
    const socketsBefore = sockets();
    const agent = new Agent({ model: new ScriptedModel([{ text: "slow answer", delayMs: 1_000 }]), store });
    const intruder = new Agent({ model: new ScriptedModel([]), store });
    const run = agent.run("take your time", { sessionId });
    let finished = false;
    void run.finally(() => {
      finished = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    let probes = 0;
    while (!finished) {
      const error = await intruder.run("me too", { sessionId }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      if (finished) break;
      if (!SessionBusyError.isInstance(error)) {
        // The probe got the session: legitimate only once the run released it (it resolves a moment after).
        expect(await Promise.race([run.then(() => "settled"), sleep(200).then(() => "running")])).toBe(
          "settled",
        );
        break;
      }
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    expect(probes).toBeGreaterThan(8); // probed for the whole second, past three lifetimes of the lock
    const result = await run;
    expect(result.stopReason).toBe("completed");
    // (A probe that got the session right after the release added its message after these.)
    expect((await store.load(sessionId))?.messages.map((m) => m.content).slice(0, 2)).toEqual([
      "take your time",
      "slow answer",
    ]);
    // No timer left by the run (the lock's renewal). A connection pool that opened another connection for the
    // contending probes keeps an idle timer per idle connection (pg: idleTimeoutMillis): one per new socket.
    expect(timers() - Math.max(0, sockets() - socketsBefore)).toBeLessThanOrEqual(before);
    // Released at the end: the next run gets the session at once.
    const next = new Agent({ model: new ScriptedModel([{ text: "next" }]), store });
    expect((await next.run("again", { sessionId })).text).toBe("next");
    await store.close?.();
  });
});

describe("a session lock lost during the run", () => {
  it("aborts the run with LockLostError and writes nothing after the loss", async () => {
    const inner = new MemoryStore({ lockTtlMs: 150 });
    // A store whose lock is taken from it as soon as it is held: its renewal reports the loss.
    const store: SessionStore = {
      lockTtlMs: 150,
      load: (id) => inner.load(id),
      append: (id, messages, options) => inner.append(id, messages, options),
      replace: (id, messages) => inner.replace(id, messages),
      saveState: (id, state) => inner.saveState(id, state),
      list: () => inner.list(),
      delete: (id) => inner.delete(id),
      lock: async (id, options) => {
        const lock = await inner.lock(id, options);
        return lock && { release: () => lock.release(), renew: async () => false };
      },
    };
    const agent = new Agent({ model: new ScriptedModel([{ text: "too late", delayMs: 2_000 }]), store });
    const started = Date.now();
    const result = await agent.run("slow", { sessionId: "lost" });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result.stopReason).toBe("error");
    expect(LockLostError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/lock on session "lost" was lost/);
    // The user message was never persisted after the loss (the first flush comes after the model call).
    expect(await inner.load("lost")).toBeUndefined();
  });
});

describe("the lockTtlMs option", () => {
  it("is validated by every store and journal", () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 10]) {
      for (const create of [
        () => new MemoryStore({ lockTtlMs: bad }),
        () => new FileStore({ dir, lockTtlMs: bad }),
        () => new RedisStore({ prefix, lockTtlMs: bad }),
        () => new PostgresStore({ connectionString, table, lockTtlMs: bad }),
        () => new FileJournal({ dir, lockTtlMs: bad }),
        () => new RedisJournal({ prefix, lockTtlMs: bad }),
      ]) {
        expect(create).toThrow(expect.objectContaining({ argument: "lockTtlMs" }));
        try {
          create();
        } catch (error) {
          expect(InvalidArgumentError.isInstance(error)).toBe(true);
        }
      }
    }
  });
});
