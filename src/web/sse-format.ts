import { RUN_ID_HEADER } from "../client/run-id-header.js";
import type { StreamedRunError, StreamedRunResult } from "../client/streamed-run-result.js";
import type { AgentEvent } from "../loop/agent-event.js";

/**
 * The agentloop SSE wire format (docs/web.md): each agent event is a message without an `event:` line (so
 * `EventSource.onmessage` gets it), `id: <event id>\ndata: <event JSON>\n\n`; the run's end is one
 * `event: result` message (a {@link StreamedRunResult}); a failure that is not a run outcome is one
 * `event: error` message (a {@link StreamedRunError}); `: ping` comments keep an idle connection open.
 */

/** How often an idle stream sends a `: ping` comment, by default (ms). */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** The heartbeat comment. */
export const SSE_PING = ": ping\n\n";

/** An event's message. JSON has no raw line breaks, so the data is one `data:` line. */
export function formatEventMessage(id: string | undefined, event: AgentEvent): string {
  return `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;
}

/** The final `event: result` message. */
export function formatResultMessage(result: StreamedRunResult): string {
  return `event: result\ndata: ${JSON.stringify(result)}\n\n`;
}

/** The final `event: error` message for a failure that is not a run outcome. */
export function formatErrorMessage(error: unknown): string {
  return `event: error\ndata: ${JSON.stringify(describeFailure(error))}\n\n`;
}

/** `{ name, message }` of anything thrown; never throws (a hostile value is described, not read). */
export function describeFailure(error: unknown): StreamedRunError {
  try {
    if (error instanceof Error) return { name: String(error.name), message: String(error.message) };
    return { name: "Error", message: typeof error === "string" ? error : "a non-error value was thrown" };
  } catch {
    return { name: "Error", message: "an unreadable error was thrown" };
  }
}

/** The response headers of an SSE stream (with the run id of a durable run). */
export function sseHeaders(runId: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
  };
  if (runId !== undefined) headers[RUN_ID_HEADER] = runId;
  return headers;
}
