import type { ChainableCommander } from "ioredis";
import type { RedisClient } from "../redis/redis-client.js";
import { redisScript, runRedisScript } from "../redis/redis-script.js";
import type { QueueKeyspace } from "./agent-job.js";

/** Job states of a run that still holds its place in its session's order (it runs, or will run again). */
const LIVE_STATES = new Set(["active", "waiting", "delayed", "prioritized", "waiting-children"]);

/**
 * Appends ARGV[1] to the order list KEYS[2] unless its job KEYS[1] exists (the run was enqueued already) or it
 * is in the list. Runs in the same MULTI as BullMQ's job add, so a job and its place appear together.
 */
const PUSH_LUA = `if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
if redis.call("LPOS", KEYS[2], ARGV[1]) then return 0 end
return redis.call("RPUSH", KEYS[2], ARGV[1])`;

/** Pops the head of KEYS[1] only while it is ARGV[1] (a stale head removed once). */
const POP_HEAD =
  redisScript(`if redis.call("LINDEX", KEYS[1], 0) == ARGV[1] then redis.call("LPOP", KEYS[1]) return 1 end
return 0`);

/** Options of {@link SessionOrder}. */
export interface SessionOrderOptions {
  client: RedisClient;
  keyspace: QueueKeyspace;
  /** The BullMQ state of a run's job (`"unknown"` when there is no such job). */
  jobState: (runId: string) => Promise<string>;
}

/** Whether a run of a session may start: its turn, not yet, or it has no place (finished for good before). */
export type SessionTurn = "mine" | "wait" | "unordered";

/**
 * The order of a session's runs: the list `<prefix>:<name>:session-order:<session id>` of run ids, in the
 * order they were enqueued. A run starts only at the head; it leaves the list once it is finished for good
 * (completed, paused for approval, or failed on its last attempt). A head whose job is finished or gone (a
 * worker died between finishing and leaving, a job that stalled out) is stale and removed by the next run.
 */
export class SessionOrder {
  private readonly options: SessionOrderOptions;

  constructor(options: SessionOrderOptions) {
    this.options = options;
  }

  /** The order key of a session. */
  static key({ prefix, name }: QueueKeyspace, sessionId: string): string {
    return `${prefix}:${name}:session-order:${sessionId}`;
  }

  /** Queues, on `multi`, the command that gives a new run (job key `jobKey`) its place in the session. */
  static push(args: {
    multi: ChainableCommander;
    keyspace: QueueKeyspace;
    sessionId: string;
    runId: string;
    jobKey: string;
  }): void {
    // Redis's EVAL command (a Lua script run by the server inside the MULTI), not JavaScript's eval.
    const order = SessionOrder.key(args.keyspace, args.sessionId);
    args.multi.call("EVAL", PUSH_LUA, 2, args.jobKey, order, args.runId);
  }

  /** Whether `runId` may start now (see {@link SessionTurn}); stale heads are removed on the way. */
  async turn({ sessionId, runId }: { sessionId: string; runId: string }): Promise<SessionTurn> {
    const { client, keyspace, jobState } = this.options;
    const key = SessionOrder.key(keyspace, sessionId);
    for (let checks = 0; checks < 10; checks++) {
      const head = await client.lindex(key, 0);
      if (head === runId) return "mine";
      if (head === null || (await client.lpos(key, runId)) === null) return "unordered";
      if (LIVE_STATES.has(await jobState(head))) return "wait";
      await runRedisScript({ client, script: POP_HEAD, keys: [key], args: [head] });
    }
    return "wait";
  }

  /** Removes `runId` from its session's order (it is finished for good); later runs may start. */
  async leave({ sessionId, runId }: { sessionId: string; runId: string }): Promise<void> {
    await this.options.client.lrem(SessionOrder.key(this.options.keyspace, sessionId), 0, runId);
  }
}
