import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { StoreError } from "../errors/store-error.js";
import type { Message } from "../models/message.js";
import { JOURNAL_RECORD_VERSION, type JournalRecord } from "./journal-record.js";
import type { RunJournal } from "./run-journal.js";
import type { RunSummary } from "./run-summary.js";

/** Options of {@link describeRunJournalContract}. */
export interface RunJournalContractOptions {
  /** Shown in the test names. */
  name: string;
  /** Creates an empty journal for one test (called before each test). */
  create: () => Promise<RunJournal>;
  /** Releases a journal after its test (e.g. closes its connection). */
  close?: (journal: RunJournal) => Promise<void>;
  /**
   * A second journal object on the same storage as `journal` (another process, in effect: a new client, a new
   * object on the same directory). Backends with shared storage give it; the cross-object tests need it.
   */
  reopen?: (journal: RunJournal) => Promise<RunJournal>;
}

const v = JOURNAL_RECORD_VERSION;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Messages exercising the fields a journal must keep. */
const CONVERSATION: Message[] = [
  { role: "user", content: 'Zürich? 🌧️ "quoted" \\ back\nnew line\ttab \u2028 \u0000 end' },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "c1", name: "get_weather", arguments: { city: "Zürich" }, rawArguments: '{"city":"Zürich"}' },
    ],
    providerData: { reasoning: { id: "rs_1", encrypted: "gAAAA==" } },
  },
  { role: "tool", toolCallId: "c1", toolName: "get_weather", content: "12°C", isError: true },
];

/** Record builders for the contract tests. */
export const journalRecords = {
  start: (runId: string, input = "task"): JournalRecord => ({
    v,
    kind: "start",
    runId,
    input,
    messages: CONVERSATION,
    at: 1,
  }),
  response: (call: number, text = `answer ${call}`): JournalRecord => ({
    v,
    kind: "model_response",
    call,
    response: {
      text,
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      finishReason: { unified: "stop", raw: "stop" },
    },
  }),
  toolStart: (toolCallId: string): JournalRecord => ({
    v,
    kind: "tool_start",
    toolCallId,
    toolName: "t",
    idempotencyKey: `run:${toolCallId}`,
  }),
  toolResult: (toolCallId: string, content = "ok"): JournalRecord => ({
    v,
    kind: "tool_result",
    toolCallId,
    toolName: "t",
    ok: false,
    content,
    failure: { how: "threw", type: "TypeError", message: content },
  }),
  end: (runId: string, text = "done"): JournalRecord => {
    const result: RunSummary = {
      runId,
      text,
      stopReason: "completed",
      turns: 1,
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      costUsd: 0,
      toolCalls: [],
      messages: CONVERSATION,
    };
    return { v, kind: "end", result, at: 2 };
  },
};

const { start, response, toolStart, toolResult, end } = journalRecords;

/**
 * The behaviour every {@link RunJournal} must have, as a vitest suite: append order, load, compaction to
 * `start` + `end`, delete, list with finished flags, rejection of newer record versions, concurrent appends.
 */
