import { Redis, type RedisOptions } from "ioredis";

/**
 * How the queue and its workers reach Redis: ioredis options (each component opens its own connections and
 * closes them) or an ioredis instance (used as it is, duplicated for blocking reads, never closed by agentloop).
 * BullMQ needs `maxRetriesPerRequest: null` on connections that workers use; options get it set automatically.
 * agentloop's own client (journal, events, session leases) made from options fails fast while Redis is down;
 * give an instance the same behaviour with `maxRetriesPerRequest: 1, autoResendUnfulfilledCommands: false`
 * if you pass one (BullMQ duplicates it for its blocking connections).
 */
export type AgentQueueConnection = Redis | RedisOptions;

/**
 * Options forced on the non-blocking client created from options (journal appends, events, leases): while
 * Redis is unreachable a command fails after one reconnect attempt instead of waiting (a run then stops at
 * once: no tool runs unjournaled), and a command whose reply was lost is never re-sent (a re-sent journal
 * append could be applied twice).
 */
const OWN_CLIENT_OPTIONS = { maxRetriesPerRequest: 1, autoResendUnfulfilledCommands: false } as const;

/** A Redis client for agentloop's own commands, and whether agentloop must close it. */
export interface QueueClient {
  readonly client: Redis;
  /** Closes the client if it was created here (an instance passed in stays open). */
  close(): Promise<void>;
}

/** The options BullMQ gets for its own connections: the caller's, with `maxRetriesPerRequest: null`. */
export function bullConnection(connection: AgentQueueConnection): Redis | RedisOptions {
  return connection instanceof Redis ? connection : { ...connection, maxRetriesPerRequest: null };
}

/**
 * A client for non-blocking commands (XADD, job state): the instance passed in, or a new client from the
 * options. `blocking: true` always gives a client of its own (a duplicate of an instance), for XREAD BLOCK.
 */
export function openQueueClient({
  connection,
  blocking = false,
}: {
  connection: AgentQueueConnection;
  blocking?: boolean;
}): QueueClient {
  if (connection instanceof Redis && !blocking) {
    return { client: connection, close: async () => undefined };
  }
  const client =
    connection instanceof Redis
      ? connection.duplicate({ maxRetriesPerRequest: null })
      : new Redis({ ...connection, ...(blocking ? { maxRetriesPerRequest: null } : OWN_CLIENT_OPTIONS) });
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
