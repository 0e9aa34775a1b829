/**
 * `agentloop/redis`: session and state stores on Redis (needs the `ioredis` peer dependency).
 */
export { OWNED_CLIENT_OPTIONS, type RedisConnectionOptions } from "./redis-connection.js";
export { RedisStateStore, type RedisStateStoreOptions } from "./redis-state-store.js";
export { RedisStore, type RedisStoreOptions } from "./redis-store.js";
