/**
 * The durable-run API the queue builds on, imported in one place: workers run every job as the agent's normal
 * durable run (`agent.run(input, { runId })`, `agent.resume(runId, decisions)`) on a journal, and
 * `RedisJournal` is the default journal of workers and queues.
 */
export {
  DurableRunBusyError,
  type JournalRecord,
  type RunJournal,
  type RunSummary,
} from "../../durable/index.js";
export { toRunSummary } from "../../durable/run-summary.js";
export { RedisJournal } from "../redis/redis-journal.js";
