import type { Redis } from "ioredis";
import { AbortError } from "../../errors/abort-error.js";
import type { AgentEvent } from "../../loop/agent-event.js";

/** How a run's job stands, for a reader that has waited a while without new events. */
export type RunJobStatus = { finished: false } | { finished: true; failedReason?: string };

/** Options of {@link readRunEvents}. */
export interface ReadRunEventsOptions {
  /** A client of its own (XREAD BLOCK holds the connection); closed when the iteration ends. */
  client: Redis;
  close: () => Promise<void>;
  /** The run's stream key. */
  key: string;
  /** How long one XREAD blocks before the job's status is checked. */
  blockMs: number;
  /** The job's status, asked after each empty wait (a job that stalled out leaves no `loop_end`). */
  status: () => Promise<RunJobStatus>;
  /** Called when the job failed without a `loop_end` in the stream. */
  failed: (reason: string) => Error;
  signal?: AbortSignal;
}

type StreamReply = Array<[key: string, entries: Array<[id: string, fields: string[]]>]>;

/**
 * Reads a run's events from its Redis Stream, from the beginning (so a late subscriber sees everything), until
 * `loop_end`. A resumed run appends the events of its replayed steps again; they are yielded as they come.
 * When the job finished without a `loop_end` (a job that failed without reaching its processor's end), the
 * iteration ends: normally for a completed job, with `failed(reason)` for a failed one.
 */
export async function* readRunEvents(options: ReadRunEventsOptions): AsyncGenerator<AgentEvent, void> {
  const { client, key, blockMs, signal } = options;
  const onAbort = () => client.disconnect();
  signal?.addEventListener("abort", onAbort, { once: true });
  let lastId = "0-0";
  const read = async (block: boolean): Promise<AgentEvent[]> => {
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
    const events: AgentEvent[] = [];
    for (const [, entries] of reply ?? []) {
      for (const [id, fields] of entries) {
        lastId = id;
        const index = fields.indexOf("event");
        const text = index >= 0 ? fields[index + 1] : undefined;
        if (text === undefined) continue;
        const event = JSON.parse(text) as AgentEvent;
        events.push(event);
        if (event.type === "loop_end") return events;
      }
    }
    return events;
  };
  try {
    while (true) {
      const events = await read(true);
      for (const event of events) {
        yield event;
        if (event.type === "loop_end") return;
      }
      if (events.length > 0) continue;
      const status = await options.status();
      if (!status.finished) continue;
      // The job finished: take what the stream still holds, then stop.
      for (const event of await read(false)) {
        yield event;
        if (event.type === "loop_end") return;
      }
      if (status.failedReason !== undefined) throw options.failed(status.failedReason);
      return;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await options.close();
  }
}
