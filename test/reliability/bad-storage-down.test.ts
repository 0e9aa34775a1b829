import { type AddressInfo, createServer, type Socket } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { StoreError } from "../../src/errors/store-error.js";
import { PostgresStore } from "../../src/integrations/postgres/postgres-store.js";
import { startFreezingProxy } from "../../src/integrations/postgres/test-utils/freezing-proxy.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import type { Message } from "../../src/models/message.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import type { SessionStore } from "../../src/stores/session-store.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";

// Bad input from storage: a store that is down (clear error, bounded time, no model call, no partial write).

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
});
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 50)); // late rejections of closed connections
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

/** A port on 127.0.0.1 where nothing listens (bound, then closed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server that accepts connections and never answers (a hung or overloaded backend). */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Runs a session on `store` with a model that must not be called; the run must reject with StoreError. */
async function expectStoreDown(store: SessionStore & { close(): Promise<void> }, withinMs: number) {
  const model = new ScriptedModel([]);
  const started = Date.now();
  try {
    const error: unknown = await new Agent({ model, store }).run("hello", { sessionId: "s" }).then(
      (result) => result.error ?? new Error(`the run did not fail: ${result.stopReason}`),
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(withinMs);
    expect(StoreError.isInstance(error), `expected StoreError, got ${String(error)}`).toBe(true);
    expect(model.calls).toHaveLength(0);
    return error as StoreError;
  } finally {
    await store.close();
  }
}

describe("bad storage: a store that is down", () => {
  it("RedisStore where nothing listens: StoreError at once, naming the address", async () => {
    const port = await freePort();
    const error = await expectStoreDown(new RedisStore({ url: `redis://127.0.0.1:${port}` }), 2_000);
    expect(error.message).toContain('RedisStore lock of session "s" failed');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("RedisStore on a server that never answers: StoreError within the ready timeout, not a hang", async () => {
    const server = await silentServer();
    try {
      const store = new RedisStore({ url: `redis://127.0.0.1:${server.port}` });
      const error = await expectStoreDown(store, 8_000);
      expect(error.message).toContain(`Redis at 127.0.0.1:${server.port}`);
    } finally {
      await server.close();
    }
  });

  it("PostgresStore where nothing listens: StoreError at once", async () => {
    const port = await freePort();
    const store = new PostgresStore({ connectionString: `postgres://postgres@127.0.0.1:${port}/test` });
    const error = await expectStoreDown(store, 2_000);
    expect(error.message).toContain('PostgresStore lock of session "s" failed');
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("PostgresStore on a server that never answers: StoreError within the connect timeout", async () => {
    const server = await silentServer();
    try {
      const store = new PostgresStore({
        connectionString: `postgres://postgres@127.0.0.1:${server.port}/test`,
      });
      const error = await expectStoreDown(store, 4_000);
      expect(error.message).toContain("timeout");
    } finally {
      await server.close();
    }
  });
});

describe("bad storage: a store that stops answering after it connected", () => {
  it("PostgresStore: a query with no answer fails with a StoreError after queryTimeoutMs, not a hang", async () => {
    const proxy = await startFreezingProxy({ target: 5432 });
    const store = new PostgresStore({
      connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/test`,
      table: `agentloop_frozen_${process.pid}`,
      queryTimeoutMs: 500,
    });
    try {
      const model = new ScriptedModel([{ text: "hi" }]);
      const ok = await new Agent({ model, store }).run("hello", { sessionId: "s" });
      expect(ok.stopReason).toBe("completed");
      proxy.freeze();
      const started = Date.now();
      const error = await store.load("s").then(
        () => new Error("expected the load to fail"),
        (e: unknown) => e,
      );
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(StoreError.isInstance(error), `expected StoreError, got ${String(error)}`).toBe(true);
      expect((error as Error).message).toMatch(/timeout/i);
    } finally {
      await proxy.close();
      await store.close().catch(() => undefined);
      const admin = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
      await admin.connect();
      await admin.query(`DROP TABLE IF EXISTS agentloop_frozen_${process.pid}`);
      await admin.end();
    }
  });

  it("PostgresStore refuses a queryTimeoutMs that is not a positive number", () => {
    expect(() => new PostgresStore({ queryTimeoutMs: -1 })).toThrow(/queryTimeoutMs/);
  });
});

/** A MemoryStore whose appends fail from the `failFrom`-th call on (the backend went away mid-run). */
class FailingAppendStore extends MemoryStore {
  appends = 0;
  constructor(private readonly failFrom: number) {
    super();
  }
  override async append(sessionId: string, messages: readonly Message[]): Promise<void> {
    this.appends++;
    if (this.appends >= this.failFrom) {
      throw new StoreError({ message: "backend unavailable", operation: "append", sessionId });
    }
    await super.append(sessionId, messages);
  }
}

describe("bad storage: a store that fails on write after the model answered", () => {
  const lookup = tool({
    name: "lookup",
    description: "lookup",
    parameters: z.object({ n: z.number() }),
    execute: async ({ n }) => `result ${n}`,
  });
  const script = () =>
    new ScriptedModel([
      { toolCalls: [{ name: "lookup", arguments: { n: 1 } }] },
      { toolCalls: [{ name: "lookup", arguments: { n: 2 } }] },
      { text: "done" },
    ]);

  it("ends the run with the StoreError at once; the steps persisted before are still stored", async () => {
    const store = new FailingAppendStore(2);
    const model = script();
    const result = await new Agent({ model, tools: [lookup], store }).run("go", { sessionId: "s" });
    expect(result.stopReason).toBe("error");
    expect(StoreError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toContain("backend unavailable");
    expect(model.calls).toHaveLength(2); // no further model call after the failed write
    const stored = await store.load("s");
    expect(stored?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(stored?.messages[2]).toMatchObject({ role: "tool", content: "result 1" });
    // The session lock was released: another run could take it.
    expect(await store.lock("s", { ttlMs: 1_000 })).toBeDefined();
  });

  /** A MemoryStore whose appends number `failing` fail (after applying the write when `applied`). */
  const flakyStore = (failing: readonly number[], applied = false) => {
    let calls = 0;
    return new (class extends MemoryStore {
      override async append(
        sessionId: string,
        messages: readonly Message[],
        options?: { appendId?: string },
      ): Promise<void> {
        calls++;
        if (failing.includes(calls)) {
          // A reply lost after the write was applied, or a write that never happened.
          if (applied) await super.append(sessionId, messages, options);
          throw new StoreError({ message: "blip", operation: "append", sessionId });
        }
        await super.append(sessionId, messages, options);
      }
    })();
  };

  it("a write that fails once is retried at once with its append id: the run goes on, nothing lost", async () => {
    for (const applied of [false, true]) {
      const store = flakyStore([1], applied);
      const result = await new Agent({ model: script(), tools: [lookup], store }).run("go", {
        sessionId: "s",
      });
      expect(result.stopReason).toBe("completed");
      const stored = await store.load("s");
      expect(stored?.messages).toEqual(result.messages);
      expect(stored?.messages.map((m) => m.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
      ]);
    }
  });

  it("a write that fails twice ends the run; the final flush stores the step once", async () => {
    for (const applied of [false, true]) {
      const store = flakyStore([2, 3], applied);
      const result = await new Agent({ model: script(), tools: [lookup], store }).run("go", {
        sessionId: "s",
      });
      expect(result.stopReason).toBe("error");
      expect(result.error?.message).toContain("blip");
      const stored = await store.load("s");
      expect(stored?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
      expect(stored?.messages).toEqual(result.messages);
    }
  });
});
