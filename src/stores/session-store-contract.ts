import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreError } from "../errors/store-error.js";
import type { Message } from "../models/message.js";
import type { SessionStore } from "./session-store.js";
import { describeSessionStoreCompaction } from "./session-store-compaction-contract.js";

/** Options of {@link describeSessionStoreContract}. */
export interface SessionStoreContractOptions {
  /** Shown in the test names. */
  name: string;
  /** Creates a store for one test (called before each test; the store is closed after it). */
  create: () => Promise<SessionStore>;
  /** Runs after each test, once the store is closed. */
  cleanup?: () => Promise<void>;
  /**
   * Writes one raw record into a session's storage behind the store's back (the newer-version case needs a
   * record this code cannot write).
   */
  writeRawRecord: (
    store: SessionStore,
    sessionId: string,
    record: { [key: string]: unknown },
  ) => Promise<void>;
  /** Runs of the property test (default 25). */
  propertyRuns?: number;
}

/** A conversation exercising every message field a store must keep. */
export const CONTRACT_CONVERSATION: Message[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: 'Weather in Zürich? 🌧️ "quoted" \\ back\nnew line\ttab \u2028 \u0000 end' },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      {
        id: "call_1",
        name: "get_weather",
        arguments: {
          city: "Zürich",
          days: 3,
          ratio: 0.1,
          units: ["c"],
          nested: { deep: [1, { x: null }], ok: true },
        },
        rawArguments:
          '{"city":"Zürich","days":3,"ratio":0.1,"units":["c"],"nested":{"deep":[1,{"x":null}],"ok":true}}',
      },
      {
        id: "call_2",
        name: "broken",
        arguments: undefined,
        rawArguments: "{not json",
        parseError: "Unexpected token",
      },
    ],
    providerData: { reasoning: { id: "rs_1", encrypted: "gAAAA==", summary: [] }, signature: "sig" },
  },
  { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: "12°C, rain" },
  { role: "tool", toolCallId: "call_2", toolName: "broken", content: "invalid arguments", isError: true },
  { role: "assistant", content: "Rainy, 12°C." },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const user = (content: string): Message => ({ role: "user", content });

/** Arbitrary messages: every role and field, with any UTF-16 strings (NUL, lone surrogates) and JSON values. */
const messageArbitrary: fc.Arbitrary<Message> = (() => {
  const text = fc.string({ unit: "binary", maxLength: 40 });
  // Canonical JSON (a JSON round trip turns -0 into 0): what any JSON store must give back.
  const json = fc
    .jsonValue({ maxDepth: 3, stringUnit: "binary" })
    .map((value): unknown => JSON.parse(JSON.stringify(value)));
  return fc.oneof(
    fc.record({ role: fc.constant("system" as const), content: text }),
    fc.record({ role: fc.constant("user" as const), content: text }),
    fc.record(
      {
        role: fc.constant("assistant" as const),
        content: text,
        toolCalls: fc.array(fc.record({ id: text, name: text, arguments: json, rawArguments: text }), {
          maxLength: 3,
        }),
        providerData: fc.dictionary(fc.string(), json, { maxKeys: 3 }),
      },
      { requiredKeys: ["role", "content"] },
    ),
    fc.record(
      {
        role: fc.constant("tool" as const),
        toolCallId: text,
        toolName: text,
        content: text,
        isError: fc.boolean(),
      },
      { requiredKeys: ["role", "toolCallId", "toolName", "content"] },
    ),
  );
})();

/**
 * Registers the shared {@link SessionStore} contract tests: every store (memory, files, Redis, PostgreSQL)
 * must pass them unchanged.
 */
