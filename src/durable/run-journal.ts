import type { SessionLock } from "../stores/session-store.js";
import type { JournalRecord } from "./journal-record.js";

/** One run in a {@link RunJournal}'s listing. */
export interface JournalRunInfo {
  runId: string;
  /** Whether the run has an `end` record. */
  finished: boolean;
  /** When the run's records were last appended, in ms since the epoch (compaction does not change it). */
  updatedAt: number;
}

/**
 * Where durable runs keep their journal: per run, an append-only list of {@link JournalRecord}s. Every
 * operation rejects with `StoreError` when the backend fails; a record from a newer schema version is
 * rejected on `load`, never skipped.
 *
 * Implementations: `MemoryJournal`, `FileJournal`, `RedisJournal` (`agentloop/redis`) and `PostgresJournal`
 * (`agentloop/postgres`).
 */
export interface RunJournal {
  /**
   * Appends `records` to the run's journal, all or none, after every record appended before (appends of one
   * run from one process apply in call order). An empty list writes nothing.
   */
  append(runId: string, records: readonly JournalRecord[]): Promise<void>;
  /** The run's records in append order, or `undefined` when the journal has no such run. */
  load(runId: string): Promise<JournalRecord[] | undefined>;
  /**
   * Compacts a finished run to its result: keeps only its `start` and `end` records. Resolves `true` when
   * records were dropped, `false` when the run is unfinished, unknown or compacted already.
   */
  compact(runId: string): Promise<boolean>;
  /** Deletes the run's journal (nothing happens for an unknown run). */
  delete(runId: string): Promise<void>;
  /** Every run in the journal, most recently updated first. */
  list(): Promise<JournalRunInfo[]>;
  /**
   * Takes the run's exclusive lock for an attempt, shared by every journal object (and process) on the same
   * storage; resolves `undefined` at once while another holder has it. It expires after `ttlMs` unless
   * renewed (`runDurably` renews it every third of that). Optional for custom journals (attempts are then
   * only kept apart within one process); implemented by every built-in journal.
   */
  lock?(runId: string, options: { ttlMs: number }): Promise<SessionLock | undefined>;
  /** How long (ms) a run lock lives without renewal; default `DEFAULT_SESSION_LOCK_TTL_MS` (60 s). */
  readonly lockTtlMs?: number | undefined;
}
