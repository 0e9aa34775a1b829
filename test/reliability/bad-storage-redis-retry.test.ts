import { randomUUID } from "node:crypto";
import { connect, createServer, type Server, type Socket } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { validateHistory } from "../../src/context/validate-history.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";

// A Redis reply that arrives after the client's command timeout: the command was applied, the client saw a
// failure, the append is tried again. The stored history must hold the step once.

interface DelayingProxy {
  port: number;
  /** Holds every reply for `ms` once a client command containing all of `needles` goes through. */
  armOnce(needles: string[], ms: number): void;
  /** How many times it delayed. */
  readonly delayed: number;
  close(): Promise<void>;
}

/** A TCP proxy to the real Redis that can hold the replies of one command past the client's timeout. */
async function delayingProxy(): Promise<DelayingProxy> {
  let armed: { needles: string[]; ms: number } | undefined;
  let holdUntil = 0;
  let delayed = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(6379, "127.0.0.1");
    sockets.add(client);
    sockets.add(upstream);
    let queue: Promise<void> = Promise.resolve();
    client.on("data", (chunk) => {
      const text = chunk.toString("latin1").toLowerCase();
      if (armed?.needles.every((needle) => text.includes(needle.toLowerCase()))) {
        holdUntil = Date.now() + armed.ms;
        armed = undefined;
        delayed++;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      // Replies keep their order: each waits for the ones before it, and for the hold window.
      queue = queue.then(async () => {
        const wait = holdUntil - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (!client.destroyed) client.write(chunk);
      });
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    armOnce: (needles, ms) => {
      armed = { needles, ms };
    },
    get delayed() {
      return delayed;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let proxy: DelayingProxy;
beforeAll(async () => {
  proxy = await delayingProxy();
});
afterAll(() => proxy.close());

const roll = tool({
  name: "roll",
  description: "Rolls a die.",
  parameters: z.object({}),
  execute: async () => "4",
});

describe("RedisStore behind a proxy that delays a reply past the command timeout", () => {
  it("stores the step once (no duplicate tool call ids) although the append was sent twice", async () => {
    const prefix = `agentloop-retry-${randomUUID()}:`;
    const sessionId = `retry-${randomUUID()}`;
    // The user's own client, through the proxy, with a short command timeout.
    const client = new Redis({ host: "127.0.0.1", port: proxy.port, commandTimeout: 200, lazyConnect: true });
    await client.connect();
    const store = new RedisStore({ client, prefix });
    // Warm up: the append script gets cached on the server, so the armed command is the append itself.
    await store.append(`warm-${sessionId}`, [{ role: "user", content: "warm" }], { appendId: "warm" });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "call_1", name: "roll", arguments: {} }] },
      { text: "You rolled 4." },
    ]);
    const agent = new Agent({ model, store, tools: [roll] });
    proxy.armOnce(["evalsha", store.listKey(sessionId)], 300);
    const result = await agent.run("Roll a die.", { sessionId });
    expect(proxy.delayed).toBe(1);
    expect(result.stopReason).toBe("completed");

    const direct = new Redis({ host: "127.0.0.1", port: 6379 });
    const stored = (await store.load(sessionId))?.messages ?? [];
    const raw = await direct.lrange(store.listKey(sessionId), 0, -1);
    await direct.del(...(await direct.keys(`${prefix}*`)));
    await direct.quit();
    await store.close();
    client.disconnect();

    // Each record reached Redis once: the retried append was dropped by the store, not only on load.
    expect(raw).toHaveLength(4);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(validateHistory(stored)).toEqual([]);
  });
});
