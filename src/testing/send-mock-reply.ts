import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { sleep } from "../http/retry-policy.js";
import { buildChatCompletionEvents } from "./build-chat-completion-events.js";
import { buildChatCompletion, buildErrorEnvelope, type MockChatAnswer } from "./mock-chat-answer.js";
import type { MockReply, MockStatusFault } from "./mock-reply.js";
import { splitText } from "./split-text.js";

/** Pieces a non-streaming body is cut into when a fault needs "events". */
const BODY_PIECES = 8;

/**
 * Writes one answer (or the fault it carries) to `res`: a JSON body, or SSE events with one `res.write` per
 * event. Waits are cancelled through `signal` (rejecting with `AbortError`); a `hang` returns without ending
 * the response.
 */
export async function sendMockReply({
  res,
  reply,
  answer,
  stream,
  includeUsage,
  wordsPerEvent,
  signal,
}: {
  res: ServerResponse;
  reply: MockReply;
  answer: MockChatAnswer;
  stream: boolean;
  includeUsage: boolean;
  wordsPerEvent: number;
  signal: AbortSignal;
}): Promise<void> {
  const fault = reply.fault;
  if (fault !== undefined && "status" in fault) {
    sendStatusFault({ res, fault, requestId: answer.id });
    return;
  }
  if (fault?.type === "drop_before_headers") {
    res.destroy();
    return;
  }
  const { events, contentEvents, body } = stream
    ? { ...buildChatCompletionEvents({ answer, includeUsage, wordsPerEvent }), body: undefined }
    : splitBody(`${JSON.stringify(buildChatCompletion({ answer }), null, 2)}\n`);
  const headers: OutgoingHttpHeaders = stream
    ? { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" }
    : { "content-type": "application/json" };
  headers["x-request-id"] = `req_${answer.id}`;
  const chunked = fault?.type === "end_without_done" || fault?.type === "malformed_chunk";
  if (body !== undefined && !chunked) headers["content-length"] = Buffer.byteLength(body);

  if (fault === undefined && body !== undefined) {
    res.writeHead(200, headers).end(body);
    return;
  }
  if (fault?.type === "hang" && fault.afterEvents === undefined) return;
  res.writeHead(200, headers);
  res.flushHeaders();
  const allButLast = (n: number) => Math.min(Math.max(0, n), events.length - 1);
  switch (fault?.type) {
    case undefined:
      await writeEvents({ res, events, intervalMs: 0, signal });
      endUnlessDestroyed(res);
      return;
    case "slow_drip":
      await writeEvents({ res, events, intervalMs: fault.intervalMs, signal });
      endUnlessDestroyed(res);
      return;
    case "drop_mid_stream":
      await writeEvents({
        res,
        events: events.slice(0, allButLast(fault.afterEvents)),
        intervalMs: 0,
        signal,
      });
      // Let the events reach the socket first: destroying with writes still queued would drop them too.
      if (!res.destroyed) await new Promise<void>((resolve) => res.write("", () => resolve()));
      res.destroy();
      return;
    case "hang":
      await writeEvents({
        res,
        events: events.slice(0, allButLast(fault.afterEvents ?? 0)),
        intervalMs: 0,
        signal,
      });
      return;
    case "end_without_done": {
      const count = Math.min(Math.max(0, fault.afterEvents ?? contentEvents), contentEvents);
      await writeEvents({ res, events: events.slice(0, count), intervalMs: 0, signal });
      endUnlessDestroyed(res);
      return;
    }
    case "malformed_chunk": {
      const count = Math.min(Math.max(0, fault.afterEvents), events.length);
      const malformed = stream ? "data: {not json\n\n" : "{not json";
      const sequence = [...events.slice(0, count), malformed, ...events.slice(count)];
      await writeEvents({ res, events: sequence, intervalMs: 0, signal });
      endUnlessDestroyed(res);
      return;
    }
  }
}

function endUnlessDestroyed(res: ServerResponse): void {
  if (!res.destroyed) res.end();
}

/** Answers with an error status, the retry headers asked for, and an OpenAI error envelope (or `fault.body`). */
function sendStatusFault({
  res,
  fault,
  requestId,
}: {
  res: ServerResponse;
  fault: MockStatusFault;
  requestId: string;
}): void {
  const body =
    typeof fault.body === "string"
      ? fault.body
      : JSON.stringify(fault.body ?? buildErrorEnvelope({ status: fault.status }), null, 2);
  const isJson = typeof fault.body !== "string";
  const headers: OutgoingHttpHeaders = {
    "content-type": isJson
      ? "application/json"
      : body.trimStart().startsWith("<")
        ? "text/html"
        : "text/plain",
    "content-length": Buffer.byteLength(body),
    "x-request-id": `req_${requestId}`,
  };
  if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
  if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
  res.writeHead(fault.status, headers).end(body);
}

/** A non-streaming body as "events": the body cut into {@link BODY_PIECES} pieces; half count as content. */
function splitBody(body: string): { events: string[]; contentEvents: number; body: string } {
  const events = splitText({ text: body, chunkSize: Math.max(1, Math.ceil(body.length / BODY_PIECES)) });
  return { events, contentEvents: Math.floor(events.length / 2), body };
}

/** Writes events one `res.write` each, `intervalMs` apart; stops when the response was destroyed. */
async function writeEvents({
  res,
  events,
  intervalMs,
  signal,
}: {
  res: ServerResponse;
  events: readonly string[];
  intervalMs: number;
  signal: AbortSignal;
}): Promise<void> {
  for (let i = 0; i < events.length; i++) {
    if (i > 0 && intervalMs > 0) await sleep(intervalMs, signal);
    if (res.destroyed) return;
    res.write(events[i] as string);
  }
}
