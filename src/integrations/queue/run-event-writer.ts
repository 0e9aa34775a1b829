import type { ChainableCommander } from "ioredis";
import type { AgentEvent } from "../../loop/agent-event.js";
import { attachLeadingWrites, type LeadingWrites, type TakenWrites } from "../redis/leading-writes.js";
import type { RedisClient } from "../redis/redis-client.js";
import type { RunJournal } from "./durable-api.js";

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
  /**
   * The run's journal and id. When the journal can carry the run's events in its appends (a `RedisJournal`
   * appending with `client`, its records in the stream's slot), events wait for the end of the current
   * event-loop turn and go out together, or sooner in the request of an append of the run (one round trip).
   */
  journal?: { journal: RunJournal; runId: string };
}

/**
 * Appends a run's events to its Redis Stream, in order (one connection, pipelined), each entry a field
 * `event` holding the event's JSON. `append` never blocks the run. The `loop_end` event is held back until
 * {@link RunEventWriter.finish} says whether this attempt ends the run (an attempt that is retried must not end
 * the stream readers follow). `finish` waits for every append and rejects with the first failure, so a job
 * never completes with events missing from its stream.
 *
 * With a journal that carries them (see {@link RunEventWriterOptions.journal}) the events of one event-loop
 * turn are sent in one request, at the end of the turn or in front of the record of a journal append of the run
 * made in that turn, whichever comes first: an event still reaches Redis before any record appended after it,
 * as when each event was sent at once.
 *
 * The stream's TTL is set with the first event, then refreshed at most every `ttlSeconds / 2` (an EXPIRE in the
 * same request as that event's XADD) and always with the attempt's last write, so an event costs one command
 * (XADD), not two.
 */
export class RunEventWriter implements LeadingWrites {
  private readonly options: RunEventWriterOptions;
  private readonly pending = new Set<Promise<unknown>>();
  private failure: unknown;
  private end: AgentEvent | undefined;
  /** When the stream's TTL is due for a refresh, in ms since the epoch (0: with the next write). */
  private refreshAt = 0;
  /** Whether an event was written since the TTL was last set. */
  private unrefreshed = false;
  /** Events (JSON) not sent yet. */
  private waiting: string[] = [];
  /** The flush of {@link waiting} at the end of this event-loop turn. */
  private flushing: NodeJS.Immediate | undefined;
  /** Detaches this writer from the journal's appends; unset when the journal does not carry its events. */
  private detach: (() => void) | undefined;

  constructor(options: RunEventWriterOptions) {
    this.options = options;
    const { client, key, journal } = options;
    this.detach =
      journal === undefined
        ? undefined
        : attachLeadingWrites({ journal: journal.journal, client, key, runId: journal.runId, writes: this });
  }

  /** Whether this attempt's `loop_end` is held back, waiting for {@link RunEventWriter.finish}. */
  get holdsEnd(): boolean {
    return this.end !== undefined;
  }

  /** Queues `event` for the stream (`loop_end` waits for {@link RunEventWriter.finish}). */
  append(event: AgentEvent): void {
    if (event.type === "loop_end") {
      this.end = event;
      return;
    }
    this.waiting.push(JSON.stringify(event));
    if (this.detach === undefined) this.sendWaiting();
    else this.flushing ??= setImmediate(() => this.sendWaiting());
  }

  /**
   * Ends this attempt's events, then waits for every append. `end: true` appends the held `loop_end`, ending
   * the stream; `end: false` drops it (the run goes on in a later attempt); a list of events appends those
   * instead of it (a job that failed for good ends its stream with them). The writer is detached from the
   * journal: later events are sent at once.
   */
  async finish({ end }: { end: boolean | readonly AgentEvent[] }): Promise<void> {
    const last = end === true ? (this.end === undefined ? [] : [this.end]) : end === false ? [] : end;
    this.end = undefined;
    this.detach?.();
    this.detach = undefined;
    // The attempt's last write sets the TTL: the stream lives `ttlSeconds` after its end.
    this.refreshAt = 0;
    for (const event of last) this.waiting.push(JSON.stringify(event));
    if (this.waiting.length > 0) this.sendWaiting();
    else if (this.unrefreshed)
      this.send(this.options.client.pipeline().expire(this.options.key, this.options.ttlSeconds));
    this.unrefreshed = false;
    await this.flush();
  }

  /** Moves the waiting events into `into` (a journal append's request); see {@link LeadingWrites}. */
  take(into: ChainableCommander): TakenWrites | undefined {
    if (this.waiting.length === 0) return undefined;
    const count = this.queueWaiting(into);
    let settle: TakenWrites["settle"] = () => undefined;
    const written = new Promise<void>((resolve, reject) => {
      settle = (outcome) => {
        const error =
          "error" in outcome ? outcome.error : outcome.replies.find(([failed]) => failed !== null)?.[0];
        if (error) reject(error);
        else resolve();
      };
    });
    this.track(written);
    return { count, settle };
  }

  /** Sends the waiting events in one pipeline. */
  private sendWaiting(): void {
    if (this.waiting.length === 0) return;
    const pipeline = this.options.client.pipeline();
    this.queueWaiting(pipeline);
    this.send(pipeline);
  }

  /** Queues an XADD per waiting event, and the TTL's refresh when due; returns how many commands. */
  private queueWaiting(into: ChainableCommander): number {
    const { key, maxLen, ttlSeconds } = this.options;
    clearImmediate(this.flushing);
    this.flushing = undefined;
    for (const json of this.waiting) into.xadd(key, "MAXLEN", "~", maxLen, "*", "event", json);
    let count = this.waiting.length;
    this.waiting = [];
    const now = Date.now();
    if (now >= this.refreshAt) {
      into.expire(key, ttlSeconds);
      count += 1;
      this.refreshAt = now + ttlSeconds * 500;
      this.unrefreshed = false;
    } else this.unrefreshed = true;
    return count;
  }

  /** Sends `pipeline` (in order after every earlier one), recording its first failure. */
  private send(pipeline: ChainableCommander): void {
    this.track(
      pipeline.exec().then((replies) => {
        const error = replies?.find(([failed]) => failed !== null)?.[0];
        if (error) throw error;
      }),
    );
  }

  /** Tracks a write until it settles, recording its first failure. */
  private track(write: Promise<void>): void {
    const tracked = write
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    if (this.failure !== undefined) throw this.failure;
  }
}
