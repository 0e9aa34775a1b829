import type { Redis } from "ioredis";
import type { JsonValue, StateStore } from "../../stores/session-store.js";
import { createStateEnvelope, parseStateEnvelope } from "../../stores/state-envelope.js";
import { toStoreError } from "../../stores/to-store-error.js";
import { isCluster, type RedisClient } from "./redis-client.js";
import { RedisConnection, type RedisConnectionOptions } from "./redis-connection.js";

/** Options of {@link RedisStateStore}. */
export interface RedisStateStoreOptions extends RedisConnectionOptions {
  /** Prefix of every key (default `"agentloop:"`); a value lives at `<prefix>kv:<key>`. */
  prefix?: string;
}

/**
 * A {@link StateStore} on Redis (`agentloop/redis`): each value is one string key, `<prefix>kv:<key>`, holding
 * JSON `{ v, at, value }`. Connection behaviour as for `RedisStore`; on a Redis Cluster (an ioredis `Cluster`
 * as `client`) values spread over the nodes, and `clear()` scans every master.
 */
export class RedisStateStore implements StateStore {
  /** The key prefix. */
  readonly prefix: string;
  private readonly connection: RedisConnection;

  constructor(options: RedisStateStoreOptions = {}) {
    this.prefix = options.prefix ?? "agentloop:";
    this.connection = new RedisConnection(options);
  }

  /** Sets the value of `key`. */
  async save(key: string, value: JsonValue): Promise<void> {
    await this.run("save", key, async (client) => {
      await client.set(this.valueKey(key), JSON.stringify(createStateEnvelope(value)));
    });
  }

  /** The value of `key`, or `undefined`. */
  async load(key: string): Promise<JsonValue | undefined> {
    return this.run("load", key, async (client) => {
      const text = await client.get(this.valueKey(key));
      return text === null
        ? undefined
        : parseStateEnvelope({ text, key, where: `Redis key ${this.valueKey(key)}` });
    });
  }

  /**
   * Removes `key` (no error when absent). With no key, removes every value under this store's prefix
   * (`<prefix>kv:*`, found with SCAN in batches, so Redis is never blocked by one large command; on a Redis
   * Cluster, SCAN runs on every master and each key is deleted on its own node).
   */
  async clear(key?: string): Promise<void> {
    await this.run("clear", key, async (client) => {
      if (key !== undefined) {
        await client.del(this.valueKey(key));
        return;
      }
      const pattern = `${escapeGlob(this.prefix)}kv:*`;
      if (!isCluster(client)) {
        await scanAndDelete(client, pattern, (keys) => client.del(...keys));
        return;
      }
      // A batch's keys are in many slots: one DEL each, routed by the cluster client.
      const deleteEach = (keys: string[]) => Promise.all(keys.map((key) => client.del(key)));
      await Promise.all(client.nodes("master").map((node) => scanAndDelete(node, pattern, deleteEach)));
    });
  }

  /** Quits the client if the store created it (one passed in stays open). */
  async close(): Promise<void> {
    await this.connection.close();
  }

  /** The Redis key of a value. */
  valueKey(key: string): string {
    return `${this.prefix}kv:${key}`;
  }

  private async run<T>(
    operation: string,
    key: string | undefined,
    task: (client: RedisClient) => Promise<T>,
  ): Promise<T> {
    try {
      return await task(await this.connection.ready(operation));
    } catch (error) {
      throw toStoreError({ error, store: "RedisStateStore", operation, key });
    }
  }
}

/** Scans one server for keys matching `pattern`, 500 at a time, and hands each batch to `remove`. */
async function scanAndDelete(
  server: Redis,
  pattern: string,
  remove: (keys: string[]) => Promise<unknown>,
): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await server.scan(cursor, "MATCH", pattern, "COUNT", 500);
    if (keys.length > 0) await remove(keys);
    cursor = next;
  } while (cursor !== "0");
}

/** Escapes the characters Redis glob patterns treat specially, so a prefix matches only itself. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}
