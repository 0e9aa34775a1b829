import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { FileJournal } from "./file-journal.js";
import { MemoryJournal } from "./memory-journal.js";
import type { RunJournal } from "./run-journal.js";
import { journalRecords } from "./run-journal-contract.js";
import { sweepJournal } from "./sweep-journal.js";

const { start, response, toolStart, toolResult, end } = journalRecords;
const HOUR = 3_600_000;

/** Appends a finished run (five steps) or an unfinished one. */
async function addRun(journal: RunJournal, runId: string, finished: boolean): Promise<void> {
  await journal.append(runId, [start(runId), response(0), toolStart("c1"), toolResult("c1"), response(1)]);
  if (finished) await journal.append(runId, [end(runId)]);
}

const lengths = async (journal: RunJournal, ids: string[]) =>
  Promise.all(ids.map(async (id) => (await journal.load(id))?.length));

afterEach(() => {
  vi.useRealTimers();
});

describe("sweepJournal", () => {
  it("compacts finished runs older than the age, and keeps unfinished ones whatever their age", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const journal = new MemoryJournal();
    vi.setSystemTime(0);
    await addRun(journal, "old-done", true);
    await addRun(journal, "old-open", false);
    vi.setSystemTime(5 * HOUR);
    await addRun(journal, "new-done", true);
    vi.setSystemTime(6 * HOUR);
    const result = await sweepJournal({ journal, finishedOlderThanMs: 2 * HOUR });
    expect(result).toEqual({ compacted: 1, finished: 2, unfinished: 1 });
    expect(await lengths(journal, ["old-done", "old-open", "new-done"])).toEqual([2, 5, 6]);
    expect(await journal.load("old-done")).toEqual([start("old-done"), end("old-done")]);
    // Nothing left to do the second time.
    expect(await sweepJournal({ journal, finishedOlderThanMs: 2 * HOUR })).toEqual({
      compacted: 0,
      finished: 2,
      unfinished: 1,
    });
  });

  it("keeps the newest keepLast finished runs whole; either rule selects a run", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const journal = new MemoryJournal();
    for (let i = 0; i < 5; i++) {
      vi.setSystemTime(i * HOUR);
      await addRun(journal, `done-${i}`, true);
    }
    await addRun(journal, "open", false);
    expect(await sweepJournal({ journal, keepLast: 3 })).toMatchObject({ compacted: 2 });
    const ids = ["done-0", "done-1", "done-2", "done-3", "done-4", "open"];
    expect(await lengths(journal, ids)).toEqual([2, 2, 6, 6, 6, 5]);
    // done-2 is among the newest 3 but older than 1.5 hours (now is 4 h): the age rule selects it.
    expect(await sweepJournal({ journal, keepLast: 3, finishedOlderThanMs: 1.5 * HOUR })).toMatchObject({
      compacted: 1,
    });
    expect(await lengths(journal, ids)).toEqual([2, 2, 2, 6, 6, 5]);
    expect(await sweepJournal({ journal, keepLast: 0 })).toEqual({
      compacted: 2,
      finished: 5,
      unfinished: 1,
    });
    expect(await lengths(journal, ids)).toEqual([2, 2, 2, 2, 2, 5]);
  });

  it("works on a FileJournal, whose compaction keeps the runs' order", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentloop-sweep-"));
    try {
      const journal = new FileJournal({ dir });
      for (const id of ["a", "b", "c"]) {
        await addRun(journal, id, true);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      expect(await sweepJournal({ journal, keepLast: 1 })).toEqual({
        compacted: 2,
        finished: 3,
        unfinished: 0,
      });
      // Compaction did not make a and b the most recent: the same sweep finds nothing more to do.
      expect((await journal.list()).map((info) => info.runId)).toEqual(["c", "b", "a"]);
      expect(await sweepJournal({ journal, keepLast: 1 })).toMatchObject({ compacted: 0 });
      expect(await lengths(journal, ["a", "b", "c"])).toEqual([2, 2, 6]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("rejects a sweep without a rule and invalid values", async () => {
    const journal = new MemoryJournal();
    for (const options of [{}, { keepLast: -1 }, { keepLast: 1.5 }, { finishedOlderThanMs: Number.NaN }]) {
      const error = await sweepJournal({ journal, ...options }).catch((e: unknown) => e);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
    }
  });
});
