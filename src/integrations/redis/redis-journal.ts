import { randomUUID } from "node:crypto";
import type { ChainableCommander } from "ioredis";
import { checkRunId } from "../../durable/check-run-id.js";
import {
  type JournalRecord,
  parseJournalRecord,
  serializeJournalRecord,
} from "../../durable/journal-record.js";
import type { JournalRunInfo, RunJournal } from "../../durable/run-journal.js";
import { toJournalError } from "../../durable/to-journal-error.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { checkLockTtl } from "../../stores/check-lock-ttl.js";
import type { SessionLock } from "../../stores/session-store.js";
import { execMulti } from "./exec-multi.js";
import { hasHashTag, hashTag } from "./hash-tag.js";
import {
  carryLeadingWrites,
  type PipelineReply,
  settleLeadingWrites,
  takeLeadingWrites,
} from "./leading-writes.js";
import { isCluster, type RedisClient } from "./redis-client.js";
import { RedisConnection, type RedisConnectionOptions } from "./redis-connection.js";
import { COMPARE_AND_DELETE, COMPARE_AND_EXPIRE, redisScript, runRedisScript } from "./redis-script.js";
import { writeWithIndex } from "./write-with-index.js";

/** Options of {@link RedisJournal}. */
export interface RedisJournalOptions extends RedisConnectionOptions {
  /** Prefix of every key (default `"agentloop:"`). */
  prefix?: string;
  /** How long a run lock lives without renewal (default 60 s; see `RunJournal.lockTtlMs`). */
  lockTtlMs?: number;
  /**
   * How stale a running run's index score (`list`'s `updatedAt`) may get, in ms (default 10 000). An append
   * that starts or ends a run, or this journal object's first append of the run, updates the index; other
   * appends update it only when this object last did more than this long ago, and are a bare RPUSH otherwise.
   * `0` updates it with every append. A finished run's `updatedAt` is always the time of its `end` record.
   */
  indexRefreshMs?: number;
}

/**
 * Takes a run's lock (`SET NX PX`: KEYS[1], token ARGV[1], ttl ARGV[2] ms) and, when taken, returns the run's
 * records (KEYS[2], `LRANGE`) in the same round trip; nil while another holder has the lock.
 */
const LOCK_AND_READ = redisScript(`
if not redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then return false end
return redis.call("LRANGE", KEYS[2], 0, -1)`);

/** A run's records read with its lock stay good for the `load` that follows for this long (ms). */
const PREFETCH_MS = 5_000;

/** At most this many runs' last index times are remembered per journal object (the oldest are forgotten). */
const MAX_TRACKED_RUNS = 1_024;

/**
 * Keeps the first `start` and the last `end` entry of a finished run's list (Redis-side Lua, atomic). Entries
 * are written by `serializeJournalRecord`, which puts `v` and `kind` first, so the kind is read from the start
 * of the text. Returns 1 when entries were dropped, 0 for an unfinished or already compacted run.
 */
const COMPACT_SCRIPT = redisScript(`
local items = redis.call("LRANGE", KEYS[1], 0, -1)
local first, last
for _, item in ipairs(items) do
  if first == nil and string.find(item, '^{"v":%d+,"kind":"start"') then first = item
  elseif string.find(item, '^{"v":%d+,"kind":"end"') then last = item end
end
if last == nil then return 0 end
local kept = 1
if first ~= nil then kept = 2 end
if #items == kept then return 0 end
redis.call("DEL", KEYS[1])
if first ~= nil then redis.call("RPUSH", KEYS[1], first) end
redis.call("RPUSH", KEYS[1], last)
return 1`);

