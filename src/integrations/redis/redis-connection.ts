import { Redis, type RedisOptions } from "ioredis";
import { StoreError } from "../../errors/store-error.js";
import type { RedisClient } from "./redis-client.js";

/** How the Redis stores reach Redis: a client of yours, or a URL they connect to themselves. */
export interface RedisConnectionOptions {
  /**
   * A connected (or connecting) ioredis client: a `Redis`, or a `Cluster` for a Redis Cluster (every command
   * then touches the keys of one session or one run only; see docs/deployment.md). The store uses it as it is
   * and never closes it.
   */
  client?: RedisClient;
  /** Where to connect when no `client` is given (default `redis://127.0.0.1:6379`). */
  url?: string;
}

/**
 * The options of a client the stores create themselves, chosen so that an unreachable Redis surfaces as an
 * error at once instead of commands queueing: no offline queue (commands fail while disconnected), connect
 * timeout 2 s, one retry per request, no automatic re-sending of commands whose reply was lost (a re-sent
 * append could be applied twice), and a 5 s command timeout, so a server that accepts connections but stops
 * answering fails commands instead of hanging them. The client reconnects in the background (backoff up to
 * 2 s). The stores issue no blocking commands, so the command timeout never cuts a legitimate wait.
 */
export const OWNED_CLIENT_OPTIONS: Readonly<RedisOptions> = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  commandTimeout: 5_000,
  autoResendUnfulfilledCommands: false,
  retryStrategy: (times) => Math.min(times * 200, 2_000),
};

/** How long an owned client may take to connect and pass its ready check before the operation fails. */
const READY_TIMEOUT_MS = 5_000;

/** A Redis client shared by a store's operations, created lazily, closed only when the store created it. */
export class RedisConnection {
  /** The client. */
  readonly client: RedisClient;
  /** The client the store created itself (from `url`), if it did. */
  private readonly own: Redis | undefined;
  private readonly owned: boolean;
  private connecting: Promise<void> | undefined;
  private closed = false;
  private lastError: Error | undefined;

  constructor(options: RedisConnectionOptions) {
    if (options.client !== undefined) {
      this.client = options.client;
      this.own = undefined;
      this.owned = false;
    } else {
      const own = new Redis(options.url ?? "redis://127.0.0.1:6379", OWNED_CLIENT_OPTIONS);
      // Connection errors reach callers as rejected commands; without a listener ioredis would log them.
      // The last one is kept for the message of a failed connect (ioredis itself only says "Connection is closed").
      own.on("error", (error: Error) => {
        this.lastError = error;
      });
      this.client = own;
      this.own = own;
      this.owned = true;
    }
  }

  /** The client, connecting it first when the store owns it and it is not connected. */
  async ready(operation: string): Promise<RedisClient> {
    if (this.closed) throw new StoreError({ message: "The Redis store is closed", operation });
    const { status } = this.client;
    if (this.owned && (status === "wait" || status === "end") && this.connecting === undefined) {
      this.lastError = undefined;
      this.connecting = this.connect().finally(() => {
        this.connecting = undefined;
      });
    }
    if (this.connecting !== undefined) await this.connecting;
    if (this.owned && this.client.status !== "ready") {
      // Between reconnect attempts: fail at once (no offline queue), saying why.
      throw new Error(`${this.address()} is unreachable (${this.lastError?.message ?? this.client.status})`);
    }
    return this.client;
  }

  private address(): string {
    return `Redis at ${this.own?.options.host}:${this.own?.options.port}`;
  }

  /**
   * Connects the owned client, bounded by {@link READY_TIMEOUT_MS} (ioredis waits for the ready check without
   * a limit, so a server that accepts the connection but never answers would hang every operation). A failure
   * names the address and the socket error; the client is disconnected, so the next operation tries afresh.
   */
  private async connect(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)),
        READY_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.client.connect(), timeout]);
    } catch (error) {
      this.client.disconnect();
      this.lastError ??= error as Error;
      const reason = this.lastError.message;
      throw new Error(`cannot connect to ${this.address()} (${reason})`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
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
