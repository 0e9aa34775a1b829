import type { RunCursor, RunEntry } from "./run-entry.js";
import { retryMarker, type SeenFilter } from "./seen-filter.js";

/** The next SSE message of a stream; `done` on the final one (`event: result` or `event: error`). */
export interface SSEChunk {
  text: string;
  done: boolean;
}

/** What an SSE response writes: its messages, one at a time. Internal to `agentloop/web`. */
export interface SSESource {
  /** The durable run's id (the `x-agentloop-run-id` header), when the run is durable. */
  readonly runId: string | undefined;
  /** The next message. Never rejects: a failure is the final `event: error` message. */
  next(): Promise<SSEChunk>;
  /** The client went away: aborts or detaches the run. Idempotent. */
  close(): void;
}

/** Options of {@link entrySource}. */
export interface EntrySourceOptions {
  entry: RunEntry;
  cursor: RunCursor;
  /** Abort the run when the client goes away (otherwise detach). */
  abort: boolean;
  runId: string | undefined;
  /** Skip what the client saw in another stream of the run. */
  filter?: SeenFilter | undefined;
}

/** The messages of a run entry for one reader. */
export function entrySource({ entry, cursor, abort, runId, filter }: EntrySourceOptions): SSESource {
  let closed = false;
  let pending: string | undefined;
  return {
    runId,
    async next() {
      if (pending !== undefined) {
        const text = pending;
        pending = undefined;
        return { text, done: false };
      }
      while (true) {
        const read = await entry.read(cursor);
        if ("final" in read) return { text: read.final, done: true };
        // Fell out of the ring: end without a result, so the client reconnects (and is answered from the log).
        if ("evicted" in read) return { text: "", done: true };
        const decision = filter?.decide(read.item) ?? "send";
        if (decision === "skip") continue;
        if (decision === "send") return { text: read.item.text, done: false };
        pending = read.item.text;
        return { text: retryMarker(read.item.turn), done: false };
      }
    },
    close() {
      if (closed) return;
      closed = true;
      entry.detach(cursor, abort);
    },
  };
}

/** A source of one final message (a stream that could not start). */
export function finalSource(text: string, runId?: string): SSESource {
  return { runId, next: () => Promise.resolve({ text, done: true }), close: () => undefined };
}
