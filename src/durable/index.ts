/**
 * Durable runs: `runDurably` journals every step of a run (model responses, tool starts and results) before
 * the loop acts on it, so a run interrupted by a crash resumes where it was, without re-requesting recorded
 * model responses or re-executing finished tool calls. Journals: `MemoryJournal`, `FileJournal`, and
 * `RedisJournal` in `agentloop/redis`.
 */
export { DurableRunBusyError } from "../errors/durable-run-busy-error.js";
export { FileJournal, type FileJournalOptions } from "./file-journal.js";
export {
  type EndRecord,
  JOURNAL_RECORD_VERSION,
  type JournaledResponse,
  type JournaledToolFailure,
  type JournalRecord,
  type JournalRecordKind,
  type ModelResponseRecord,
  parseJournalRecord,
  type StartRecord,
  serializeJournalRecord,
  type ToolResultRecord,
  type ToolStartRecord,
} from "./journal-record.js";
export { OUTCOME_UNKNOWN_MESSAGE } from "./journaled-tools.js";
export { MemoryJournal } from "./memory-journal.js";
export { type RunDurablyOptions, runDurably } from "./run-durably.js";
export type { JournalRunInfo, RunJournal } from "./run-journal.js";
export type { RunSummary } from "./run-summary.js";
export { type SweepJournalOptions, type SweepJournalResult, sweepJournal } from "./sweep-journal.js";