/**
 * A {@link RunJournal} on Redis (`agentloop/redis`, needs the `ioredis` peer dependency), a single server or
 * a Redis Cluster (pass an ioredis `Cluster` as `client`). Keys, under `prefix`; a run's own keys carry its
 * hash tag `{<run id>}` (see `hashTag`), so they share a cluster slot and runs spread over the cluster:
 * - `journal:{<run id>}`: a list of JSON {@link JournalRecord}s. `append` pushes all records of a call with one
 *   RPUSH (atomic: concurrent appends never interleave), inside a MULTI that also updates the index when it
 *   starts or ends the run or the index is due (see `indexRefreshMs`), on its own otherwise; writes of the run
 *   waiting to be sent on the same client (a queue worker's run events, see `attachLeadingWrites`) go in the
 *   same request, ahead of the record.
 * - `journal-runs`: a sorted set of run ids scored by their last append time (`list`, newest first), up to
 *   `indexRefreshMs` stale for a running run.
 * - `journal-finished`: the set of runs that have an `end` record (added in the same MULTI as the record).
 * - `journal-lock:{<run id>}`: the run lock (`SET NX PX` with a random token, in a script that also reads the
 *   run's list for the `load` that follows; renewed and released by compare-and-expire / compare-and-delete
 *   scripts), so attempts of one run never overlap across processes.
 *
 * `compact` is one Lua script (atomic); it leaves the index score alone. On a Redis Cluster the two index keys
 * live in slots of their own (unless the prefix holds a hash tag, which puts every key in one slot, as the
 * queue's journal does): an append then updates them just after its RPUSH (see `writeWithIndex`), and `list`
 * reads them one after the other; no command, MULTI or script ever spans two slots. When the journal creates its own client (`url`), an unreachable
 * Redis fails each operation at once with `StoreError` (see `OWNED_CLIENT_OPTIONS`); a client passed in
 * behaves as configured and is never closed by the journal.
 */
export class RedisJournal implements RunJournal {
  /** The key prefix. */
  readonly prefix: string;
  /** How long a run lock lives without renewal (see `RunJournal.lockTtlMs`). */
  readonly lockTtlMs: number | undefined;
  private readonly connection: RedisConnection;
  /** Whether the prefix puts every key in one cluster slot (it holds a hash tag). */
  private readonly oneSlot: boolean;
  /** See {@link RedisJournalOptions.indexRefreshMs}. */
  private readonly indexRefreshMs: number;
  /** When this object last updated each running run's index score (insertion order: oldest first). */
  private readonly indexedAt = new Map<string, number>();
  /**
   * Each run's records as read with its lock by this object (`lock`), for the `load` that follows (once; dropped
   * by any write of the run through this object, by the lock's release, and after {@link PREFETCH_MS}).
   */
  private readonly prefetched = new Map<string, { entries: string[]; at: number }>();

  constructor(options: RedisJournalOptions = {}) {
    this.prefix = options.prefix ?? "agentloop:";
    this.lockTtlMs = checkLockTtl(options.lockTtlMs);
    const refresh = options.indexRefreshMs ?? 10_000;
    if (!(Number.isFinite(refresh) && refresh >= 0)) {
      throw new InvalidArgumentError({
        argument: "indexRefreshMs",
        message: "expected a finite number >= 0",
      });
    }
    this.indexRefreshMs = refresh;
    this.connection = new RedisConnection(options);
    this.oneSlot = hasHashTag(this.prefix);
    const client = this.connection.client;
    if (!this.split(client)) carryLeadingWrites({ journal: this, client, runKey: (id) => this.runKey(id) });
  }

  /** Whether the index keys may live in other slots than a run's (a cluster, no tag in the prefix). */
  private split(client: RedisClient): boolean {
    return !this.oneSlot && isCluster(client);
  }

