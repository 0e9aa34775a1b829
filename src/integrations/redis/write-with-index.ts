import type { ChainableCommander } from "ioredis";
import { execMulti } from "./exec-multi.js";
import type { RedisClient } from "./redis-client.js";

/** Options of {@link writeWithIndex}. */
export interface WriteWithIndexOptions {
  client: RedisClient;
  /** Queues the write to one session's or one run's keys (all of one hash tag). */
  write: (multi: ChainableCommander) => ChainableCommander;
  /** Each queues one update of a store-wide index key (the sorted set of ids, the set of finished runs). */
  index: ReadonlyArray<(multi: ChainableCommander) => ChainableCommander>;
  /**
   * Whether the index keys may live in other hash slots than the written ones: on a Redis Cluster whose key
   * prefix holds no hash tag. Then the write is one MULTI and the index updates follow it, once it succeeded,
   * as commands of their own, each routed to its key's node (a cross-slot MULTI would fail with `CROSSSLOT`).
   */
  split: boolean;
}

/**
 * Writes one entity's keys and updates the store-wide index: in one MULTI (atomic, one round trip) on a single
 * server or when every key shares the prefix's hash tag; on a Redis Cluster otherwise, the write's MULTI first
 * and the index updates just after it (an index lags its data by one round trip, never leads it: an `end`
 * record is stored before its run is listed as finished).
 */
export async function writeWithIndex({ client, write, index, split }: WriteWithIndexOptions): Promise<void> {
  if (!split) {
    await execMulti(index.reduce((multi, update) => update(multi), write(client.multi())));
    return;
  }
  await execMulti(write(client.multi()));
  await Promise.all(index.map((update) => execMulti(update(client.pipeline()))));
}
