import type { Redis } from "ioredis";
import { COMPARE_AND_DELETE, redisScript, runRedisScript } from "../redis/redis-script.js";
import type { QueueKeyspace } from "./agent-job.js";

/** Job states in which a run still owns its session (it is running, or will run again). */
const LIVE_STATES = new Set(["active", "waiting", "delayed", "prioritized", "waiting-children"]);

/**
 * Takes the lease when it is free (":taken") or already ours (":held"); otherwise returns its holder, a run id
 * (run ids never contain ":").
 */
const ACQUIRE_SCRIPT = redisScript(`local holder = redis.call("GET", KEYS[1])
if holder == ARGV[1] then return ":held" end
if not holder then redis.call("SET", KEYS[1], ARGV[1]) return ":taken" end
return holder`);

/** Replaces the holder only if it is still `ARGV[1]` (compare-and-set). */
const TAKE_OVER_SCRIPT =
  redisScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("SET", KEYS[1], ARGV[2]) return 1 end
return 0`);

/** Options of {@link SessionLeases}. */
export interface SessionLeasesOptions {
  client: Redis;
  keyspace: QueueKeyspace;
  /** The BullMQ state of a run's job (`"unknown"` when there is no such job). */
  jobState: (runId: string) => Promise<string>;
}

/**
 * Which run owns each session: a key `<prefix>:<name>:session-lease:<session id>` holding the run id. A run
 * owns its session from its first attempt until its job is finished for good, across crashes: a resumed run
 * takes its own lease back at once, and no other run of the session starts in between. The lease has no
 * expiry; instead a holder whose job is completed, failed or gone is stale and is taken over (so a worker that
 * died after finishing a job, before releasing, blocks nothing).
 */
export class SessionLeases {
  private readonly options: SessionLeasesOptions;

  constructor(options: SessionLeasesOptions) {
    this.options = options;
  }

  /** The lease key of a session. */
  key(sessionId: string): string {
    const { prefix, name } = this.options.keyspace;
    return `${prefix}:${name}:session-lease:${sessionId}`;
  }

  /**
   * Takes the session for `runId`: resolves `"held"` when the run held it already (a resumed or retried job),
   * `"taken"` when it was free or stale, `undefined` while another run that is not finished holds it.
   */
  async acquire(sessionId: string, runId: string): Promise<"held" | "taken" | undefined> {
    const { client, jobState } = this.options;
    const key = this.key(sessionId);
    for (let attempt = 0; attempt < 3; attempt++) {
      const holder = (await runRedisScript({
        client,
        script: ACQUIRE_SCRIPT,
        keys: [key],
        args: [runId],
      })) as string;
      if (holder === ":taken" || holder === ":held") return holder === ":held" ? "held" : "taken";
      if (LIVE_STATES.has(await jobState(holder))) return undefined;
      if (
        (await runRedisScript({ client, script: TAKE_OVER_SCRIPT, keys: [key], args: [holder, runId] })) === 1
      )
        return "taken";
    }
    return undefined;
  }

  /** Gives the session up if `runId` holds it. */
  async release(sessionId: string, runId: string): Promise<void> {
    await runRedisScript({
      client: this.options.client,
      script: COMPARE_AND_DELETE,
      keys: [this.key(sessionId)],
      args: [runId],
    });
  }
}
