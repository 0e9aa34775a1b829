import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { RedisClient } from "../redis/redis-client.js";
import { redisScript, runRedisScript } from "../redis/redis-script.js";
import type { QueueKeyspace } from "./agent-job.js";
import type { RunJournal } from "./durable-api.js";
import {
  DEFAULT_MAX_MESSAGE_CHARS,
  DEFAULT_MAX_PENDING_MESSAGES,
  DEFAULT_MESSAGE_TTL_SECONDS,
  steeringKey,
  steeringStateKey,
} from "./queued-steering.js";

/**
 * What `queue.send` did with a message. `queued: true`: the message waits in Redis for the run and is added
 * to its history at its next turn boundary (its first, for a run that has not started), exactly once; its
 * `user_message` event then shows in `queue.events(runId)`. `queued: false`: refused, nothing was stored.
 */
export type QueueSendResult = { queued: true; seq: number } | { queued: false; reason: QueueSendRefusal };

/**
 * Why `queue.send` refused a message: the run has `finished` (completed, stopped, or failed for good), is
 * `paused` for approval (or continued by a resume job, which takes no messages), or the queue knows no such
 * run (`unknown_run`: never enqueued, or its job was removed and its journal has no end).
 */
export type QueueSendRefusal = "finished" | "paused" | "unknown_run";

/**
 * Appends ARGV[1] to the run's waiting messages KEYS[3], numbered by the state KEYS[2], unless the run takes no
 * messages: closed by its worker, no job KEYS[1], or a job that finished (`finishedOn`). At most ARGV[2]
 * waiting; both keys live ARGV[3] seconds. Returns {1, seq} or {0, reason}.
 */
const SEND = redisScript(`local closed = redis.call("HGET", KEYS[2], "closed")
if closed then return {0, closed} end
if redis.call("EXISTS", KEYS[1]) == 0 then return {0, "unknown_run"} end
if redis.call("HEXISTS", KEYS[1], "finishedOn") == 1 then return {0, "finished"} end
if redis.call("LLEN", KEYS[3]) >= tonumber(ARGV[2]) then return {0, "full"} end
local seq = redis.call("HINCRBY", KEYS[2], "seq", 1)
redis.call("HSET", KEYS[2], "ttl", ARGV[3])
redis.call("RPUSH", KEYS[3], seq .. " " .. ARGV[1])
redis.call("EXPIRE", KEYS[2], ARGV[3])
redis.call("EXPIRE", KEYS[3], ARGV[3])
return {1, seq}`);

/** Options of {@link sendSteeringMessage}. */
export interface SendSteeringMessageOptions {
  client: RedisClient;
  keyspace: QueueKeyspace;
  /** The key of the run's job (`queue.toKey(runId)`). */
  jobKey: string;
  runId: string;
  message: unknown;
  /** Where a run whose job was removed is looked up (an `end` record: finished). */
  journal: () => RunJournal;
  maxMessageChars: number;
  maxPendingMessages: number;
  ttlSeconds: number;
}

/** Checks a message for `queue.send`: a string of 1 to `maxChars` characters, not only whitespace. */
function checkMessage(message: unknown, maxChars: number): asserts message is string {
  if (typeof message !== "string") {
    throw new InvalidArgumentError({ argument: "message", message: "expected a string" });
  }
  if (message.trim() === "") {
    throw new InvalidArgumentError({ argument: "message", message: "the message is empty" });
  }
  if (message.length > maxChars) {
    throw new InvalidArgumentError({
      argument: "message",
      message: `${message.length} characters (at most ${maxChars}: the queue's maxMessageChars)`,
    });
  }
}

/**
 * Stores a message for run `runId` in one Redis script, which also decides whether the run takes it (see
 * {@link QueueSendResult}), so a message is never stored for a run whose worker has closed it. Throws
 * `InvalidArgumentError` for an invalid or too long message, and when `maxPendingMessages` wait already.
 */
export async function sendSteeringMessage(options: SendSteeringMessageOptions): Promise<QueueSendResult> {
  const { client, keyspace, runId, message, maxPendingMessages } = options;
  checkMessage(message, options.maxMessageChars);
  const [stored, value] = (await runRedisScript({
    client,
    script: SEND,
    keys: [options.jobKey, steeringStateKey(keyspace, runId), steeringKey(keyspace, runId)],
    args: [message, maxPendingMessages, Math.ceil(options.ttlSeconds)],
  })) as [number, number | string];
  if (stored === 1) return { queued: true, seq: Number(value) };
  if (value === "full") {
    throw new InvalidArgumentError({
      argument: "message",
      message: `run "${runId}" has ${maxPendingMessages} messages waiting already (the queue's maxPendingMessages)`,
    });
  }
  if (value === "unknown_run") {
    // The job may have been removed after the run finished (retention): its journal still knows.
    const records = await options.journal().load(runId);
    if (records?.some((record) => record.kind === "end")) return { queued: false, reason: "finished" };
    return { queued: false, reason: "unknown_run" };
  }
  return { queued: false, reason: value === "paused" ? "paused" : "finished" };
}

/** The queue's options for `send` (part of `AgentQueueOptions`). */
export interface QueueSteeringOptions {
  /** The longest message `send` takes, in characters. Default 32 000. */
  maxMessageChars?: number;
  /** How many messages of one run may wait for its next turn (`send` refuses more). Default 100. */
  maxPendingMessages?: number;
  /**
   * How long a run's waiting messages are kept after the last `send` while no worker runs it (a running run's
   * worker keeps them). Default 604 800 s (seven days).
   */
  messageTtlSeconds?: number;
}

/** The limits of {@link sendSteeringMessage} from the queue's options (defaults applied). */
export function steeringLimits(options: QueueSteeringOptions) {
  return {
    maxMessageChars: options.maxMessageChars ?? DEFAULT_MAX_MESSAGE_CHARS,
    maxPendingMessages: options.maxPendingMessages ?? DEFAULT_MAX_PENDING_MESSAGES,
    ttlSeconds: options.messageTtlSeconds ?? DEFAULT_MESSAGE_TTL_SECONDS,
  };
}
