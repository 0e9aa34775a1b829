// Unit tests of the worker's session pieces: the run-owned session lease and the idempotent history save.
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { saveSessionHistory } from "../../src/integrations/queue/session-history.js";
import { SessionLeases } from "../../src/integrations/queue/session-lease.js";
import type { Message } from "../../src/models/message.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import { createRedactor } from "../../src/stores/redactor.js";

const client = new Redis({ host: "127.0.0.1", port: 6379 });
const keyspace = { prefix: `aq-lease-${randomUUID().slice(0, 8)}`, name: "q" };
afterAll(async () => {
  const keys = await client.keys(`${keyspace.prefix}:*`);
  if (keys.length > 0) await client.del(...keys);
  await client.quit();
});

describe("SessionLeases", () => {
  it("gives a session to one run until that run's job is finished; a resumed run takes it back", async () => {
    const states = new Map<string, string>([
      ["a", "active"],
      ["b", "waiting"],
    ]);
    const leases = new SessionLeases({
      client,
      keyspace,
      jobState: async (runId) => states.get(runId) ?? "unknown",
    });
    expect(await leases.acquire("s1", "a")).toBe("taken");
    expect(await leases.acquire("s1", "b")).toBeUndefined();
    expect(await leases.acquire("s1", "a")).toBe("held"); // the same run again (resumed after a crash)
    states.set("a", "waiting"); // stalled, waiting to be resumed: still owns the session
    expect(await leases.acquire("s1", "b")).toBeUndefined();
    states.set("a", "completed"); // finished, but its worker died before releasing: stale
    expect(await leases.acquire("s1", "b")).toBe("taken");
    expect(await client.get(leases.key("s1"))).toBe("b");
    await leases.release("s1", "a"); // not the holder: nothing happens
    expect(await client.get(leases.key("s1"))).toBe("b");
    await leases.release("s1", "b");
    expect(await client.exists(leases.key("s1"))).toBe(0);
  });
});

describe("saveSessionHistory", () => {
  const user = (content: string): Message => ({ role: "user", content });
  const assistant = (content: string): Message => ({ role: "assistant", content });
  const system: Message = { role: "system", content: "sys" };

  it("appends the run's new messages once, without the agent's system prompt, redacted", async () => {
    const store = new MemoryStore();
    const prior = [user("hi"), assistant("hello")];
    await store.append("s", prior);
    const messages = [system, ...prior, user("mail me at a@b.com"), assistant("ok")];
    const save = () =>
      saveSessionHistory({
        store,
        sessionId: "s",
        prior,
        messages,
        system: "sys",
        redactor: createRedactor(),
      });
    await save();
    await save(); // a resumed job saves again: nothing is added
    const stored = (await store.load("s"))?.messages;
    expect(stored).toHaveLength(4);
    expect(stored?.[2]).toEqual(user("mail me at [REDACTED:email]"));
  });

  it("adds the run's messages after those another writer added since the run started", async () => {
    const store = new MemoryStore();
    const prior = [user("1"), assistant("2")];
    await store.append("s", [...prior, user("other"), assistant("other reply")]);
    const messages = [...prior, user("3"), assistant("4")];
    await saveSessionHistory({
      store,
      sessionId: "s",
      prior,
      messages,
      system: undefined,
      redactor: undefined,
    });
    expect((await store.load("s"))?.messages.map((message) => message.content)).toEqual([
      "1",
      "2",
      "other",
      "other reply",
      "3",
      "4",
    ]);
  });

  it("replaces the history when the run's conversation no longer starts with it (compaction)", async () => {
    const store = new MemoryStore();
    await store.append("s", [user("1"), assistant("2"), user("3"), assistant("4")]);
    const prior = [user("1"), assistant("2"), user("3"), assistant("4")];
    const compacted = [user("summary of 1-4"), user("5"), assistant("6")];
    await saveSessionHistory({
      store,
      sessionId: "s",
      prior,
      messages: compacted,
      system: undefined,
      redactor: undefined,
    });
    expect((await store.load("s"))?.messages).toEqual(compacted);
  });
});
