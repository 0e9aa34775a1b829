import type { AgentEvent } from "../../loop/agent-event.js";
import type { RedisClient } from "../redis/redis-client.js";

/** Options of {@link RunEventWriter}. */
export interface RunEventWriterOptions {
  client: RedisClient;
  /** The run's stream key (see `runEventsKey`). */
  key: string;
  /** Approximate cap of the stream's length (`XADD MAXLEN ~`). */
  maxLen: number;
  /** The stream expires this long after its last event. */
  ttlSeconds: number;
}

/**
 * Appends a run's events to its Redis Stream, in order (one connection, pipelined), each entry a field
 * `event` holding the event's JSON. `append` never blocks the run. The `loop_end` event is held back until
 * {@link RunEventWriter.finish} says whether this attempt ends the run (an attempt that is retried must not end
 * the stream readers follow). `finish` waits for every append and rejects with the first failure, so a job
 * never completes with events missing from its stream.
 */
export class RunEventWriter {
  private readonly options: RunEventWriterOptions;
  private readonly pending = new Set<Promise<unknown>>();
  private failure: unknown;
  private end: AgentEvent | undefined;

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
    for (const event of last) this.write(event);
    await this.flush();
  }

  private write(event: AgentEvent): void {
    const { client, key, maxLen, ttlSeconds } = this.options;
    const write = client
      .pipeline()
      .xadd(key, "MAXLEN", "~", maxLen, "*", "event", JSON.stringify(event))
      .expire(key, ttlSeconds)
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
