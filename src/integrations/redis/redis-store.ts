import { randomUUID } from "node:crypto";
import type { Message } from "../../models/message.js";
import { checkLockTtl } from "../../stores/check-lock-ttl.js";
import { compactSessionRecords } from "../../stores/compact-session-records.js";
import { foldSessionRecords } from "../../stores/fold-session-records.js";
import { parseSessionRecord } from "../../stores/parse-session-record.js";
import {
  type AppendOptions,
  type JsonValue,
  SESSION_RECORD_VERSION,
  type SessionData,
  type SessionInfo,
  type SessionLock,
  type SessionRecord,
  type SessionStore,
} from "../../stores/session-store.js";
import { toStoreError } from "../../stores/to-store-error.js";
import { withSessionLock } from "../../stores/with-session-lock.js";
import { execMulti } from "./exec-multi.js";
import { hasHashTag, hashTag } from "./hash-tag.js";
import { isCluster, type RedisClient } from "./redis-client.js";
import { RedisConnection, type RedisConnectionOptions } from "./redis-connection.js";
import { COMPARE_AND_DELETE, COMPARE_AND_EXPIRE, redisScript, runRedisScript } from "./redis-script.js";
import { writeWithIndex } from "./write-with-index.js";

/** Options of {@link RedisStore}. */
export interface RedisStoreOptions extends RedisConnectionOptions {
  /** Prefix of every key (default `"agentloop:"`). */
  prefix?: string;
  /** How long a session lock lives without renewal (default 60 s; see `SessionStore.lockTtlMs`). */
  lockTtlMs?: number;
}

/**
 * An idempotent append (Redis-side Lua, atomic): KEYS = list, last-append id, and the index when it is in the
 * same slot (not on a Redis Cluster without a hash-tagged prefix: then the caller updates it after); ARGV =
 * append id ("" for none), time, session id, then the entries. An append whose id is the session's last one
 * writes nothing (returns 0): a command re-sent after its reply was lost cannot push the same messages twice.
 */
const APPEND_SCRIPT = redisScript(`
if ARGV[1] ~= "" then
  if redis.call("GET", KEYS[2]) == ARGV[1] then return 0 end
  redis.call("SET", KEYS[2], ARGV[1])
end
for i = 4, #ARGV, 1000 do
  redis.call("RPUSH", KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
if KEYS[3] then redis.call("ZADD", KEYS[3], ARGV[2], ARGV[3]) end
return 1`);

/**
 * Compaction's write (Redis-side Lua, atomic): KEYS = list, state; ARGV = the list's length and last entry
 * when it was read, the state entry then ("" for none), the snapshot entry ("" for none), the new state entry
 * ("" for none). Writes nothing and returns 0 when the list or the state changed since they were read.
 */
const COMPACT_SCRIPT = redisScript(`
local length = tonumber(ARGV[1])
if redis.call("LLEN", KEYS[1]) ~= length then return 0 end
if length > 0 and redis.call("LINDEX", KEYS[1], -1) ~= ARGV[2] then return 0 end
if (redis.call("GET", KEYS[2]) or "") ~= ARGV[3] then return 0 end
redis.call("DEL", KEYS[1])
if ARGV[4] ~= "" then redis.call("RPUSH", KEYS[1], ARGV[4]) end
if ARGV[5] == "" then redis.call("DEL", KEYS[2]) else redis.call("SET", KEYS[2], ARGV[5]) end
return 1`);

/**
 * A {@link SessionStore} on Redis (`agentloop/redis`, needs the `ioredis` peer dependency), a single server or
 * a Redis Cluster (pass an ioredis `Cluster` as `client`). Keys, under `prefix`, each with the session's hash
 * tag `{<id>}` (see `hashTag`), so all keys of one session share a cluster slot and sessions spread over the
 * cluster:
 * - `session:{<id>}`: a list of JSON {@link SessionRecord}s (message and snapshot records). `append` pushes all
 *   records of a call in one Lua script, `replace` is MULTI { DEL, RPUSH snapshot }: both atomic.
 * - `last-append:{<id>}`: the session's last append id; the append script writes nothing when its id is that
 *   one, so an append retried after a lost reply (a command timeout) is applied once.
 * - `state:{<id>}`: the session's state, one JSON `state` record (SET by `saveState`), kept apart from the list
 *   so `replace` never has to carry it over.
 * - `compact` (under the session lock) rewrites the list as one snapshot record with a Lua script that first
 *   checks the list and state are as they were read; `last-append:{<id>}` and the index entry are untouched.
 * - `sessions`: a sorted set of session ids scored by their last write time (`list`, newest first).
 * - `lock:{<id>}`: the session lock, `SET NX PX ttl` with a random token; released by a compare-and-delete
 *   script and renewed by a compare-and-expire one, so an expired holder can never delete or extend its
 *   successor's lock.
 *
 * Every write also updates the index in the same MULTI. On a Redis Cluster the index lives in its own slot
 * (unless the prefix holds a hash tag, which puts every key in one slot): a write then updates it just after
 * (see `writeWithIndex`), and no command, MULTI or script ever spans two slots. When the store creates its own client (`url`), an unreachable Redis fails each operation
 * at once with {@link StoreError} (see `OWNED_CLIENT_OPTIONS`); a client passed in behaves as configured.
 */
