import type { RedisClient } from "../redis/redis-client.js";
import { redisScript, runRedisScript } from "../redis/redis-script.js";
import type { QueueKeyspace } from "./agent-job.js";
import type { JournalRecord, RunJournal } from "./durable-api.js";

/** Default cap of one message sent with `queue.send`, in characters. */
export const DEFAULT_MAX_MESSAGE_CHARS = 32_000;

/** Default cap of the messages of one run waiting in Redis for the run's next turn. */
export const DEFAULT_MAX_PENDING_MESSAGES = 100;

/** Default life of a run's waiting messages (and their counter) after the last `send` or worker poll. */
export const DEFAULT_MESSAGE_TTL_SECONDS = 604_800;

/** Why a run no longer takes messages: it finished, or it paused for approval (resume jobs take none). */
export type SteeringClosedReason = "finished" | "paused";

/**
 * The list of the messages sent to run `runId` that are not yet in its history, oldest first:
 * `<prefix>:<name>:steering:<runId>`. Each entry is `"<seq> <text>"` (see {@link formatSteeringEntry}).
 */
export function steeringKey({ prefix, name }: QueueKeyspace, runId: string): string {
  return `${prefix}:${name}:steering:${runId}`;
}

/**
 * The hash of run `runId`'s steering state, `<prefix>:<name>:steering-state:<runId>`: `seq` (the last
 * message number given), `ttl` (the life of both keys, in seconds) and, once the run takes no more messages,
 * `closed` (a {@link SteeringClosedReason}).
 */
export function steeringStateKey({ prefix, name }: QueueKeyspace, runId: string): string {
  return `${prefix}:${name}:steering-state:${runId}`;
}

/** One waiting message: its number in the run (1 for the first sent) and its text. */
export interface SteeringEntry {
  seq: number;
  text: string;
}

/** The list entry of a message: `"<seq> <text>"`. */
export function formatSteeringEntry({ seq, text }: SteeringEntry): string {
  return `${seq} ${text}`;
}

/** Reads a list entry written by {@link formatSteeringEntry}; undefined for anything else. */
export function parseSteeringEntry(entry: string): SteeringEntry | undefined {
  const space = entry.indexOf(" ");
  const seq = Number(entry.slice(0, space));
  if (space <= 0 || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  return { seq, text: entry.slice(space + 1) };
}

/**
 * How many messages sent with `queue.send` are in the run's history: its `user_message` records. Messages are
 * journaled in the order they were numbered, one attempt after another, so these are messages 1 to this count.
 * (Every `user_message` record of a queued run comes from `queue.send`: the worker owns the run's inbox.)
 */
export function countAppliedMessages(records: readonly JournalRecord[] | undefined): number {
  return records?.filter((record) => record.kind === "user_message").length ?? 0;
}

/** Closes KEYS[1] (state) with reason ARGV[1]; returns and deletes the waiting messages KEYS[2]. */
const CLOSE = redisScript(`redis.call("HSET", KEYS[1], "closed", ARGV[1])
local ttl = redis.call("HGET", KEYS[1], "ttl") or ARGV[2]
redis.call("EXPIRE", KEYS[1], ttl)
local left = redis.call("LRANGE", KEYS[2], 0, -1)
redis.call("DEL", KEYS[2])
return left`);

/** Options of {@link closeQueuedSteering}. */
export interface CloseQueuedSteeringOptions {
  client: RedisClient;
  keyspace: QueueKeyspace;
  runId: string;
  /** The run's journal: tells which of the messages left in Redis were added before the worker could ack them. */
  journal: RunJournal;
  reason: SteeringClosedReason;
  /** The state's life when no `send` set one. */
  ttlSeconds: number;
}

/**
 * The run's job ended it for good, or paused it for approval: from now on `queue.send` refuses messages to it
 * (atomically: a message is either refused or counted here). Resolves with the number of messages that were
 * accepted but never added (they arrived after the run's last turn boundary); they are deleted.
 */
export async function closeQueuedSteering(options: CloseQueuedSteeringOptions): Promise<number> {
  const { client, keyspace, runId, reason, ttlSeconds } = options;
  const left = (await runRedisScript({
    client,
    script: CLOSE,
    keys: [steeringStateKey(keyspace, runId), steeringKey(keyspace, runId)],
    args: [reason, Math.ceil(ttlSeconds)],
  })) as string[];
  const entries = left.flatMap((entry) => parseSteeringEntry(entry) ?? []);
  if (entries.length === 0) return 0;
  const applied = countAppliedMessages(await options.journal.load(runId));
  return entries.filter((entry) => entry.seq > applied).length;
}
