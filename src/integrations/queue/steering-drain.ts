import { SteeringInbox } from "../../loop/steering-inbox.js";
import type { RedisClient } from "../redis/redis-client.js";
import { redisScript, runRedisScript } from "../redis/redis-script.js";
import type { QueueKeyspace } from "./agent-job.js";
import type { RunJournal } from "./durable-api.js";
import {
  countAppliedMessages,
  parseSteeringEntry,
  steeringKey,
  steeringStateKey,
} from "./queued-steering.js";

/**
 * Returns the waiting messages KEYS[2] and keeps both keys alive for the state's `ttl` (a long run keeps its
 * counter: a counter that expired and restarted would number new messages as applied ones).
 */
const POLL = redisScript(`local ttl = redis.call("HGET", KEYS[1], "ttl")
if not ttl then return {} end
redis.call("EXPIRE", KEYS[1], ttl)
redis.call("EXPIRE", KEYS[2], ttl)
return redis.call("LRANGE", KEYS[2], 0, -1)`);

/** Removes the waiting messages KEYS[1] numbered up to ARGV[1] (they are journaled: in the run's history). */
const ACK = redisScript(`while true do
  local head = redis.call("LINDEX", KEYS[1], 0)
  if not head then return 0 end
  local seq = tonumber(string.match(head, "^(%d+) "))
  if seq == nil or seq > tonumber(ARGV[1]) then return 0 end
  redis.call("LPOP", KEYS[1])
end`);

/** Options of {@link SteeringDrain}. */
export interface SteeringDrainOptions {
  client: RedisClient;
  keyspace: QueueKeyspace;
  runId: string;
  /** The run's journal: its `user_message` records tell which messages earlier attempts added. */
  journal: RunJournal;
  /** How often Redis is asked for new messages while the run goes on. */
  pollMs: number;
}

/**
 * Feeds one attempt of a queued run with the messages sent to it (`queue.send`): reads the run's waiting
 * messages from Redis (once before the run starts, then every `pollMs`) into the attempt's {@link inbox},
 * which the loop journals and adds between turns. A message leaves Redis only once it is journaled (its
 * `send` resolved true); one journaled by an attempt that died before removing it is recognised by the
 * journal's count of `user_message` records and never handed over again. So each message is added exactly
 * once, whichever attempt adds it, and none is lost with a worker.
 *
 * Polling, not a blocking read: messages are only applied between turns (a model call and its tools, seconds
 * apart), so a short poll adds no visible delay; it costs one small script per running run per `pollMs`,
 * needs no connection per run, survives reconnects, and leaves the messages in Redis until they are journaled
 * (a blocking pop would take them out first).
 */
export class SteeringDrain {
  /** The inbox to pass to the run (`agent.run(input, { steering })`). */
  readonly inbox = new SteeringInbox();
  private readonly options: SteeringDrainOptions;
  private readonly keys: readonly [state: string, list: string];
  /** The last message number handed to the inbox (or added by earlier attempts); unknown until needed. */
  private handed: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly acks = new Set<Promise<void>>();

  constructor(options: SteeringDrainOptions) {
    this.options = options;
    this.keys = [
      steeringStateKey(options.keyspace, options.runId),
      steeringKey(options.keyspace, options.runId),
    ];
  }

  /**
   * Hands the messages waiting now to the inbox (so messages sent before the job started are added at its
   * first turn boundary), then polls. Rejects when Redis or the journal fails (the attempt then fails).
   */
  async start(): Promise<void> {
    await this.drain();
    this.schedule();
  }

  /** Stops polling; resolves once the poll in flight and the removals of added messages have settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    while (this.acks.size > 0) await Promise.all([...this.acks]);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      // A failed poll (Redis briefly away) is tried again at the next tick; the messages stay in Redis.
      this.running = this.drain().catch(() => undefined);
      void this.running.then(() => this.schedule());
    }, this.options.pollMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    const { client, journal, runId } = this.options;
    if (this.inbox.closed) return;
    const raw = (await runRedisScript({ client, script: POLL, keys: this.keys })) as string[];
    const entries = raw.flatMap((entry) => parseSteeringEntry(entry) ?? []);
    if (entries.length === 0) return;
    if (this.handed === undefined) {
      // Only this attempt's inbox adds messages to the run, and it has added none yet: the journal's count is
      // what earlier attempts added (some may still be in Redis: their worker died before removing them).
      const applied = countAppliedMessages(await journal.load(runId));
      this.handed = applied;
      if (entries[0] !== undefined && entries[0].seq <= applied) this.remove(applied);
    }
    for (const { seq, text } of entries) {
      if (seq <= this.handed || this.inbox.closed) continue;
      let added: Promise<boolean>;
      try {
        added = this.inbox.send(text);
      } catch {
        return; // not a message `queue.send` accepts (the key was written by hand): it and later ones wait
      }
      this.handed = seq;
      // True once journaled and in the history: only then may it leave Redis. False (the attempt ended
      // first): it stays, for the next attempt or for the run's close, which reports it as not delivered.
      void added.then((applied) => {
        if (applied) this.remove(seq);
      });
    }
  }

  /** Removes the messages numbered up to `seq` from Redis (a failure leaves them: the journal's count skips them). */
  private remove(seq: number): void {
    const ack = runRedisScript({
      client: this.options.client,
      script: ACK,
      keys: [this.keys[1]],
      args: [seq],
    })
      .then(() => undefined)
      .catch(() => undefined)
      .finally(() => this.acks.delete(ack));
    this.acks.add(ack);
  }
}