export class RedisStore implements SessionStore {
  /** The key prefix. */
  readonly prefix: string;
  /** How long a session lock lives without renewal (see `SessionStore.lockTtlMs`). */
  readonly lockTtlMs: number | undefined;
  private readonly connection: RedisConnection;
  /** Whether the prefix puts every key in one cluster slot (it holds a hash tag). */
  private readonly oneSlot: boolean;

  constructor(options: RedisStoreOptions = {}) {
    this.prefix = options.prefix ?? "agentloop:";
    this.lockTtlMs = checkLockTtl(options.lockTtlMs);
    this.connection = new RedisConnection(options);
    this.oneSlot = hasHashTag(this.prefix);
  }

  /** Whether the index may live in another slot than a session's keys (a cluster, no tag in the prefix). */
  private split(client: RedisClient): boolean {
    return !this.oneSlot && isCluster(client);
  }

  /** A session's list entries and state text as stored, and the records they hold (checked). */
  private async readRecords(
    client: RedisClient,
    sessionId: string,
  ): Promise<{ entries: string[]; stateText: string | null; records: SessionRecord[] }> {
    const [entries, stateText] = (await execMulti(
      client.multi().lrange(this.listKey(sessionId), 0, -1).get(this.stateKey(sessionId)),
    )) as [string[], string | null];
    const records = entries.map((entry, index) =>
      this.parse(entry, sessionId, `Redis list ${this.listKey(sessionId)} entry ${index}`),
    );
    if (stateText !== null)
      records.push(this.parse(stateText, sessionId, `Redis key ${this.stateKey(sessionId)}`));
    return { entries, stateText, records };
  }

  /** Loads a session, or `undefined` when it has neither records nor state. */
  async load(sessionId: string): Promise<SessionData | undefined> {
    return this.run("load", sessionId, async (client) => {
      const { records } = await this.readRecords(client, sessionId);
      return foldSessionRecords({ sessionId, records });
    });
  }

  /**
   * Appends the messages' records in one Lua script (an empty list writes nothing; an append repeating the
   * session's last `appendId` neither).
   */
  async append(sessionId: string, messages: readonly Message[], options?: AppendOptions): Promise<void> {
    if (messages.length === 0) return;
    const appendId = options?.appendId;
    await this.run("append", sessionId, async (client) => {
      const at = Date.now();
      const entries = messages.map((message) =>
        JSON.stringify(
          (appendId === undefined
            ? { v: SESSION_RECORD_VERSION, type: "message", at, message }
            : { v: SESSION_RECORD_VERSION, type: "message", at, message, appendId }) satisfies SessionRecord,
        ),
      );
      const split = this.split(client);
      const keys = [this.listKey(sessionId), this.lastAppendKey(sessionId)];
      await runRedisScript({
        client,
        script: APPEND_SCRIPT,
        keys: split ? keys : [...keys, this.indexKey()],
        args: [appendId ?? "", at, sessionId, ...entries],
      });
      // A repeated append id (0) updates the index too: the first attempt may have failed before it.
      if (split) await client.zadd(this.indexKey(), at, sessionId);
    });
  }

  /** Replaces the list with one snapshot record (MULTI DEL + RPUSH); the state is kept. */
  async replace(sessionId: string, messages: readonly Message[]): Promise<void> {
    await this.run("replace", sessionId, async (client) => {
      const at = Date.now();
      const entry = JSON.stringify({
        v: SESSION_RECORD_VERSION,
        type: "snapshot",
        at,
        messages: [...messages],
      } satisfies SessionRecord);
      const key = this.listKey(sessionId);
      await writeWithIndex({
        client,
        split: this.split(client),
        write: (multi) => multi.del(key).rpush(key, entry),
        index: [(multi) => multi.zadd(this.indexKey(), at, sessionId)],
      });
    });
  }

  /** Sets the session's state record. */
  async saveState(sessionId: string, state: { [key: string]: JsonValue }): Promise<void> {
    await this.run("saveState", sessionId, async (client) => {
      const at = Date.now();
      const entry = JSON.stringify({
        v: SESSION_RECORD_VERSION,
        type: "state",
        at,
        state,
      } satisfies SessionRecord);
      await writeWithIndex({
        client,
        split: this.split(client),
        write: (multi) => multi.set(this.stateKey(sessionId), entry),
        index: [(multi) => multi.zadd(this.indexKey(), at, sessionId)],
      });
    });
  }

