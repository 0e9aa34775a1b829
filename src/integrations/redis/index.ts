/**
 * `agentloop/redis`: session and state stores, and the durable-run journal, on Redis (needs the `ioredis` peer
 * dependency).
 */
export { OWNED_CLIENT_OPTIONS, type RedisConnectionOptions } from "./redis-connection.js";
export { RedisJournal, type RedisJournalOptions } from "./redis-journal.js";
export { COMPARE_AND_DELETE, type RedisScript, redisScript, runRedisScript } from "./redis-script.js";
export { RedisStateStore, type RedisStateStoreOptions } from "./redis-state-store.js";
export { RedisStore, type RedisStoreOptions } from "./redis-store.js";
