import type { Cluster, Redis } from "ioredis";

/**
 * An ioredis client the Redis integrations take: a connection to one server (`Redis`) or to a Redis Cluster
 * (`Cluster`). On a cluster every multi-key command, MULTI and script of agentloop touches the keys of one
 * hash tag only (one session, one run, or one queue), so it never fails with `CROSSSLOT`.
 */
export type RedisClient = Redis | Cluster;

/** Whether `client` is an ioredis `Cluster` (its keys are spread over hash slots). */
export function isCluster(client: RedisClient): client is Cluster {
  return client.isCluster === true;
}
