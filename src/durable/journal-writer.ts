import type { JournalRecord } from "./journal-record.js";
import type { RunJournal } from "./run-journal.js";
import { toJournalError } from "./to-journal-error.js";

/** Options of {@link JournalWriter}. */
export interface JournalWriterOptions {
  journal: RunJournal;
  runId: string;
  /** Called once, with the first failed write: the run must stop (`runDurably` aborts it). */
  onFailure: (error: Error) => void;
}

/**
 * Appends one run's records for the journaled model and tools. Every append is awaited by its caller; the
 * first failure is kept ({@link JournalWriter.failure}), reported to `onFailure`, and fails every later
 * append at once, so nothing is executed after the journal stopped recording. `settle` waits for appends
 * still in flight (e.g. a timed-out tool's result), so no record lands after the run's `end`.
 */
export class JournalWriter {
  /** The first failed write (a `StoreError`), if any. */
  failure: Error | undefined;
  private readonly journal: RunJournal;
  private readonly runId: string;
  private readonly onFailure: (error: Error) => void;
  private readonly pending = new Set<Promise<void>>();

  constructor({ journal, runId, onFailure }: JournalWriterOptions) {
    this.journal = journal;
    this.runId = runId;
    this.onFailure = onFailure;
  }

  /** Appends `records`; rejects (and stops the run) when the journal fails or failed before. */
  append(records: readonly JournalRecord[]): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const write = this.journal.append(this.runId, records).catch((error: unknown) => {
      const failure = toJournalError({
        error,
        journal: "RunJournal",
        operation: "append",
        runId: this.runId,
      });
      if (this.failure === undefined) {
        this.failure = failure;
        this.onFailure(failure);
      }
      throw failure;
    });
    const tracked = write.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(tracked);
    void tracked.then(() => this.pending.delete(tracked));
    return write;
  }

  /** Resolves once every append made so far has settled. */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
