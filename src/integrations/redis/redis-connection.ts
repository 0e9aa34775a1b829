import { Redis, type RedisOptions } from "ioredis";
import { StoreError } from "../../stores/store-error.js";

/** How the Redis stores reach Redis: a client of yours, or a URL they connect to themselves. */
export interface RedisConnectionOptions {
  /** A connected (or connecting) ioredis client. The store uses it as it is and never closes it. */
  client?: Redis;
  /** Where to connect when no `client` is given (default `redis://127.0.0.1:6379`). */
  url?: string;
}

/**
 * The options of a client the stores create themselves, chosen so that an unreachable Redis surfaces as an
 * error at once instead of commands queueing: no offline queue (commands fail while disconnected), connect
 * timeout 2 s, one retry per request, no automatic re-sending of commands whose reply was lost (a re-sent
 * append could be applied twice). The client reconnects in the background (backoff up to 2 s).
 */
export const OWNED_CLIENT_OPTIONS: Readonly<RedisOptions> = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  autoResendUnfulfilledCommands: false,
  retryStrategy: (times) => Math.min(times * 200, 2_000),
};

/** A Redis client shared by a store's operations, created lazily, closed only when the store created it. */
export class RedisConnection {
  /** The client. */
  readonly client: Redis;
  private readonly owned: boolean;
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(options: RedisConnectionOptions) {
    if (options.client !== undefined) {
      this.client = options.client;
      this.owned = false;
    } else {
      this.client = new Redis(options.url ?? "redis://127.0.0.1:6379", OWNED_CLIENT_OPTIONS);
      // Connection errors reach callers as rejected commands; without a listener ioredis would log them.
      this.client.on("error", () => undefined);
      this.owned = true;
    }
  }

  /** The client, connecting it first when the store owns it and it is not connected. */
  async ready(operation: string): Promise<Redis> {
    if (this.closed) throw new StoreError({ message: "The Redis store is closed", operation });
    const { status } = this.client;
    if (this.owned && (status === "wait" || status === "end") && this.connecting === undefined) {
      this.connecting = this.client.connect().finally(() => {
        this.connecting = undefined;
      });
    }
    if (this.connecting !== undefined) await this.connecting;
    return this.client;
  }

  /** Quits the client if the store created it (a client passed in is left open). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.owned) return;
    if (this.client.status === "ready") {
      await this.client.quit().catch(() => this.client.disconnect());
    } else {
      this.client.disconnect();
    }
  }
}
