import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { RunEventLog } from "./run-event-log.js";

/** What happens to the run when the client goes away: `abort` it, or `detach` (it runs on to its end). */
export type DisconnectBehavior = "abort" | "detach";

/** Options of `toSSEResponse` and `pipeToNodeResponse`. */
export interface SSEStreamOptions {
  /**
   * The durable run's id, when the stream is `agent.stream(input, { runId })`: the response says it (the
   * `x-agentloop-run-id` header, and `runId` in the result), the run's events are kept in the run event log for
   * a client that reconnects with `Last-Event-ID` (see `durableStream`), and a client that goes away detaches.
   * Not needed with `durableStream(...)`, which knows its run.
   */
  runId?: string | undefined;
  /** The session the run continues, reported in the result. */
  sessionId?: string | undefined;
  /** When the client goes away. Default: `detach` for a durable run (`runId`), `abort` otherwise. */
  onDisconnect?: DisconnectBehavior | undefined;
  /** A `: ping` comment is sent after this long without a message (ms); 0 turns heartbeats off. Default 15 000. */
  heartbeatMs?: number | undefined;
  /** The log that keeps durable runs' events for reconnects. Default: the one log of the process. */
  log?: RunEventLog | undefined;
  /** More response headers (e.g. CORS: `access-control-expose-headers: x-agentloop-run-id`). */
  headers?: Readonly<Record<string, string>> | undefined;
}

/** Throws `InvalidArgumentError` for a bad option. */
export function checkSSEStreamOptions(options: SSEStreamOptions): void {
  if (options === null || typeof options !== "object") {
    throw new InvalidArgumentError({ argument: "options", message: "expected an options object" });
  }
  const { heartbeatMs, onDisconnect, runId } = options;
  if (heartbeatMs !== undefined && !(typeof heartbeatMs === "number" && heartbeatMs >= 0)) {
    throw new InvalidArgumentError({ argument: "heartbeatMs", message: "expected a number of ms >= 0" });
  }
  if (onDisconnect !== undefined && onDisconnect !== "abort" && onDisconnect !== "detach") {
    throw new InvalidArgumentError({ argument: "onDisconnect", message: 'expected "abort" or "detach"' });
  }
  if (runId !== undefined && (typeof runId !== "string" || runId === "")) {
    throw new InvalidArgumentError({ argument: "runId", message: "expected a non-empty string" });
  }
}
