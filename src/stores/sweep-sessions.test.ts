import { mkdtemp, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Message } from "../models/message.js";
import { FileStore } from "./file-store.js";
import { MemoryStore } from "./memory-store.js";
import type { SessionStore } from "./session-store.js";
import { sweepSessions } from "./sweep-sessions.js";

const user = (content: string): Message => ({ role: "user", content });

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentloop-sweep-sessions-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function fill(store: SessionStore, sessionId: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) await store.append(sessionId, [user(`${sessionId} ${index}`)]);
}

describe("sweepSessions", () => {
  it("compacts every session by default; a second sweep finds nothing to do", async () => {
    const store = new FileStore({ dir: join(root, "compact-all") });
    await fill(store, "a", 3);
    await fill(store, "b", 2);
    await store.replace("c", [user("one snapshot")]);
    const before = await Promise.all(["a", "b", "c"].map((id) => store.load(id)));
    expect(await sweepSessions({ store })).toEqual({ compacted: 2, deleted: 0, busy: 0, sessions: 3 });
    const after = await Promise.all(["a", "b", "c"].map((id) => store.load(id)));
    expect(after.map((data) => data?.messages)).toEqual(before.map((data) => data?.messages));
    expect(after.map((data) => data?.records)).toEqual([1, 1, 1]);
    expect(await sweepSessions({ store })).toEqual({ compacted: 0, deleted: 0, busy: 0, sessions: 3 });
  });

  it("olderThanMs selects idle sessions only, and compaction keeps them idle", async () => {
    const dir = join(root, "idle");
    const store = new FileStore({ dir });
    await fill(store, "old", 3);
    await fill(store, "new", 3);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, "old.jsonl"), anHourAgo, anHourAgo);
    const result = await sweepSessions({ store, olderThanMs: 60_000 });
    expect(result).toEqual({ compacted: 1, deleted: 0, busy: 0, sessions: 2 });
    expect((await store.load("old"))?.records).toBe(1);
    expect((await store.load("new"))?.records).toBe(3);
    // Still idle after its compaction: a later sweep can delete it.
    expect(await sweepSessions({ store, olderThanMs: 60_000, delete: true })).toEqual({
      compacted: 0,
      deleted: 1,
      busy: 0,
      sessions: 2,
    });
    expect((await store.list()).map((info) => info.sessionId)).toEqual(["new"]);
  });

  it("delete removes idle sessions only, and never one a run holds", async () => {
    const store = new MemoryStore();
    await fill(store, "idle", 2);
    await fill(store, "held", 2);
    const now = Date.now() + 10_000;
    const lock = await store.lock("held", { ttlMs: 30_000 });
    expect(await sweepSessions({ store, olderThanMs: 60_000, delete: true, now })).toEqual({
      compacted: 0,
      deleted: 0,
      busy: 0,
      sessions: 2,
    });
    expect(await sweepSessions({ store, olderThanMs: 5_000, delete: true, now })).toEqual({
      compacted: 0,
      deleted: 1,
      busy: 1,
      sessions: 2,
    });
    expect(await store.load("idle")).toBeUndefined();
    expect((await store.load("held"))?.messages).toHaveLength(2);
    await lock!.release();
    expect((await sweepSessions({ store, olderThanMs: 5_000, delete: true, now })).deleted).toBe(1);
    expect(await store.list()).toEqual([]);
  });

  it("skips a session a run holds (counted as busy) and compacts it once released", async () => {
    const store = new MemoryStore();
    await fill(store, "free", 2);
    await fill(store, "held", 2);
    const lock = await store.lock("held", { ttlMs: 30_000 });
    expect(await sweepSessions({ store })).toEqual({ compacted: 1, deleted: 0, busy: 1, sessions: 2 });
    await store.append("held", [user("by the run")]);
    expect((await store.load("held"))?.records).toBe(3);
    await lock!.release();
    expect(await sweepSessions({ store })).toEqual({ compacted: 1, deleted: 0, busy: 0, sessions: 2 });
    expect((await store.load("held"))?.messages.map((m) => m.content)).toEqual([
      "held 0",
      "held 1",
      "by the run",
    ]);
  });

  it("rejects bad options with InvalidArgumentError", async () => {
    const store = new MemoryStore();
    const noCompact: SessionStore = {
      load: (id) => store.load(id),
      append: (id, messages) => store.append(id, messages),
      replace: (id, messages) => store.replace(id, messages),
      saveState: (id, state) => store.saveState(id, state),
      list: () => store.list(),
      delete: (id) => store.delete(id),
      lock: (id, options) => store.lock(id, options),
    };
    const cases: Parameters<typeof sweepSessions>[0][] = [
      { store: {} as SessionStore },
      { store, olderThanMs: -1 },
      { store, olderThanMs: Number.NaN },
      { store, delete: true },
      { store, olderThanMs: 1, delete: true, compact: true },
      { store, compact: false },
      { store: noCompact },
    ];
    for (const options of cases) {
      const error = await sweepSessions(options).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(InvalidArgumentError.isInstance(error), JSON.stringify(Object.keys(options))).toBe(true);
    }
  });
});