  /**
   * Appends the records with one RPUSH, in one MULTI with the index updates when they are due, in one request
   * with the run's leading writes (its waiting events, see `attachLeadingWrites`) when there are any.
   */
  async append(runId: string, records: readonly JournalRecord[]): Promise<void> {
    checkRunId(runId);
    if (records.length === 0) return;
    const entries = records.map(serializeJournalRecord);
    const finished = records.some((record) => record.kind === "end");
    this.prefetched.delete(runId);
    await this.run("append", runId, async (client) => {
      const at = Date.now();
      const due = this.indexDue({ runId, at, finished, records });
      try {
        if (!this.split(client)) return await this.sendAppend({ client, runId, entries, at, due, finished });
        if (!due) return void (await client.rpush(this.runKey(runId), ...entries));
        await writeWithIndex({
          client,
          split: true,
          write: (multi) => multi.rpush(this.runKey(runId), ...entries),
          index: [
            (multi) => multi.zadd(this.indexKey(), at, runId),
            ...(finished ? [(multi: ChainableCommander) => multi.sadd(this.finishedKey(), runId)] : []),
          ],
        });
      } catch (error) {
        if (due) this.indexedAt.delete(runId); // the next append tries the index again
        throw error;
      }
    });
  }

  /**
   * One request: the run's leading writes, then the RPUSH, with the index updates in a MULTI with it when
   * `due` (a pipeline otherwise, or a bare RPUSH when there is nothing else to send).
   */
  private async sendAppend(args: {
    client: RedisClient;
    runId: string;
    entries: string[];
    at: number;
    due: boolean;
    finished: boolean;
  }): Promise<void> {
    const { client, runId, entries, at, due, finished } = args;
    const request = due ? client.multi() : client.pipeline();
    const taken = takeLeadingWrites({ journal: this, runId, into: request });
    if (!due && taken.length === 0) return void (await client.rpush(this.runKey(runId), ...entries));
    request.rpush(this.runKey(runId), ...entries);
    if (due) request.zadd(this.indexKey(), at, runId);
    if (due && finished) request.sadd(this.finishedKey(), runId);
    let replies: PipelineReply[];
    try {
      const sent = await request.exec();
      if (sent === null) throw new Error("the transaction was aborted");
      replies = sent;
    } catch (error) {
      settleLeadingWrites(taken, { error });
      throw error;
    }
    for (const [error] of settleLeadingWrites(taken, { replies })) if (error !== null) throw error;
  }

  /**
   * Whether an append at `at` updates the index (and notes it): one that starts or ends the run, this object's
   * first of the run, or one `indexRefreshMs` after this object last did.
   */
  private indexDue(args: {
    runId: string;
    at: number;
    finished: boolean;
    records: readonly JournalRecord[];
  }): boolean {
    const { runId, at, finished, records } = args;
    const last = this.indexedAt.get(runId);
    this.indexedAt.delete(runId);
    if (finished) return true;
    const due =
      last === undefined ||
      at - last >= this.indexRefreshMs ||
      records.some((record) => record.kind === "start");
    this.indexedAt.set(runId, due ? at : last);
    if (this.indexedAt.size > MAX_TRACKED_RUNS) {
      for (const oldest of this.indexedAt.keys()) {
        this.indexedAt.delete(oldest);
        break;
      }
    }
    return due;
  }

  /** The run's records, or `undefined` when it has none. */
  async load(runId: string): Promise<JournalRecord[] | undefined> {
    checkRunId(runId);
    const key = this.runKey(runId);
    const prefetched = this.prefetched.get(runId);
    this.prefetched.delete(runId);
    const fresh = prefetched !== undefined && Date.now() - prefetched.at < PREFETCH_MS;
    return this.run("load", runId, async (client) => {
      const entries = fresh ? prefetched.entries : await client.lrange(key, 0, -1);
      if (entries.length === 0) return undefined;
      return entries.map((entry, index) => {
        let value: unknown;
        try {
          value = JSON.parse(entry);
        } catch {
          value = undefined;
        }
        return parseJournalRecord({ value, runId, where: `Redis list ${key} entry ${index}` });
      });
    });
  }

  /** Keeps only the `start` and `end` records of a finished run (one Lua script). */
  async compact(runId: string): Promise<boolean> {
    checkRunId(runId);
    this.prefetched.delete(runId);
    return this.run("compact", runId, async (client) => {
      return (await runRedisScript({ client, script: COMPACT_SCRIPT, keys: [this.runKey(runId)] })) === 1;
    });
  }