  /**
   * Rewrites the session as its compact form (see `SessionStore.compact`) with one Lua script, under the
   * session lock (`SessionBusyError` while a run holds it). The script writes nothing if a write landed since
   * the read (then this resolves `false`). The last append id is kept, so a retry of the last append is
   * still dropped.
   */
  async compact(sessionId: string): Promise<boolean> {
    return withSessionLock({
      store: this,
      sessionId,
      task: () =>
        this.run("compact", sessionId, async (client) => {
          const { entries, stateText, records } = await this.readRecords(client, sessionId);
          const compacted = compactSessionRecords({ sessionId, records });
          if (compacted === undefined) return false;
          const snapshot = compacted.records.find((record) => record.type === "snapshot");
          const state = compacted.records.find((record) => record.type === "state");
          const written = await runRedisScript({
            client,
            script: COMPACT_SCRIPT,
            keys: [this.listKey(sessionId), this.stateKey(sessionId)],
            args: [
              entries.length,
              entries.at(-1) ?? "",
              stateText ?? "",
              snapshot === undefined ? "" : JSON.stringify(snapshot),
              state === undefined ? "" : JSON.stringify(state),
            ],
          });
          return written === 1;
        }),
    });
  }

  /** Lists the sessions from the index, most recently updated first. */
  async list(): Promise<SessionInfo[]> {
    return this.run("list", undefined, async (client) => {
      const flat = await client.zrevrange(this.indexKey(), 0, -1, "WITHSCORES");
      const infos: SessionInfo[] = [];
      for (let index = 0; index + 1 < flat.length; index += 2) {
        infos.push({ sessionId: flat[index]!, updatedAt: Number(flat[index + 1]) });
      }
      return infos;
    });
  }

  /** Deletes the session's records, state and index entry (its lock, if held, stays). */
  async delete(sessionId: string): Promise<void> {
    await this.run("delete", sessionId, async (client) => {
      await writeWithIndex({
        client,
        split: this.split(client),
        write: (multi) =>
          multi.del(this.listKey(sessionId), this.stateKey(sessionId), this.lastAppendKey(sessionId)),
        index: [(multi) => multi.zrem(this.indexKey(), sessionId)],
      });
    });
  }

  /** Takes the session lock (`SET NX PX`), or resolves `undefined` while another holder has it. */
  async lock(sessionId: string, options: { ttlMs: number }): Promise<SessionLock | undefined> {
    return this.run("lock", sessionId, async (client) => {
      const key = this.lockKey(sessionId);
      const token = randomUUID();
      const ttl = Math.max(1, Math.ceil(options.ttlMs));
      const taken = await client.set(key, token, "PX", ttl, "NX");
      if (taken !== "OK") return undefined;
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          await this.run("release", sessionId, (ready) =>
            runRedisScript({ client: ready, script: COMPARE_AND_DELETE, keys: [key], args: [token] }),
          );
        },
        renew: async () => {
          if (released) return false;
          const renewed = await this.run("renew", sessionId, (ready) =>
            runRedisScript({ client: ready, script: COMPARE_AND_EXPIRE, keys: [key], args: [token, ttl] }),
          );
          return renewed === 1;
        },
      };
    });
  }

  /** Quits the client if the store created it (one passed in stays open). */
  async close(): Promise<void> {
    await this.connection.close();
  }

  /** The key of a session's record list (`<prefix>session:{<id>}`; see `hashTag`). */
  listKey(sessionId: string): string {
    return `${this.prefix}session:${hashTag(sessionId)}`;
  }

  /** The key of a session's state record. */
  stateKey(sessionId: string): string {
    return `${this.prefix}state:${hashTag(sessionId)}`;
  }

  /** The key of a session's last append id. */
  lastAppendKey(sessionId: string): string {
    return `${this.prefix}last-append:${hashTag(sessionId)}`;
  }

  /** The key of a session's lock. */
  lockKey(sessionId: string): string {
    return `${this.prefix}lock:${hashTag(sessionId)}`;
  }

  /** The key of the sorted set indexing the sessions. */
  indexKey(): string {
    return `${this.prefix}sessions`;
  }

  private parse(text: string, sessionId: string, where: string): SessionRecord {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    return parseSessionRecord({ value, sessionId, where });
  }

  private async run<T>(
    operation: string,
    sessionId: string | undefined,
    task: (client: RedisClient) => Promise<T>,
  ): Promise<T> {
    try {
      return await task(await this.connection.ready(operation));
    } catch (error) {
      throw toStoreError({ error, store: "RedisStore", operation, sessionId });
    }
  }
}
