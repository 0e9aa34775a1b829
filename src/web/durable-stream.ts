import type { RunOptions } from "../agent-options.js";
import type { AgentStream } from "../agent-stream.js";
import { AbortError } from "../errors/abort-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { RunInput } from "../models/normalize-content.js";
import { parseEventId } from "./event-id.js";
import { RunEntry } from "./run-entry.js";
import { defaultRunEventLog, type RunEventLog } from "./run-event-log.js";
import { SeenFilter } from "./seen-filter.js";
import { formatErrorMessage } from "./sse-format.js";
import { entrySource, finalSource, type SSESource } from "./sse-source.js";

/** What `durableStream` needs of an agent: `stream` (an `Agent` of any output type). */
export interface StreamingAgent {
  stream(input: RunInput, options?: RunOptions): AgentStream<unknown>;
}

/** Options of {@link durableStream}. */
export interface DurableStreamOptions {
  /** The agent (with a `journal`: the run is durable). */
  agent: StreamingAgent;
  /** The durable run's id. */
  runId: string;
  /** The task, to start the run when it is new (a run in the journal goes on without it). */
  input?: RunInput | undefined;
  /** The session the run continues (checked against the journal for a known run). */
  sessionId?: string | undefined;
  /**
   * The id of the last message the client got: the request's `Last-Event-ID` header. Absent (or "0"): the
   * stream from its start. An id that is not one agentloop sends throws `InvalidArgumentError`.
   */
  lastEventId?: string | null | undefined;
  /** The run event log. Default: the one log of the process. */
  log?: RunEventLog | undefined;
}

/** Opens a {@link DurableStream}'s messages for one response (internal to `agentloop/web`). */
export const OPEN_SSE_SOURCE: unique symbol = Symbol("agentloop.web.openSSESource");

/**
 * The stream of a durable run from where a client is, for `toSSEResponse` / `pipeToNodeResponse`; made by
 * {@link durableStream}. Opaque.
 */
export interface DurableStream {
  /** The durable run's id. */
  readonly runId: string;
  /** Internal: the messages for one response; `abort`: the client going away aborts the run. */
  [OPEN_SSE_SOURCE](abort: boolean): SSESource;
}

/** True for a {@link DurableStream}. */
export function isDurableStream(value: unknown): value is DurableStream {
  return typeof value === "object" && value !== null && OPEN_SSE_SOURCE in value;
}

/**
 * A durable run's stream from where its client is: one call serves a new run, a reconnect, and a run that
 * ended. Pass it to `toSSEResponse` (or `pipeToNodeResponse`):
 *
 * ```ts
 * return toSSEResponse(
 *   durableStream({ agent, runId, input, lastEventId: request.headers.get("last-event-id") }),
 * );
 * ```
 *
 * - The run is in this process's run event log (running, detached from a client that went away, or ended
 *   less than `ttlMs` ago): the client gets exactly the messages after `lastEventId`, then the live rest.
 * - Otherwise (a new run, another process, or the log let the messages go): `agent.stream(input, { runId })`
 *   starts the run, continues it from its journal, or replays it when it has finished (nothing is called
 *   again), and what the client saw is skipped by the events' stable ids (`EventId`): every stable event once;
 *   a turn whose streamed fragments the client had partly seen is preceded by a `retry` event with source
 *   "stream" (discard them, as after any retry) and streamed again whole. Replayed events carry `replayed`.
 *   A run still running in another process answers with `event: error` (`DurableRunBusyError`).
 *
 * A client that goes away detaches: the run goes on here to its end. Throws `InvalidArgumentError` for a bad
 * `runId` or `lastEventId`.
 */
export function durableStream(options: DurableStreamOptions): DurableStream {
  const { runId } = options;
  if (typeof runId !== "string" || runId === "") {
    throw new InvalidArgumentError({ argument: "runId", message: "expected a non-empty string" });
  }
  const last = parseEventId(options.lastEventId);
  return {
    runId,
    [OPEN_SSE_SOURCE]: (abort) => {
      let closed = false;
      let inner: Promise<SSESource> | undefined;
      const open = async (): Promise<SSESource> => {
        const log = options.log ?? defaultRunEventLog();
        while (true) {
          const entry = log.get(runId);
          if (entry !== undefined) {
            const exact = entry.positionAfter(last);
            if (exact !== undefined) return entrySource({ entry, cursor: entry.attach(exact), abort, runId });
            if (entry.complete) {
              const filter = new SeenFilter(last);
              return entrySource({ entry, cursor: entry.attach(0), abort, runId, filter });
            }
            if (!entry.ended) {
              // The log let the messages go while the run goes on here: its journal answers once it has ended.
              await entry.finished;
              if (closed) return finalSource(formatErrorMessage(new AbortError()), runId);
              continue;
            }
          }
          return replaySource({ ...options, log, abort, filter: new SeenFilter(last) });
        }
      };
      return {
        runId,
        next: () => {
          inner ??= open().catch((error: unknown) => finalSource(formatErrorMessage(error), runId));
          return inner.then((source) => source.next());
        },
        close: () => {
          closed = true;
          void inner?.then((source) => source.close());
        },
      };
    },
  };
}

/** The run streamed from its journal (started, continued or replayed), kept in the log when it can be. */
function replaySource(
  options: DurableStreamOptions & { log: RunEventLog; abort: boolean; filter: SeenFilter },
): SSESource {
  const { agent, runId, sessionId, log, abort, filter } = options;
  let stream: AgentStream<unknown>;
  try {
    stream = agent.stream(options.input ?? "", { runId, ...(sessionId !== undefined && { sessionId }) });
  } catch (error) {
    return finalSource(formatErrorMessage(error), runId);
  }
  const entry =
    log.record({ runId, stream, sessionId }) ??
    new RunEntry({ stream, runId, sessionId, maxEvents: 0, maxChars: 0 });
  return entrySource({ entry, cursor: entry.attach(0), abort, runId, filter });
}
