import type { Redis } from "ioredis";
import { hashTag } from "./hash-tag.js";

/** Options of {@link migrateRedisKeys}. */
export interface MigrateRedisKeysOptions {
  /** A client of the single Redis server holding the old keys (migrate before moving to a cluster). */
  client: Redis;
  /**
   * The prefix the stores were given (default `"agentloop:"`); for the queue's default journal,
   * `<prefix>:<name>:durable:` (e.g. `"bull:agentloop:durable:"`). Call once per prefix.
   */
  prefix?: string;
}

/** What {@link migrateRedisKeys} did. */
export interface MigrateRedisKeysResult {
  /** Keys renamed to the hash-tagged layout. */
  renamed: number;
  /** Old keys left as they were because the new key exists already (written since the upgrade). */
  skipped: string[];
}

/** The per-session and per-run key kinds whose names gained a hash tag in 0.2.0 (locks are short-lived). */
const KINDS = ["session", "state", "last-append", "journal"] as const;

/**
 * Renames the keys `RedisStore` and `RedisJournal` wrote before 0.2.0 (`<prefix>session:<id>`, `state:<id>`,
 * `last-append:<id>`, `journal:<run id>`) to the hash-tagged layout (`<prefix>session:{<id>}`, …) that
 * Redis Cluster needs, with `RENAMENX` (a key the new version has written already is never overwritten: the
 * old one is left and reported in `skipped`). Run it once per prefix, with no run in flight, on the single
 * server, before any other agentloop 0.2 process uses it; the index keys (`sessions`, `journal-runs`,
 * `journal-finished`) keep their names. Keys already in the new layout (or of an id starting with `{`) are
 * left alone. Found with SCAN in batches, so Redis is never blocked.
 *
 * @example
 * const client = new Redis("redis://127.0.0.1:6379");
 * await migrateRedisKeys({ client });                                   // RedisStore / RedisJournal
 * await migrateRedisKeys({ client, prefix: "bull:agentloop:durable:" }); // the queue's default journal
 */
export async function migrateRedisKeys({
  client,
  prefix = "agentloop:",
}: MigrateRedisKeysOptions): Promise<MigrateRedisKeysResult> {
  const result: MigrateRedisKeysResult = { renamed: 0, skipped: [] };
  for (const kind of KINDS) {
    const head = `${prefix}${kind}:`;
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${escapeGlob(head)}*`, "COUNT", 500);
      cursor = next;
      for (const key of keys) {
        const id = key.slice(head.length);
        if (id.startsWith("{")) continue; // the new layout (its tag comes first)
        if ((await client.renamenx(key, `${head}${hashTag(id)}`)) === 1) result.renamed++;
        else result.skipped.push(key);
      }
    } while (cursor !== "0");
  }
  return result;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}
