import type { AgentStream } from "../agent-stream.js";
import type { AgentEvent } from "../loop/agent-event.js";
import { type EventId, EventIdCounter, type EventKind, formatEventId, sameEventId } from "./event-id.js";
import { formatErrorMessage, formatEventMessage, formatResultMessage } from "./sse-format.js";
import { toStreamedRunResult } from "./to-streamed-run-result.js";

/** One message of a run's stream, as an entry keeps it. */
export interface RunItem {
  id: EventId;
  kind: EventKind;
  turn: number;
  /** The SSE message. */
  text: string;
}

/** What a cursor reads next: a message, the final message, or nothing (its position was evicted). */
export type RunRead = { item: RunItem } | { final: string } | { evicted: true };

/** Options of {@link RunEntry}. */
export interface RunEntryOptions {
  stream: AgentStream;
  runId?: string | undefined;
  sessionId?: string | undefined;
  /** The most messages kept for readers (the newest is always kept until read). */
  maxEvents: number;
  /** The most characters of messages kept (same rule). */
  maxChars: number;
  /** Told each change of the characters kept (the log's total). */
  onSize?: ((delta: number) => void) | undefined;
}

/** A reader of an entry: its position (the absolute index of the next message it reads). */
export interface RunCursor {
  position: number;
  waiting: boolean;
}

const noop = (): void => undefined;

/**
 * One run's stream, shared by its readers (SSE responses), with the messages it sent so far in a bounded ring.
 * The stream is read one event at a time, only when a reader has read all there is and wants more: a reader
 * that stops reading pauses the run (backpressure), nothing piles up. With several readers the fastest sets
 * the pace and the others read from the ring; one that falls out of it (beyond `maxEvents` / `maxChars`) is
 * ended without a result, so that its client reconnects and is answered from the journal. With no reader
 * attached (every client went away from a durable run: detached), the run is drained to its end into the ring.
 */
export class RunEntry {
  readonly runId: string | undefined;
  /** Characters of the messages kept. */
  chars = 0;
  /** When the run ended (ms since the epoch); undefined while it runs. */
  endedAt: number | undefined;
  /** Resolves when the run has ended. */
  readonly finished: Promise<void>;
  private readonly options: Omit<RunEntryOptions, "stream">;
  /** The run, until it has ended (then let go: its result holds every event, more than the ring keeps). */
  private run: { stream: AgentStream; iterator: AsyncIterator<AgentEvent> } | undefined;
  private readonly ids = new EventIdCounter();
  private readonly ring: Array<RunItem | undefined> = [];
  private head = 0;
  /** The absolute index of the oldest message kept, and of the next message. */
  private firstIndex = 0;
  private nextIndex = 0;
  private final: string | undefined;
  private readonly cursors = new Set<RunCursor>();
  private waiters: Array<() => void> = [];
  private pulling = false;
  private detached = false;
  private resolveFinished: () => void = noop;

  constructor(options: RunEntryOptions) {
    const { stream, ...rest } = options;
    this.options = rest;
    this.runId = options.runId;
    this.run = { stream, iterator: stream[Symbol.asyncIterator]() };
    this.finished = new Promise((resolve) => {
      this.resolveFinished = resolve;
    });
  }

  /** True once the run has ended (its final message is known). */
  get ended(): boolean {
    return this.final !== undefined;
  }

  /** True while the ring holds the stream from its first message. */
  get complete(): boolean {
    return this.firstIndex === 0;
  }

  /** The position just after the message `id`, when the ring holds it (exact resumption); else undefined. */
  positionAfter(id: EventId): number | undefined {
    if (id.stable === 0 && id.volatile === 0) return this.complete ? 0 : undefined;
    for (let index = this.nextIndex - 1; index >= this.firstIndex; index--) {
      const item = this.ring[this.head + index - this.firstIndex] as RunItem;
      if (sameEventId(item.id, id)) return index + 1;
      if (item.id.stable < id.stable) return undefined;
    }
    return undefined;
  }

