/**
 * `agentloop/durable`: durable runs beyond `agent.run(input, { runId })`. {@link runDurably} runs an agent
 * under a run id, journaling every model response and tool call before the loop acts on it, so a run
 * interrupted by a crash resumes where it was; {@link sweepJournal} compacts or deletes finished runs, and
 * {@link sweepSessions} compacts or deletes sessions (retention for a `SessionStore`); the journal record
 * format ({@link JournalRecord}, {@link parseJournalRecord}, {@link serializeJournalRecord}) is for custom
 * `RunJournal` backends. The journals themselves (`MemoryJournal`, `FileJournal`, the `RunJournal`
 * interface) are in `agentloop`, `RedisJournal` in `agentloop/redis`, `PostgresJournal` in `agentloop/postgres`.
 * See docs/runs.md and docs/deployment.md.
 *
 * (The folder's index.ts is the internal barrel the queue imports; this file is the public entry.)
 */

export {
  type SweepSessionsOptions,
  type SweepSessionsResult,
  sweepSessions,
} from "../stores/sweep-sessions.js";
export {
  JOURNAL_RECORD_VERSION,
  type JournalRecord,
  type JournalRecordKind,
  parseJournalRecord,
  serializeJournalRecord,
} from "./journal-record.js";
export { type RunDurablyOptions, runDurably } from "./run-durably.js";
export type { JournalRunInfo } from "./run-journal.js";
export type { RunSummary } from "./run-summary.js";
export { type SweepJournalOptions, type SweepJournalResult, sweepJournal } from "./sweep-journal.js";
