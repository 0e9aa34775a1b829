import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";

/** One server-sent event. */
export type SseEvent = EventSourceMessage;

/** Options of {@link readSseEvents}. */
export interface ReadSseEventsOptions {
  /**
   * The most characters an event (or a line) may hold while it is still being received; more fails with
   * {@link ResponseTooLargeError} (`limits.maxSseEventBytes`). Default: unbounded.
   */
  maxEventChars?: number | undefined;
  /** The URL called, for the error message. */
  url?: string | undefined;
}

/**
 * The length of the text after the last line break of `chunk` (all of it when there is none). Scans back from
 * the end: a chunk of a live stream almost always ends at or near a line break.
 */
function tailLength(chunk: string): number {
  let i = chunk.length - 1;
  while (i >= 0) {
    const code = chunk.charCodeAt(i);
    if (code === 10 || code === 13) break;
    i--;
  }
  return chunk.length - i - 1;
}

/**
 * Parses a text stream as server-sent events (`eventsource-parser`), yielding each event once complete.
 * Chunks may split anywhere, including inside a line or a `\r\n`. The final event is dispatched at EOF even
 * without a trailing blank line.
 *
 * With `maxEventChars`, the text received since the last complete event (or comment) is bounded: a line that
 * never ends or an event that never completes fails once it holds more (checked after each chunk, so the bound is
 * exact to within one chunk of the transport).
 */
export async function* readSseEvents(
  body: AsyncIterable<string>,
  options: ReadSseEventsOptions = {},
): AsyncGenerator<SseEvent> {
  for await (const batch of readSseEventBatches(body, options)) {
    for (let i = 0; i < batch.length; i++) yield batch[i] as SseEvent;
  }
}

/**
 * {@link readSseEvents}, one array per chunk of the body (the events that chunk completed; never empty): a
 * consumer that loops over each batch synchronously saves an async step per event, which a streamed turn pays
 * for every delta. The same parsing, limits and errors.
 */
export async function* readSseEventBatches(
  body: AsyncIterable<string>,
  { maxEventChars, url }: ReadSseEventsOptions = {},
): AsyncGenerator<readonly SseEvent[]> {
  let pending: SseEvent[] = [];
  let dispatched = false;
  const parser = createParser({
    onEvent: (event) => {
      pending.push(event);
      dispatched = true;
    },
    onComment: () => {
      dispatched = true;
    },
  });
  let started = false;
  /** Characters received since the last complete event or comment. */
  let open = 0;
  for await (const chunk of body) {
    // A byte order mark opening the stream is not part of the first line (the SSE spec ignores it). Node's
    // UTF-8 decoder keeps it, and eventsource-parser only recognises it as undecoded bytes.
    parser.feed(started || chunk.charCodeAt(0) !== 0xfeff ? chunk : chunk.slice(1));
    if (chunk !== "") started = true;
    if (maxEventChars !== undefined) {
      open = dispatched ? tailLength(chunk) : open + chunk.length;
      dispatched = false;
      if (open > maxEventChars) {
        throw new ResponseTooLargeError({
          limit: "limits.maxSseEventBytes",
          maximum: maxEventChars,
          received: open,
          what: "one server-sent event (or line)",
          url,
        });
      }
    }
    if (pending.length > 0) {
      const batch = pending;
      pending = [];
      yield batch;
    }
  }
  // End of body: a final event without its terminating blank line is still an event. (eventsource-parser's
  // reset({ consume: true }) does not dispatch it, so terminate it ourselves.)
  parser.feed("\n\n");
  if (pending.length > 0) yield pending;
}
