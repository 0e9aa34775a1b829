import { MemoryStore } from "../stores/memory-store.js";
import type { SessionLock } from "../stores/session-store.js";
import { checkRunId } from "./check-run-id.js";
import { compactRecords } from "./compact-records.js";
import { type JournalRecord, parseJournalRecord, serializeJournalRecord } from "./journal-record.js";
import type { JournalRunInfo, RunJournal } from "./run-journal.js";

/** One run's journal in memory: its records as JSON lines (exactly what the persistent journals store). */
interface MemoryRun {
  lines: string[];
  /** The kind of each line, for compaction and `finished` without parsing. */
  kinds: JournalRecord["kind"][];
  finished: boolean;
  updatedAt: number;
}

/**
 * A {@link RunJournal} in process memory: for tests, demos and runs that only need to survive a failed
 * attempt within one process. Records are kept as JSON text, so what is loaded is always a fresh copy, values
 * JSON cannot hold fail on `append` as they would in a persistent journal, and nothing a caller mutates
 * afterwards shows. Appends are synchronous inside, hence atomic and in call order.
 */
export class MemoryJournal implements RunJournal {
  private readonly runs = new Map<string, MemoryRun>();
  /** Run locks (process-local, like the journal): the same lease semantics as a MemoryStore's locks. */
  private readonly locks = new MemoryStore();

  /** Takes the run's lock (see `RunJournal.lock`), or resolves `undefined` while it is held. */
  async lock(runId: string, options: { ttlMs: number }): Promise<SessionLock | undefined> {
    checkRunId(runId);
    return this.locks.lock(runId, options);
  }

  /** Appends the records (serialised first: a record JSON cannot hold fails the whole call). */
  async append(runId: string, records: readonly JournalRecord[]): Promise<void> {
    checkRunId(runId);
    if (records.length === 0) return;
    const lines = records.map(serializeJournalRecord);
    let run = this.runs.get(runId);
    if (run === undefined) {
      run = { lines: [], kinds: [], finished: false, updatedAt: 0 };
      this.runs.set(runId, run);
    }
    run.lines.push(...lines);
    for (const record of records) {
      run.kinds.push(record.kind);
      if (record.kind === "end") run.finished = true;
    }
    run.updatedAt = Date.now();
  }

  /** The run's records (fresh copies), or `undefined` for an unknown run. */
  async load(runId: string): Promise<JournalRecord[] | undefined> {
    checkRunId(runId);
    const run = this.runs.get(runId);
    if (run === undefined) return undefined;
    return run.lines.map((line, index) =>
      parseJournalRecord({ value: JSON.parse(line), runId, where: `memory record ${index + 1}` }),
    );
  }

  /** Keeps only the `start` and `end` records of a finished run. */
  async compact(runId: string): Promise<boolean> {
    checkRunId(runId);
    const run = this.runs.get(runId);
    if (run === undefined) return false;
    const indexes = run.kinds.map((_, index) => index);
    const kept = compactRecords({ records: indexes, kindOf: (index) => run.kinds[index] });
    if (kept === undefined) return false;
    run.lines = kept.map((index) => run.lines[index]!);
    run.kinds = kept.map((index) => run.kinds[index]!);
    return true;
  }

  /** Forgets the run. */
  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    this.runs.delete(runId);
  }

  /** Every run, most recently updated first. */
  async list(): Promise<JournalRunInfo[]> {
    return [...this.runs]
      .map(([runId, run]) => ({ runId, finished: run.finished, updatedAt: run.updatedAt }))
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }
}
