import { createParser, type EventSourceMessage } from "eventsource-parser";

/** One server-sent event. */
export type SseEvent = EventSourceMessage;

/**
 * Parses a text stream as server-sent events (`eventsource-parser`), yielding each event once complete.
 * Chunks may split anywhere, including inside a line or a `\r\n`. The final event is dispatched at EOF even
 * without a trailing blank line.
 */
export async function* readSseEvents(body: AsyncIterable<string>): AsyncGenerator<SseEvent> {
  const pending: SseEvent[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  let started = false;
  for await (const chunk of body) {
    // A byte order mark opening the stream is not part of the first line (the SSE spec ignores it). Node's
    // UTF-8 decoder keeps it, and eventsource-parser only recognises it as undecoded bytes.
    parser.feed(started || chunk.charCodeAt(0) !== 0xfeff ? chunk : chunk.slice(1));
    if (chunk !== "") started = true;
    // Index loop, then truncate: no per-event shift() cost.
    for (let i = 0; i < pending.length; i++) yield pending[i] as SseEvent;
    pending.length = 0;
  }
  // End of body: a final event without its terminating blank line is still an event. (eventsource-parser's
  // reset({ consume: true }) does not dispatch it, so terminate it ourselves.)
  parser.feed("\n\n");
  for (const event of pending) yield event;
}