  /** Attaches a reader at `position`. */
  attach(position: number): RunCursor {
    const cursor: RunCursor = { position, waiting: false };
    this.cursors.add(cursor);
    this.detached = false;
    return cursor;
  }

  /** The next message for `cursor`: waits (and pulls the run on) when it has read everything. */
  async read(cursor: RunCursor): Promise<RunRead> {
    while (true) {
      if (cursor.position < this.firstIndex) return { evicted: true };
      if (cursor.position < this.nextIndex) {
        const item = this.ring[this.head + cursor.position - this.firstIndex] as RunItem;
        cursor.position++;
        this.pump(); // others may have waited for this reader
        return { item };
      }
      if (this.final !== undefined) return { final: this.final };
      cursor.waiting = true;
      const changed = new Promise<void>((resolve) => this.waiters.push(resolve));
      this.pump();
      await changed;
      cursor.waiting = false;
    }
  }

  /**
   * Detaches a reader (its client went away). `abort`: the run is aborted (every reader then gets its last
   * events); otherwise, when it was the last reader, the run is drained to its end.
   */
  detach(cursor: RunCursor, abort: boolean): void {
    if (!this.cursors.delete(cursor)) return;
    if (abort) this.abort();
    if (this.cursors.size === 0) this.detached = true;
    this.pump();
  }

  /** Aborts the run (now, not at its next event), and drains its last events. */
  abort(): void {
    if (this.ended) return;
    this.run?.stream.abort(new Error("the client went away"));
    this.detached = true;
    this.pump();
  }

  /** Drops the oldest messages until `chars` characters were freed (all but the newest at most). */
  shed(chars: number): void {
    const before = this.chars;
    while (before - this.chars < chars && this.evictOne()) {
      // evicting
    }
  }

  /** Pulls the next event when the readers want one (or to drain a detached run). */
  private pump(): void {
    if (this.pulling || this.ended || !this.wantsMore()) return;
    this.pulling = true;
    void this.pullOne().then(() => {
      this.pulling = false;
      this.pump();
    });
  }

  private wantsMore(): boolean {
    if (this.cursors.size === 0) return this.detached;
    for (const cursor of this.cursors) if (cursor.waiting) return true; // the fastest reader sets the pace
    return false;
  }

  private async pullOne(): Promise<void> {
    const { runId, sessionId } = this.options;
    const { stream, iterator } = this.run as NonNullable<RunEntry["run"]>;
    try {
      const next = await iterator.next();
      if (next.done !== true) this.append(next.value);
      else
        this.end(formatResultMessage(toStreamedRunResult({ result: await stream.result, runId, sessionId })));
    } catch (error) {
      stream.result.catch(noop); // rejected with the same error: reported here
      this.end(formatErrorMessage(error));
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private append(event: AgentEvent): void {
    const { id, kind } = this.ids.next(event);
    const text = formatEventMessage(formatEventId(id), event);
    this.ring.push({ id, kind, turn: event.turn, text });
    this.nextIndex++;
    this.resize(text.length);
    while (
      (this.nextIndex - this.firstIndex > this.options.maxEvents || this.chars > this.options.maxChars) &&
      this.evictOne()
    ) {
      // evicting
    }
  }

  /** Evicts the oldest message, but never the newest (a reader waits for it). False when nothing could go. */
  private evictOne(): boolean {
    if (this.nextIndex - this.firstIndex <= 1) return false;
    const item = this.ring[this.head] as RunItem;
    this.ring[this.head] = undefined;
    this.head++;
    this.firstIndex++;
    this.resize(-item.text.length);
    if (this.head > 1024 && this.head * 2 > this.ring.length) {
      this.ring.splice(0, this.head);
      this.head = 0;
    }
    return true;
  }

  private resize(delta: number): void {
    this.chars += delta;
    this.options.onSize?.(delta);
  }

  private end(final: string): void {
    this.final = final;
    this.run = undefined;
    this.endedAt = Date.now();
    this.resolveFinished();
  }
}
