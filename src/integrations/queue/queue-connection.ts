import { Redis, type RedisOptions } from "ioredis";

/**
 * How the queue and its workers reach Redis: ioredis options, or an ioredis instance that BullMQ uses as it
 * is (workers need it to have `maxRetriesPerRequest: null`; agentloop never closes it). Options get
 * `maxRetriesPerRequest: null` for BullMQ automatically. agentloop's own clients (journal, events, session
 * order) are separate connections (duplicates of an instance) that fail fast while Redis is down.
 */
export type AgentQueueConnection = Redis | RedisOptions;

/**
 * Options forced on the non-blocking client created from options (journal appends, events, session order): while
 * Redis is unreachable a command fails after one reconnect attempt instead of waiting (a run then stops at
 * once: no tool runs unjournaled), and a command whose reply was lost is never re-sent (a re-sent journal
 * append could be applied twice).
 */
const OWN_CLIENT_OPTIONS = { maxRetriesPerRequest: 1, autoResendUnfulfilledCommands: false } as const;

/** A Redis client for agentloop's own commands. */
export interface QueueClient {
  readonly client: Redis;
  /** Closes the client. */
  close(): Promise<void>;
}

/** The options BullMQ gets for its own connections: the caller's, with `maxRetriesPerRequest: null`. */
export function bullConnection(connection: AgentQueueConnection): Redis | RedisOptions {
  return connection instanceof Redis ? connection : { ...connection, maxRetriesPerRequest: null };
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
 * The client of the producer's BullMQ `Queue` when the caller gave options (an instance is used as it is): no
 * offline queue and one retry per request, so that `enqueue` rejects (at once, or after one reconnect attempt
 * for a command in flight) while Redis is unreachable instead of waiting for it (BullMQ's advice for queues
 * that HTTP handlers add to; enqueuing again with the same run id is safe). Closed by agentloop, also when it
 * is reconnecting (BullMQ's own close leaves such a client reconnecting).
 */
export function openProducerClient(connection: RedisOptions): QueueClient {
  return ownClient(connection, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
}

function ownClient(connection: AgentQueueConnection, extra: RedisOptions): QueueClient {
  const client =
    connection instanceof Redis ? connection.duplicate(extra) : new Redis({ ...connection, ...extra });
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
