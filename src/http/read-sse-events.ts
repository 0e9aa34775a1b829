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

/** The length of the text after the last line break of `chunk` (all of it when there is none). */
function tailLength(chunk: string): number {
  const lastBreak = Math.max(chunk.lastIndexOf("\n"), chunk.lastIndexOf("\r"));
  return chunk.length - lastBreak - 1;
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
  { maxEventChars, url }: ReadSseEventsOptions = {},
): AsyncGenerator<SseEvent> {
  const pending: SseEvent[] = [];
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
    // Index loop, then truncate: no per-event shift() cost.
    for (let i = 0; i < pending.length; i++) yield pending[i] as SseEvent;
    pending.length = 0;
  }
  // End of body: a final event without its terminating blank line is still an event. (eventsource-parser's
  // reset({ consume: true }) does not dispatch it, so terminate it ourselves.)
  parser.feed("\n\n");
  for (const event of pending) yield event;
}
