import type { AgentStream } from "../agent-stream.js";
import { type DurableStream, isDurableStream, OPEN_SSE_SOURCE } from "./durable-stream.js";
import { RunEntry } from "./run-entry.js";
import { defaultRunEventLog } from "./run-event-log.js";
import { entrySource, type SSESource } from "./sse-source.js";
import { checkSSEStreamOptions, type SSEStreamOptions } from "./sse-stream-options.js";

/**
 * The messages of a response: a durable stream's, or an agent stream's (kept in the run event log when it is
 * a durable run's, `runId`). Checks the options (throws `InvalidArgumentError`).
 */
export function openSSESource(
  stream: AgentStream<unknown> | DurableStream,
  options: SSEStreamOptions,
): SSESource {
  checkSSEStreamOptions(options);
  if (isDurableStream(stream)) return stream[OPEN_SSE_SOURCE](options.onDisconnect === "abort");
  const { runId, sessionId } = options;
  const abort = (options.onDisconnect ?? (runId === undefined ? "abort" : "detach")) === "abort";
  const log = options.log ?? defaultRunEventLog();
  const entry =
    (runId === undefined ? undefined : log.record({ runId, stream, sessionId })) ??
    new RunEntry({ stream, runId, sessionId, maxEvents: 0, maxChars: 0 });
  return entrySource({ entry, cursor: entry.attach(0), abort, runId });
}