export function describeRunJournalContract(options: RunJournalContractOptions): void {
  describe(`${options.name}: RunJournal contract`, () => {
    let journal: RunJournal;
    beforeEach(async () => {
      journal = await options.create();
    });
    afterEach(async () => {
      await options.close?.(journal);
    });

    it("lock: exclusive per run until released, renewable, taken over once expired", async () => {
      const lock = journal.lock?.bind(journal);
      expect(lock).toBeTypeOf("function");
      const held = await lock!("locked", { ttlMs: 30_000 });
      expect(held).toBeDefined();
      expect(await lock!("locked", { ttlMs: 30_000 })).toBeUndefined();
      const other = await lock!("other", { ttlMs: 30_000 });
      expect(other).toBeDefined();
      expect(await held!.renew!()).toBe(true);
      await held!.release();
      expect(await held!.renew!()).toBe(false);
      const short = await lock!("locked", { ttlMs: 150 });
      expect(short).toBeDefined();
      await sleep(400);
      const successor = await lock!("locked", { ttlMs: 30_000 });
      expect(successor).toBeDefined();
      expect(await short!.renew!()).toBe(false);
      await short!.release(); // the expired holder's release leaves the successor's lock alone
      expect(await lock!("locked", { ttlMs: 30_000 })).toBeUndefined();
      await successor!.release();
      await other!.release();
      expect(await journal.list()).toEqual([]); // locks are not runs
    });

    it("appends of one object land in call order, also when not awaited one by one", async () => {
      const writes = Array.from({ length: 25 }, (_, i) => journal.append("ordered", [response(i)]));
      await Promise.all(writes);
      const loaded = await journal.load("ordered");
      expect(loaded?.map((r) => (r.kind === "model_response" ? r.call : -1))).toEqual(
        Array.from({ length: 25 }, (_, i) => i),
      );
    });

    it("two objects on the same storage: one run, one lock, never interleaved appends", async (ctx) => {
      if (options.reopen === undefined) return ctx.skip();
      const other = await options.reopen(journal);
      try {
        const held = await journal.lock?.("shared", { ttlMs: 30_000 });
        expect(held).toBeDefined();
        expect(await other.lock?.("shared", { ttlMs: 30_000 })).toBeUndefined();
        const batch = (tag: number) => Array.from({ length: 20 }, (_, i) => response(tag * 100 + i));
        await Promise.all([
          ...[0, 1, 2].map((tag) => journal.append("shared", batch(tag))),
          ...[3, 4, 5].map((tag) => other.append("shared", batch(tag))),
        ]);
        const calls = ((await other.load("shared")) ?? []).map((r) =>
          r.kind === "model_response" ? r.call : -1,
        );
        expect(calls).toHaveLength(120);
        for (let i = 0; i < calls.length; i += 20) {
          const tag = Math.floor((calls[i] as number) / 100);
          expect(calls.slice(i, i + 20)).toEqual(
            batch(tag).map((r) => (r.kind === "model_response" ? r.call : -1)),
          );
        }
        await held?.release();
        const taken = await other.lock?.("shared", { ttlMs: 30_000 });
        expect(taken).toBeDefined();
        await taken?.release();
      } finally {
        await options.close?.(other);
      }
    });

    it("loads undefined for an unknown run, and an empty append creates nothing", async () => {
      expect(await journal.load("nope")).toBeUndefined();
      await journal.append("empty", []);
      expect(await journal.load("empty")).toBeUndefined();
      expect(await journal.list()).toEqual([]);
    });

    it("loads the records in append order across appends, as copies", async () => {
      const records = [start("r"), response(0), toolStart("c1"), toolResult("c1", "béé 🌧️"), response(1)];
      await journal.append("r", records.slice(0, 1));
      await journal.append("r", records.slice(1, 4));
      await journal.append("r", records.slice(4));
      const loaded = await journal.load("r");
      expect(loaded).toEqual(records);
      (loaded![0] as { input: string }).input = "changed";
      expect(await journal.load("r")).toEqual(records);
    });

    it("keeps concurrent appends whole: every record, each call's records together", async () => {
      const batches = Array.from({ length: 30 }, (_, i) => [
        toolStart(`b${i}`),
        toolResult(`b${i}`, `r${i}`),
      ]);
      await journal.append("c", [start("c")]);
      await Promise.all(batches.map((batch) => journal.append("c", batch)));
      const loaded = (await journal.load("c"))!;
      expect(loaded).toHaveLength(61);
      for (let index = 1; index < loaded.length; index += 2) {
        const first = loaded[index] as { kind: string; toolCallId: string };
        const second = loaded[index + 1] as { kind: string; toolCallId: string };
        expect([first.kind, second.kind]).toEqual(["tool_start", "tool_result"]);
        expect(second.toolCallId).toBe(first.toolCallId);
      }
      const ids = new Set(loaded.slice(1).map((record) => (record as { toolCallId: string }).toolCallId));
      expect(ids.size).toBe(30);
    });

    it("lists the runs with their finished flag, most recently updated first", async () => {
      await journal.append("a", [start("a"), response(0)]);
      await sleep(15);
      await journal.append("b", [start("b"), end("b")]);
      await sleep(15);
      await journal.append("c", [start("c")]);
      await sleep(15);
      await journal.append("a", [response(1)]);
      const listed = await journal.list();
      expect(listed.map(({ runId, finished }) => [runId, finished])).toEqual([
        ["a", false],
        ["c", false],
        ["b", true],
      ]);
      for (const info of listed) expect(info.updatedAt).toBeGreaterThan(Date.now() - 60_000);
    });

    it("compacts a finished run to its start and end records, keeping its listing", async () => {
      await journal.append("f", [start("f"), response(0), toolStart("c1"), toolResult("c1")]);
      await journal.append("f", [response(1), end("f", "final")]);
      await journal.append("u", [start("u"), response(0)]);
      const before = await journal.list();
      await sleep(15);
      expect(await journal.compact("f")).toBe(true);
      expect(await journal.load("f")).toEqual([start("f"), end("f", "final")]);
      expect(await journal.compact("f")).toBe(false);
      expect(await journal.load("f")).toEqual([start("f"), end("f", "final")]);
      expect(await journal.compact("u")).toBe(false);
      expect(await journal.load("u")).toEqual([start("u"), response(0)]);
      expect(await journal.compact("unknown")).toBe(false);
      expect(await journal.list()).toEqual(before);
    });

    it("deletes a run (and ignores unknown ones)", async () => {
      await journal.append("d", [start("d"), end("d")]);
      await journal.append("k", [start("k")]);
      await journal.delete("d");
      await journal.delete("unknown");
      expect(await journal.load("d")).toBeUndefined();
      expect((await journal.list()).map((info) => info.runId)).toEqual(["k"]);
      await journal.append("d", [start("d")]);
      expect(await journal.load("d")).toEqual([start("d")]);
      expect((await journal.list()).find((info) => info.runId === "d")?.finished).toBe(false);
    });

    it("rejects a record of a newer schema version on load with StoreError", async () => {
      const newer = { ...response(0), v: JOURNAL_RECORD_VERSION + 1 } as unknown as JournalRecord;
      await journal.append("n", [start("n"), newer]);
      const error = await journal.load("n").catch((e: unknown) => e);
      expect(StoreError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain("newer agentloop");
    });

    it("rejects a record of an unknown kind or shape on load with StoreError", async () => {
      await journal.append("x", [{ v, kind: "mystery" } as unknown as JournalRecord]);
      expect(StoreError.isInstance(await journal.load("x").catch((e: unknown) => e))).toBe(true);
      await journal.append("y", [{ v, kind: "tool_start" } as unknown as JournalRecord]);
      expect(StoreError.isInstance(await journal.load("y").catch((e: unknown) => e))).toBe(true);
    });

    it("writes nothing when a record cannot be serialised", async () => {
      const bad = { ...toolResult("c1"), content: 1n } as unknown as JournalRecord;
      await expect(journal.append("s", [start("s"), bad])).rejects.toThrow();
      expect(await journal.load("s")).toBeUndefined();
    });

    it("takes any non-empty string as a run id, and rejects an empty one", async () => {
      const ids = ["a/b", "../x", "A", "a", "Ü nicode:🌧️", "%41", ".", "x:y"];
      for (const id of ids) await journal.append(id, [start(id)]);
      for (const id of ids) expect(await journal.load(id)).toEqual([start(id)]);
      expect((await journal.list()).map((info) => info.runId).sort()).toEqual([...ids].sort());
      await expect(journal.append("", [start("")])).rejects.toSatisfy(InvalidArgumentError.isInstance);
    });
  });
}