export function describeSessionStoreContract(options: SessionStoreContractOptions): void {
  const { name, create, cleanup, writeRawRecord } = options;
  describe(`SessionStore contract: ${name}`, () => {
    let store: SessionStore;
    const newId = (label: string) => `${label}-${randomUUID()}`;

    beforeEach(async () => {
      store = await create();
    });
    afterEach(async () => {
      await store.close?.();
      await cleanup?.();
    });

    it("load of an unknown session resolves undefined", async () => {
      expect(await store.load(newId("unknown"))).toBeUndefined();
    });

    it("an append/load round trip preserves the messages exactly", async () => {
      const sessionId = newId("Round Trip/../ü:*");
      await store.append(sessionId, CONTRACT_CONVERSATION);
      const data = await store.load(sessionId);
      expect(data).toEqual({ sessionId, messages: CONTRACT_CONVERSATION, state: {}, records: 6 });
    });

    it("an empty append writes nothing", async () => {
      const sessionId = newId("empty");
      await store.append(sessionId, []);
      expect(await store.load(sessionId)).toBeUndefined();
    });

    it("keeps the order of appends across calls", async () => {
      const sessionId = newId("order");
      for (let index = 0; index < 5; index++)
        await store.append(sessionId, [user(`m${index}a`), user(`m${index}b`)]);
      const data = await store.load(sessionId);
      expect(data?.messages.map((m) => m.content)).toEqual(
        [0, 1, 2, 3, 4].flatMap((index) => [`m${index}a`, `m${index}b`]),
      );
    });

    it("replace starts the history anew; later appends follow it; the state survives", async () => {
      const sessionId = newId("replace");
      await store.append(sessionId, [user("old 1"), user("old 2")]);
      await store.saveState(sessionId, { notes: ["kept"] });
      await store.replace(sessionId, [user("summary")]);
      await store.append(sessionId, [user("new")]);
      const data = await store.load(sessionId);
      expect(data?.messages).toEqual([user("summary"), user("new")]);
      expect(data?.state).toEqual({ notes: ["kept"] });
      await store.replace(sessionId, []);
      expect((await store.load(sessionId))?.messages).toEqual([]);
    });

    it("saveState replaces the state; load returns the last one", async () => {
      const sessionId = newId("state");
      await store.saveState(sessionId, { a: 1, nested: { list: [1, "two", null, true] } });
      expect(await store.load(sessionId)).toEqual({
        sessionId,
        messages: [],
        state: { a: 1, nested: { list: [1, "two", null, true] } },
        records: 1,
      });
      await store.append(sessionId, [user("hi")]);
      await store.saveState(sessionId, { b: "\u0000 ü 🌧️" });
      const data = await store.load(sessionId);
      expect(data?.state).toEqual({ b: "\u0000 ü 🌧️" });
      expect(data?.messages).toEqual([user("hi")]);
    });

    it("list shows the sessions with their update time, newest first", async () => {
      const before = Date.now();
      const first = newId("list-a");
      const second = newId("list-b");
      await store.append(first, [user("a")]);
      await store.saveState(second, { x: 1 });
      const after = Date.now();
      const infos = await store.list();
      for (const sessionId of [first, second]) {
        const info = infos.find((candidate) => candidate.sessionId === sessionId);
        expect(info).toBeDefined();
        // File stores report modification times, which file systems may round.
        expect(info!.updatedAt).toBeGreaterThanOrEqual(before - 2_000);
        expect(info!.updatedAt).toBeLessThanOrEqual(after + 2_000);
      }
      const times = infos.map((info) => info.updatedAt);
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it("delete removes the session; deleting an unknown one is fine", async () => {
      const sessionId = newId("delete");
      await store.append(sessionId, [user("bye")]);
      await store.saveState(sessionId, { x: 1 });
      await store.delete(sessionId);
      expect(await store.load(sessionId)).toBeUndefined();
      expect((await store.list()).some((info) => info.sessionId === sessionId)).toBe(false);
      await store.delete(newId("never"));
    });

    it("the lock is exclusive until released, per session", async () => {
      const sessionId = newId("lock");
      const lock = await store.lock(sessionId, { ttlMs: 30_000 });
      expect(lock).toBeDefined();
      expect(await store.lock(sessionId, { ttlMs: 30_000 })).toBeUndefined();
      const other = await store.lock(newId("lock-other"), { ttlMs: 30_000 });
      expect(other).toBeDefined();
      await lock!.release();
      await lock!.release(); // idempotent
      const again = await store.lock(sessionId, { ttlMs: 30_000 });
      expect(again).toBeDefined();
      await again!.release();
      await other!.release();
    });

    it("an expired lock can be taken, and its old holder's release does not free the new one", async () => {
      const sessionId = newId("expire");
      const stale = await store.lock(sessionId, { ttlMs: 150 });
      expect(stale).toBeDefined();
      await sleep(400);
      const fresh = await store.lock(sessionId, { ttlMs: 30_000 });
      expect(fresh).toBeDefined();
      await stale!.release();
      expect(await store.lock(sessionId, { ttlMs: 30_000 })).toBeUndefined();
      await fresh!.release();
    });

    it("an append repeating the last appendId writes nothing (a retried append is applied once)", async () => {
      const sessionId = newId("idempotent");
      await store.append(sessionId, [user("a1"), user("a2")], { appendId: "append-a" });
      await store.append(sessionId, [user("a1"), user("a2")], { appendId: "append-a" });
      await store.append(sessionId, [user("b")], { appendId: "append-b" });
      await store.append(sessionId, [user("b")], { appendId: "append-b" });
      await store.append(sessionId, [user("no id")]);
      await store.append(sessionId, [user("no id")]);
      expect((await store.load(sessionId))?.messages.map((m) => m.content)).toEqual([
        "a1",
        "a2",
        "b",
        "no id",
        "no id",
      ]);
    });

    it("load drops a repeated append that reached storage twice (same appendId after other records)", async () => {
      const sessionId = newId("dedupe-on-load");
      await store.append(sessionId, [user("first"), user("second")], { appendId: "append-x" });
      await store.append(sessionId, [user("third")], { appendId: "append-y" });
      for (const content of ["first", "second"]) {
        await writeRawRecord(store, sessionId, {
          v: 1,
          type: "message",
          at: Date.now(),
          message: user(content),
          appendId: "append-x",
        });
      }
      expect((await store.load(sessionId))?.messages.map((m) => m.content)).toEqual([
        "first",
        "second",
        "third",
      ]);
    });

    it("renew extends a held lock, and reports a released or lost one", async () => {
      const sessionId = newId("renew");
      const lock = await store.lock(sessionId, { ttlMs: 300 });
      expect(lock?.renew).toBeTypeOf("function");
      for (let round = 0; round < 4; round++) {
        await sleep(120);
        expect(await lock!.renew!()).toBe(true);
      }
      // 480 ms after it was taken, a 300 ms lock renewed in time is still held.
      expect(await store.lock(sessionId, { ttlMs: 30_000 })).toBeUndefined();
      await lock!.release();
      expect(await lock!.renew!()).toBe(false);
      const lapsed = await store.lock(sessionId, { ttlMs: 150 });
      await sleep(400);
      const successor = await store.lock(sessionId, { ttlMs: 30_000 });
      expect(successor).toBeDefined();
      expect(await lapsed!.renew!()).toBe(false);
      expect(await store.lock(sessionId, { ttlMs: 30_000 })).toBeUndefined();
      await successor!.release();
    });

    it("concurrent appends all land, each call's messages together and in order", async () => {
      const sessionId = newId("concurrent");
      await Promise.all(
        Array.from({ length: 20 }, (_, call) =>
          store.append(sessionId, [user(`${call}:0`), user(`${call}:1`), user(`${call}:2`)]),
        ),
      );
      const contents = (await store.load(sessionId))?.messages.map((m) => m.content) ?? [];
      expect(contents).toHaveLength(60);
      for (let index = 0; index < 60; index += 3) {
        const call = String(contents[index]).split(":")[0];
        expect(contents.slice(index, index + 3)).toEqual([`${call}:0`, `${call}:1`, `${call}:2`]);
      }
      expect(new Set(contents).size).toBe(60);
    });

    it("a record from a newer schema version is rejected with StoreError", async () => {
      const sessionId = newId("newer");
      await store.append(sessionId, [user("before")]);
      await writeRawRecord(store, sessionId, {
        v: 99,
        type: "message",
        at: Date.now(),
        message: user("future"),
      });
      const error = await store.load(sessionId).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(StoreError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/newer agentloop/);
    });

    describeSessionStoreCompaction({ store: () => store, newId });

    it("round-trips arbitrary messages (property)", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(messageArbitrary, { minLength: 1, maxLength: 6 }), async (messages) => {
          const sessionId = newId("property");
          await store.append(sessionId, messages);
          const loaded = await store.load(sessionId);
          await store.delete(sessionId);
          expect(loaded?.messages).toEqual(messages);
        }),
        { numRuns: options.propertyRuns ?? 25 },
      );
    });
  });
}
