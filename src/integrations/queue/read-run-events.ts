import { AbortError } from "../../errors/abort-error.js";
import type { AgentEvent } from "../../loop/agent-event.js";
import type { RedisClient } from "../redis/redis-client.js";

/** How a run's job stands, for a reader that has waited a while without new events. */
export type RunJobStatus = { finished: false } | { finished: true; failedReason?: string };

/** Options of {@link readRunEvents}. */
export interface ReadRunEventsOptions {
  /** A client of its own (XREAD BLOCK holds the connection); closed when the iteration ends. */
  client: RedisClient;
  close: () => Promise<void>;
  /** The run's stream key. */
  key: string;
  /**
   * Read the entries after this stream id (an SSE client's `Last-Event-ID`): every later event once. Default
   * `"0-0"`, the beginning.
   */
  after?: string | undefined;
  /** How long one XREAD blocks before the job's status is checked. */
  blockMs: number;
  /** The job's status, asked after each empty wait (a job that stalled out leaves no `loop_end`). */
  status: () => Promise<RunJobStatus>;
  /** Called when the job failed without a `loop_end` in the stream. */
  failed: (reason: string) => Error;
  signal?: AbortSignal;
}

/** One event of a run's stream with its stream id (a cursor: pass it as `after` to read on from it). */
export interface RunEventEntry {
  id: string;
  event: AgentEvent;
}

type StreamReply = Array<[key: string, entries: Array<[id: string, fields: string[]]>]>;

/**
 * Reads a run's events from its Redis Stream, from the beginning (so a late subscriber sees everything) or
 * after the entry `after`, until the next `loop_end` (a run paused for approval ends one with stop reason
 * `awaiting_approval`: read on after it once the run is resumed). The stream holds each event once (replayed
 * events are not written again), so a reader that resumes after the last id it saw gets every later event
 * exactly once. When the job finished without a `loop_end` (a job that failed without reaching its processor's end), the
 * iteration ends: normally for a completed job, with `failed(reason)` for a failed one.
 */
export async function* readRunEvents(options: ReadRunEventsOptions): AsyncGenerator<RunEventEntry, void> {
  const { client, key, blockMs, signal } = options;
  const onAbort = () => client.disconnect();
  signal?.addEventListener("abort", onAbort, { once: true });
  let lastId = options.after ?? "0-0";
  const read = async (block: boolean): Promise<RunEventEntry[]> => {
    if (signal?.aborted) throw new AbortError({ cause: signal.reason });
    let reply: StreamReply | null;
    try {
      reply = (await (block
        ? client.xread("COUNT", 1000, "BLOCK", blockMs, "STREAMS", key, lastId)
        : client.xread("COUNT", 1000, "STREAMS", key, lastId))) as StreamReply | null;
    } catch (error) {
      if (signal?.aborted) throw new AbortError({ cause: signal.reason });
      throw error;
    }
    const events: RunEventEntry[] = [];
    for (const [, entries] of reply ?? []) {
      for (const [id, fields] of entries) {
        lastId = id;
        const index = fields.indexOf("event");
        const text = index >= 0 ? fields[index + 1] : undefined;
        if (text === undefined) continue;
        const event = JSON.parse(text) as AgentEvent;
        events.push({ id, event });
        if (event.type === "loop_end") return events;
      }
    }
    return events;
  };
  try {
    while (true) {
      const events = await read(true);
      for (const entry of events) {
        yield entry;
        if (entry.event.type === "loop_end") return;
      }
      if (events.length > 0) continue;
      const status = await options.status();
      if (!status.finished) continue;
      // The job finished: take what the stream still holds, then stop.
      for (const entry of await read(false)) {
        yield entry;
        if (entry.event.type === "loop_end") return;
      }
      if (status.failedReason !== undefined) throw options.failed(status.failedReason);
      return;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await options.close();
  }
}
