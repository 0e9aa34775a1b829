/**
 * The durable-run API the queue builds on, imported in one place: `runDurably` replays a run from its journal
 * (recorded model responses are not re-requested, completed tool calls not re-executed) and `RedisJournal`
 * is the default journal of workers and queues.
 */
export {
  DurableRunBusyError,
  type JournalRecord,
  type RunJournal,
  type RunSummary,
  runDurably,
} from "../../durable/index.js";
export { RedisJournal } from "../redis/redis-journal.js";
