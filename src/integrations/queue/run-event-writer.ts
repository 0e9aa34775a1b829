import type { ChainableCommander } from "ioredis";
import type { AgentEvent } from "../../loop/agent-event.js";
import type { RedisClient } from "../redis/redis-client.js";

/** Options of {@link RunEventWriter}. */
export interface RunEventWriterOptions {
  client: RedisClient;
  /** The run's stream key (see `runEventsKey`). */
  key: string;
  /** Approximate cap of the stream's length (`XADD MAXLEN ~`). */
  maxLen: number;
  /**
   * The stream expires this long after the event that ends an attempt ({@link RunEventWriter.finish}); while
   * the attempt runs, at least half this long after its latest event (the TTL is refreshed at most every half).
   */
  ttlSeconds: number;
}

/**
 * Appends a run's events to its Redis Stream, in order (one connection, pipelined), each entry a field
 * `event` holding the event's JSON. `append` never blocks the run. The `loop_end` event is held back until
 * {@link RunEventWriter.finish} says whether this attempt ends the run (an attempt that is retried must not end
 * the stream readers follow). `finish` waits for every append and rejects with the first failure, so a job
 * never completes with events missing from its stream.
 *
 * The stream's TTL is set with the first event, then refreshed at most every `ttlSeconds / 2` (an EXPIRE in the
 * same pipeline as that event's XADD) and always with the attempt's last write, so an event costs one command
 * (XADD), not two.
 */
export class RunEventWriter {
  private readonly options: RunEventWriterOptions;
  private readonly pending = new Set<Promise<unknown>>();
  private failure: unknown;
  private end: AgentEvent | undefined;
  /** When the stream's TTL is due for a refresh, in ms since the epoch (0: with the next write). */
  private refreshAt = 0;
  /** Whether an event was written since the TTL was last set. */
  private unrefreshed = false;

  constructor(options: RunEventWriterOptions) {
    this.options = options;
  }

  /** Whether this attempt's `loop_end` is held back, waiting for {@link RunEventWriter.finish}. */
  get holdsEnd(): boolean {
    return this.end !== undefined;
  }

  /** Queues `event` for the stream (`loop_end` waits for {@link RunEventWriter.finish}). */
  append(event: AgentEvent): void {
    if (event.type === "loop_end") this.end = event;
    else this.write(event);
  }

  /**
   * Ends this attempt's events, then waits for every append. `end: true` appends the held `loop_end`, ending
   * the stream; `end: false` drops it (the run goes on in a later attempt); a list of events appends those
   * instead of it (a job that failed for good ends its stream with them).
   */
  async finish({ end }: { end: boolean | readonly AgentEvent[] }): Promise<void> {
    const last = end === true ? (this.end === undefined ? [] : [this.end]) : end === false ? [] : end;
    this.end = undefined;
    // The attempt's last write sets the TTL: the stream lives `ttlSeconds` after its end.
    this.refreshAt = 0;
    for (const event of last) this.write(event);
    if (this.unrefreshed)
      this.send(this.options.client.pipeline().expire(this.options.key, this.options.ttlSeconds));
    this.unrefreshed = false;
    await this.flush();
  }

  private write(event: AgentEvent): void {
    const { client, key, maxLen, ttlSeconds } = this.options;
    const pipeline = client.pipeline().xadd(key, "MAXLEN", "~", maxLen, "*", "event", JSON.stringify(event));
    const now = Date.now();
    if (now >= this.refreshAt) {
      pipeline.expire(key, ttlSeconds);
      this.refreshAt = now + ttlSeconds * 500;
      this.unrefreshed = false;
    } else this.unrefreshed = true;
    this.send(pipeline);
  }

  /** Sends `pipeline` (in order after every earlier one), recording its first failure. */
  private send(pipeline: ChainableCommander): void {
    const write = pipeline
      .exec()
      .then((replies) => {
        const error = replies?.find(([failed]) => failed !== null)?.[0];
        if (error) throw error;
      })
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  private async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    if (this.failure !== undefined) throw this.failure;
  }
}