  /** Deletes the run's list and index entries. */
  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    this.indexedAt.delete(runId);
    this.prefetched.delete(runId);
    await this.run("delete", runId, async (client) => {
      await writeWithIndex({
        client,
        split: this.split(client),
        write: (multi) => multi.del(this.runKey(runId)),
        index: [
          (multi) => multi.zrem(this.indexKey(), runId),
          (multi) => multi.srem(this.finishedKey(), runId),
        ],
      });
    });
  }

  /** Every run in the index, most recently updated first. */
  async list(): Promise<JournalRunInfo[]> {
    return this.run("list", undefined, async (client) => {
      // One MULTI where both keys share a slot; on a cluster the index, then the finished set (a run that
      // finishes in between is listed as finished).
      const [flat, finished] = (
        this.split(client)
          ? [
              await client.zrevrange(this.indexKey(), 0, -1, "WITHSCORES"),
              await client.smembers(this.finishedKey()),
            ]
          : await execMulti(
              client.multi().zrevrange(this.indexKey(), 0, -1, "WITHSCORES").smembers(this.finishedKey()),
            )
      ) as [string[], string[]];
      const done = new Set(finished);
      const infos: JournalRunInfo[] = [];
      for (let index = 0; index + 1 < flat.length; index += 2) {
        const runId = flat[index]!;
        infos.push({ runId, finished: done.has(runId), updatedAt: Number(flat[index + 1]) });
      }
      return infos;
    });
  }

  /**
   * Takes the run's lock (`SET NX PX`), or resolves `undefined` while another holder has it. One script that
   * also reads the run's records, so the `load` an attempt makes just after it costs no round trip.
   */
  async lock(runId: string, options: { ttlMs: number }): Promise<SessionLock | undefined> {
    checkRunId(runId);
    return this.run("lock", runId, async (client) => {
      const key = this.lockKey(runId);
      const token = randomUUID();
      const ttl = Math.max(1, Math.ceil(options.ttlMs));
      const entries = await runRedisScript({
        client,
        script: LOCK_AND_READ,
        keys: [key, this.runKey(runId)],
        args: [token, ttl],
      });
      if (!Array.isArray(entries)) return undefined;
      this.prefetched.delete(runId); // re-inserted last: the map's first entries are the oldest
      this.prefetched.set(runId, { entries: entries.map(String), at: Date.now() });
      for (const [id, { at }] of this.prefetched) {
        if (this.prefetched.size <= MAX_TRACKED_RUNS && Date.now() - at < PREFETCH_MS) break;
        this.prefetched.delete(id);
      }
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          this.prefetched.delete(runId);
          await this.run("release", runId, (ready) =>
            runRedisScript({ client: ready, script: COMPARE_AND_DELETE, keys: [key], args: [token] }),
          );
        },
        renew: async () => {
          if (released) return false;
          const renewed = await this.run("renew", runId, (ready) =>
            runRedisScript({ client: ready, script: COMPARE_AND_EXPIRE, keys: [key], args: [token, ttl] }),
          );
          return renewed === 1;
        },
      };
    });
  }

  /** The key of a run's lock. */
  lockKey(runId: string): string {
    return `${this.prefix}journal-lock:${hashTag(runId)}`;
  }

  /** Quits the client if the journal created it (one passed in stays open). */
  async close(): Promise<void> {
    await this.connection.close();
  }

  /** The key of a run's record list (`<prefix>journal:{<run id>}`; see `hashTag`). */
  runKey(runId: string): string {
    return `${this.prefix}journal:${hashTag(runId)}`;
  }

  /** The key of the sorted set indexing the runs. */
  indexKey(): string {
    return `${this.prefix}journal-runs`;
  }

  /** The key of the set of finished runs. */
  finishedKey(): string {
    return `${this.prefix}journal-finished`;
  }

  private async run<T>(
    operation: string,
    runId: string | undefined,
    task: (client: RedisClient) => Promise<T>,
  ): Promise<T> {
    try {
      return await task(await this.connection.ready(operation));
    } catch (error) {
      throw toJournalError({ error, journal: "RedisJournal", operation, runId });
    }
  }
}
