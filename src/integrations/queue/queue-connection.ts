import { Cluster, Redis, type RedisOptions } from "ioredis";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { hasHashTag } from "../redis/hash-tag.js";
import type { RedisClient } from "../redis/redis-client.js";
import type { QueueKeyspace } from "./agent-job.js";

/**
 * How the queue and its workers reach Redis: ioredis options, or an ioredis instance that BullMQ uses as it
 * is (workers need it to have `maxRetriesPerRequest: null`; agentloop never closes it). Options get
 * `maxRetriesPerRequest: null` for BullMQ automatically. agentloop's own clients (journal, events, session
 * order) are separate connections (duplicates of an instance) that fail fast while Redis is down.
 *
 * For a Redis Cluster, pass an ioredis `Cluster` (with `redisOptions: { maxRetriesPerRequest: null }` for
 * workers) and a `prefix` (or queue `name`) holding a hash tag, e.g. `prefix: "{agentloop}"`: every key of
 * the queue (BullMQ's, the run events, steering messages, session order and the default journal) then
 * shares one slot, as BullMQ's scripts need. Sessions of the default store spread over the cluster.
 */
export type AgentQueueConnection = Redis | Cluster | RedisOptions;

/** Whether the connection is an ioredis client (a `Redis` or a `Cluster`) rather than options. */
export function isClientConnection(connection: AgentQueueConnection): connection is RedisClient {
  return connection instanceof Redis || connection instanceof Cluster;
}

/**
 * Checks that a queue on a Redis Cluster keeps all its keys in one slot: its prefix or its name must hold a
 * hash tag (`{...}`), since BullMQ's scripts touch many keys of the queue at once. Throws
 * `InvalidArgumentError` (at construction, instead of `CROSSSLOT` errors on the first job).
 */
export function checkClusterKeyspace(
  connection: AgentQueueConnection,
  { prefix, name }: QueueKeyspace,
): void {
  if (!(connection instanceof Cluster) || hasHashTag(`${prefix}:${name}`)) return;
  throw new InvalidArgumentError({
    argument: "prefix",
    message: `on a Redis Cluster the queue's prefix (or name) must hold a hash tag so that all its keys share a slot, e.g. prefix: "{${prefix}}" (got prefix "${prefix}", name "${name}")`,
  });
}

/**
 * Options forced on the non-blocking client created from options (journal appends, events, session order): while
 * Redis is unreachable a command fails after one reconnect attempt instead of waiting (a run then stops at
 * once: no tool runs unjournaled), and a command whose reply was lost is never re-sent (a re-sent journal
 * append could be applied twice).
 */
const OWN_CLIENT_OPTIONS = { maxRetriesPerRequest: 1, autoResendUnfulfilledCommands: false } as const;

/** A Redis client for agentloop's own commands. */
export interface QueueClient {
  readonly client: RedisClient;
  /** Closes the client. */
  close(): Promise<void>;
}

/** The options BullMQ gets for its own connections: the caller's, with `maxRetriesPerRequest: null`. */
export function bullConnection(connection: AgentQueueConnection): RedisClient | RedisOptions {
  return isClientConnection(connection) ? connection : { ...connection, maxRetriesPerRequest: null };
}

/**
 * A client of agentloop's own, made from the options (or a duplicate of the instance), closed by `close`. For
 * non-blocking commands (journal, XADD, session order) it fails fast (see `OWN_CLIENT_OPTIONS`); `blocking: true`
 * gives one for XREAD BLOCK (commands wait for a reconnect instead).
 */
export function openQueueClient({
  connection,
  blocking = false,
}: {
  connection: AgentQueueConnection;
  blocking?: boolean;
}): QueueClient {
  return ownClient(connection, blocking ? { maxRetriesPerRequest: null } : OWN_CLIENT_OPTIONS);
}

/**
 * The client of the producer's BullMQ `Queue` when the caller gave options (`undefined` for an instance: it is
 * used as it is): no
 * offline queue and one retry per request, so that `enqueue` rejects (at once, or after one reconnect attempt
 * for a command in flight) while Redis is unreachable instead of waiting for it (BullMQ's advice for queues
 * that HTTP handlers add to; enqueuing again with the same run id is safe). Closed by agentloop, also when it
 * is reconnecting (BullMQ's own close leaves such a client reconnecting).
 */
export function openProducerClient(connection: AgentQueueConnection): QueueClient | undefined {
  if (isClientConnection(connection)) return undefined;
  return ownClient(connection, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
}

function ownClient(connection: AgentQueueConnection, extra: RedisOptions): QueueClient {
  const client =
    connection instanceof Cluster
      ? // A cluster's per-command options are those of its node connections.
        connection.duplicate([], {
          ...connection.options,
          redisOptions: { ...connection.options.redisOptions, ...extra },
        })
      : connection instanceof Redis
        ? connection.duplicate(extra)
        : new Redis({ ...connection, ...extra });
  // Errors reach callers as rejected commands; without a listener ioredis would log each reconnect attempt.
  client.on("error", () => undefined);
  return {
    client,
    close: async () => {
      if (client.status === "ready") await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
