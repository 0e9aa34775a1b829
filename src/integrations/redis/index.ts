/**
 * `agentloop/redis`: session and state stores, and the durable-run journal, on Redis or a Redis Cluster (needs
 * the `ioredis` peer dependency; pass an ioredis `Cluster` as `client`).
 */
export {
  type MigrateRedisKeysOptions,
  type MigrateRedisKeysResult,
  migrateRedisKeys,
} from "./migrate-redis-keys.js";
export type { RedisClient } from "./redis-client.js";
export { OWNED_CLIENT_OPTIONS, type RedisConnectionOptions } from "./redis-connection.js";
export { RedisJournal, type RedisJournalOptions } from "./redis-journal.js";
export { COMPARE_AND_DELETE, type RedisScript, redisScript, runRedisScript } from "./redis-script.js";
export { RedisStateStore, type RedisStateStoreOptions } from "./redis-state-store.js";
export { RedisStore, type RedisStoreOptions } from "./redis-store.js";
