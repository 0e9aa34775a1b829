import { describe, expect, it } from "vitest";
import type { Message } from "../models/message.js";
import { MemoryStateStore } from "./memory-state-store.js";
import { MemoryStore } from "./memory-store.js";
import { describeSessionStoreContract } from "./session-store-contract.js";
import { describeStateStoreContract } from "./state-store-contract.js";

describeSessionStoreContract({
  name: "MemoryStore",
  create: async () => new MemoryStore(),
  writeRawRecord: async (store, sessionId, record) => {
    // Reach into the private record list: a memory store has no other way to hold a foreign record.
    const sessions = (store as unknown as { sessions: Map<string, unknown[]> }).sessions;
    sessions.get(sessionId)?.push({ type: record.type, at: record.at, line: JSON.stringify(record) });
  },
});

describeStateStoreContract({ name: "MemoryStateStore", create: async () => new MemoryStateStore() });

describe("MemoryStore", () => {
  it("stores copies: mutating what was appended or loaded changes nothing stored", async () => {
    const store = new MemoryStore();
    const message: Message = {
      role: "assistant",
      content: "x",
      toolCalls: [{ id: "1", name: "t", arguments: { list: [1] }, rawArguments: '{"list":[1]}' }],
    };
    await store.append("s", [message]);
    (message.toolCalls![0]!.arguments as { list: number[] }).list.push(2);
    const loaded = await store.load("s");
    (loaded!.messages[0] as { content: string }).content = "changed";
    const state = { a: [1] };
    await store.saveState("s", state);
    state.a.push(2);
    const again = await store.load("s");
    expect(again?.messages[0]).toEqual({
      role: "assistant",
      content: "x",
      toolCalls: [{ id: "1", name: "t", arguments: { list: [1] }, rawArguments: '{"list":[1]}' }],
    });
    expect(again?.state).toEqual({ a: [1] });
  });

  it("a message JSON cannot hold fails the whole append and stores nothing (as a persistent store would)", async () => {
    const store = new MemoryStore();
    await store.append("s", [{ role: "user", content: "kept" }], { appendId: "a1" });
    const bad = { role: "user", content: "x", extra: 1n } as unknown as Message;
    await expect(
      store.append("s", [{ role: "user", content: "ok" }, bad], { appendId: "a2" }),
    ).rejects.toThrow(TypeError);
    expect((await store.load("s"))?.messages).toEqual([{ role: "user", content: "kept" }]);
    // The failed append's id was not taken: a retry with it is written.
    await store.append("s", [{ role: "user", content: "retry" }], { appendId: "a2" });
    expect((await store.load("s"))?.messages.map((m) => m.content)).toEqual(["kept", "retry"]);
  });

  it("MemoryStateStore keeps JSON: a value JSON cannot hold fails on save", async () => {
    const store = new MemoryStateStore();
    await expect(store.save("k", { n: 1n } as unknown as { n: number })).rejects.toThrow(TypeError);
    await expect(store.save("k", undefined as unknown as null)).rejects.toThrow(/not a JSON value/);
    expect(await store.load("k")).toBeUndefined();
  });

  it("replace keeps only the last state and the snapshot", async () => {
    const store = new MemoryStore();
    await store.append("s", [{ role: "user", content: "a" }]);
    await store.saveState("s", { n: 1 });
    await store.saveState("s", { n: 2 });
    await store.replace("s", [{ role: "user", content: "summary" }]);
    expect(await store.load("s")).toEqual({
      sessionId: "s",
      messages: [{ role: "user", content: "summary" }],
      state: { n: 2 },
      records: 2,
    });
  });
});
