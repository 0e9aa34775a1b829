import { createHash } from "node:crypto";
import type { RedisClient } from "./redis-client.js";

/** A Lua script that runs atomically on the Redis server, addressed by its SHA-1. */
export interface RedisScript {
  readonly lua: string;
  readonly sha: string;
}

/** Defines a server-side Lua script (hashed once). */
export function redisScript(lua: string): RedisScript {
  return { lua, sha: createHash("sha1").update(lua).digest("hex") };
}

/** Deletes KEYS[1] only when it holds ARGV[1]; returns 1 when deleted (locks and leases release with it). */
export const COMPARE_AND_DELETE: RedisScript = redisScript(
  `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`,
);

/** Sets KEYS[1]'s expiry to ARGV[2] ms only while it holds ARGV[1]; returns 1 when renewed (lock renewal). */
export const COMPARE_AND_EXPIRE: RedisScript = redisScript(
  `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`,
);

/**
 * Runs `script` with `EVALSHA`; when the server does not have it cached (`NOSCRIPT`, e.g. after a restart or
 * `SCRIPT FLUSH`, or a cluster node that never ran it), runs it once with `EVAL`, which also caches it there
 * (`EVAL` is routed by its keys, so on a Redis Cluster it reaches the node that answered `NOSCRIPT`; a bare
 * `SCRIPT LOAD` would go to any node). The one place agentloop runs Redis scripts:
 * they execute on the Redis server (atomic compare-and-delete, compaction, leases), never as JavaScript. Every
 * key a script touches is passed in `keys` (never built inside it), all of one hash tag, so that on a Redis
 * Cluster the script runs on the node of their slot.
 */
export async function runRedisScript({
  client,
  script,
  keys,
  args = [],
}: {
  client: RedisClient;
  script: RedisScript;
  keys: readonly string[];
  args?: readonly (string | number)[];
}): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
    // Redis's EVAL command, sent by name: the script runs on the Redis server (nothing is evaluated here).
    return client.call("EVAL", script.lua, keys.length, ...keys, ...args);
  }
}
