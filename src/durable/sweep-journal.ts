import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { RunJournal } from "./run-journal.js";

/** Options of {@link sweepJournal}. At least one of `finishedOlderThanMs` and `keepLast` is required. */
export interface SweepJournalOptions {
  journal: RunJournal;
  /** Compact finished runs last updated at least this many ms ago. */
  finishedOlderThanMs?: number;
  /** Compact finished runs beyond the newest `keepLast` finished ones (0 compacts every finished run). */
  keepLast?: number;
  /** The current time in ms since the epoch (default `Date.now()`), for `finishedOlderThanMs`. */
  now?: number;
}

/** What {@link sweepJournal} did. */
export interface SweepJournalResult {
  /** Finished runs compacted to their result by this sweep. */
  compacted: number;
  /** Finished runs in the journal (compacted or not). */
  finished: number;
  /** Unfinished runs in the journal: never touched (they may still be resumed). */
  unfinished: number;
}

/**
 * Retention for a {@link RunJournal}: compacts finished runs to their result (`start` and `end` records, see
 * `RunJournal.compact`) when they are older than `finishedOlderThanMs`, or beyond the newest `keepLast`
 * finished runs — either rule selects a run. A compacted run still answers `runDurably` with its summary;
 * only the steps that led to it are dropped. Unfinished runs are never touched (delete abandoned ones with
 * `journal.delete`). Runs are compacted one at a time.
 *
 * @example
 * // Nightly: keep the full steps of the last 1 000 finished runs and of the last 7 days.
 * await sweepJournal({ journal, finishedOlderThanMs: 7 * 86_400_000, keepLast: 1_000 });
 */
export async function sweepJournal(options: SweepJournalOptions): Promise<SweepJournalResult> {
  const { journal, finishedOlderThanMs, keepLast, now = Date.now() } = options;
  if (typeof journal?.list !== "function" || typeof journal.compact !== "function") {
    throw new InvalidArgumentError({ argument: "journal", message: "expected a RunJournal" });
  }
  if (finishedOlderThanMs === undefined && keepLast === undefined) {
    throw new InvalidArgumentError({
      argument: "options",
      message: "give finishedOlderThanMs and/or keepLast (otherwise nothing would be compacted)",
    });
  }
  if (finishedOlderThanMs !== undefined && !(finishedOlderThanMs >= 0)) {
    throw new InvalidArgumentError({ argument: "finishedOlderThanMs", message: "expected a number >= 0" });
  }
  if (keepLast !== undefined && !(Number.isInteger(keepLast) && keepLast >= 0)) {
    throw new InvalidArgumentError({ argument: "keepLast", message: "expected an integer >= 0" });
  }
  const runs = await journal.list();
  const finished = runs.filter((run) => run.finished).sort((a, b) => b.updatedAt - a.updatedAt);
  let compacted = 0;
  for (const [index, run] of finished.entries()) {
    const old = finishedOlderThanMs !== undefined && now - run.updatedAt >= finishedOlderThanMs;
    const beyond = keepLast !== undefined && index >= keepLast;
    if ((old || beyond) && (await journal.compact(run.runId))) compacted++;
  }
  return { compacted, finished: finished.length, unfinished: runs.length - finished.length };
}
