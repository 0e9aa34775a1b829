import { expect, it } from "vitest";
import { SessionBusyError } from "../errors/session-busy-error.js";
import type { Message } from "../models/message.js";
import type { SessionStore } from "./session-store.js";
import { CONTRACT_CONVERSATION } from "./session-store-contract.js";

/** Options of {@link describeSessionStoreCompaction}. */
export interface SessionStoreCompactionOptions {
  /** The store of the running test (created before each test by the contract suite). */
  store: () => SessionStore;
  /** A fresh session id with a readable label. */
  newId: (label: string) => string;
}

const user = (content: string): Message => ({ role: "user", content });

/**
 * Registers the contract tests of `SessionStore.compact` (retention) inside the shared session store
 * contract suite: what `load` returns is kept, records shrink, the session lock is respected, the last
 * append id still drops a retry.
 */
export function describeSessionStoreCompaction({ store, newId }: SessionStoreCompactionOptions): void {
  it("compact keeps exactly what load returns, with fewer records, and is idempotent", async () => {
    const sessionId = newId("compact ü 🌧️");
    await store().append(sessionId, [user("dropped")], { appendId: "c-1" });
    await store().saveState(sessionId, { old: true });
    await store().replace(sessionId, [user("summary ü 🌧️")]);
    await store().append(sessionId, CONTRACT_CONVERSATION, { appendId: "c-2" });
    await store().append(sessionId, [user("last \u0000 \u2028")], { appendId: "c-3" });
    await store().saveState(sessionId, { notes: ["zürich", 1, null], nested: { ok: true } });
    const before = await store().load(sessionId);
    const listedBefore = (await store().list()).find((info) => info.sessionId === sessionId);
    expect(before!.records).toBeGreaterThan(2);
    expect(await store().compact!(sessionId)).toBe(true);
    const after = await store().load(sessionId);
    expect(after).toEqual({ ...before, records: 2 });
    expect(await store().compact!(sessionId)).toBe(false);
    expect(await store().load(sessionId)).toEqual(after);
    const listedAfter = (await store().list()).find((info) => info.sessionId === sessionId);
    // Compaction keeps the update time (file stores: the modification time, which may round by 1 ms).
    expect(Math.abs(listedAfter!.updatedAt - listedBefore!.updatedAt)).toBeLessThanOrEqual(1);
  });

  it("compact of an unknown session resolves false and creates nothing", async () => {
    const sessionId = newId("compact-unknown");
    expect(await store().compact!(sessionId)).toBe(false);
    expect(await store().load(sessionId)).toBeUndefined();
  });

  it("compact without state keeps one snapshot; state-only sessions stay as they are", async () => {
    const messagesOnly = newId("compact-messages");
    for (let index = 0; index < 4; index++) await store().append(messagesOnly, [user(`m${index}`)]);
    await store().saveState(messagesOnly, {});
    expect(await store().compact!(messagesOnly)).toBe(true);
    expect(await store().load(messagesOnly)).toEqual({
      sessionId: messagesOnly,
      messages: [0, 1, 2, 3].map((index) => user(`m${index}`)),
      state: {},
      records: 1,
    });
    const stateOnly = newId("compact-state");
    await store().saveState(stateOnly, { a: 1 });
    expect(await store().compact!(stateOnly)).toBe(false);
    expect(await store().load(stateOnly)).toEqual({
      sessionId: stateOnly,
      messages: [],
      state: { a: 1 },
      records: 1,
    });
  });

  it("an append after compact lands after the snapshot; a retry of the last append is still dropped", async () => {
    const sessionId = newId("compact-append");
    await store().append(sessionId, [user("a")], { appendId: "r-1" });
    await store().append(sessionId, [user("b1"), user("b2")], { appendId: "r-2" });
    expect(await store().compact!(sessionId)).toBe(true);
    await store().append(sessionId, [user("b1"), user("b2")], { appendId: "r-2" });
    expect((await store().load(sessionId))?.messages.map((m) => m.content)).toEqual(["a", "b1", "b2"]);
    await store().append(sessionId, [user("c")], { appendId: "r-3" });
    await store().append(sessionId, [user("c")], { appendId: "r-3" });
    const data = await store().load(sessionId);
    expect(data?.messages.map((m) => m.content)).toEqual(["a", "b1", "b2", "c"]);
    expect(data?.records).toBe(2);
  });

  it("compact of a session a run holds rejects with SessionBusyError; the holder's appends all survive", async () => {
    const sessionId = newId("compact-locked");
    await store().append(sessionId, [user("before 1")]);
    await store().append(sessionId, [user("before 2")]);
    const lock = await store().lock(sessionId, { ttlMs: 30_000 });
    expect(lock).toBeDefined();
    const compactions = Array.from({ length: 3 }, () =>
      store().compact!(sessionId).then(
        () => undefined,
        (caught: unknown) => caught,
      ),
    );
    await store().append(sessionId, [user("during 1")]);
    await store().append(sessionId, [user("during 2")]);
    for (const error of await Promise.all(compactions)) {
      expect(SessionBusyError.isInstance(error)).toBe(true);
      expect((error as SessionBusyError).sessionId).toBe(sessionId);
    }
    const held = await store().load(sessionId);
    expect(held?.messages.map((m) => m.content)).toEqual(["before 1", "before 2", "during 1", "during 2"]);
    expect(held?.records).toBe(4);
    // The holder still has its lock: the failed compactions did not release it.
    expect(await store().lock(sessionId, { ttlMs: 30_000 })).toBeUndefined();
    await lock!.release();
    expect(await store().compact!(sessionId)).toBe(true);
    expect(await store().load(sessionId)).toEqual({ ...held, records: 1 });
    // Compaction released its own lock.
    const again = await store().lock(sessionId, { ttlMs: 30_000 });
    expect(again).toBeDefined();
    await again!.release();
  });

  it("appends racing a compaction all land (nothing a concurrent write adds is lost)", async () => {
    const sessionId = newId("compact-race");
    for (let index = 0; index < 5; index++) await store().append(sessionId, [user(`old ${index}`)]);
    const writes: Promise<unknown>[] = [];
    for (let index = 0; index < 10; index++) {
      writes.push(store().append(sessionId, [user(`new ${index}`)]));
      if (index % 3 === 0) writes.push(store().compact!(sessionId).catch(() => false));
    }
    await Promise.all(writes);
    const contents = (await store().load(sessionId))?.messages.map((m) => m.content) ?? [];
    // Concurrent appends may land in any order (a pool runs them in parallel); each lands once.
    expect(contents.slice(0, 5)).toEqual([0, 1, 2, 3, 4].map((index) => `old ${index}`));
    expect(contents.slice(5).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((index) => `new ${index}`));
  });
}
