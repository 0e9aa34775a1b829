import { AbortError } from "../errors/abort-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";
import { RunStreamError } from "../errors/run-stream-error.js";
import { readSseEvents } from "../http/read-sse-events.js";
import { sleep } from "../http/retry-policy.js";
import type { AgentEvent } from "../loop/agent-event.js";
import type { RunInput } from "../models/normalize-content.js";
import { followSignal } from "../util/follow-signal.js";
import { openRunConnection } from "./open-run-connection.js";
import { parseAgentEvent, parseRunError, parseRunResult } from "./parse-run-messages.js";
import { readBodyText } from "./read-body-text.js";
import { RUN_ID_HEADER } from "./run-id-header.js";
import type { StreamedRunResult } from "./streamed-run-result.js";

/** Options of {@link streamRun}. */
export interface StreamRunOptions {
  /** More fields of the JSON body (`sessionId`, `runId`, ...): `{ input, ...body }` is sent. */
  body?: Record<string, unknown>;
  /** More request headers (e.g. authorization). */
  headers?: Record<string, string>;
  /** Aborts the run's request (the server then aborts the run, or detaches a durable one). */
  signal?: AbortSignal;
  /** The fetch to use. Default: the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /**
   * Reconnects to a durable run after the connection broke, at most this many times in a row without a new
   * event (and at most 100 times in all). Default 5.
   */
  maxReconnects?: number;
  /** The wait before the first reconnect (ms), doubled at each (at most 10 s). Default 500. */
  reconnectDelayMs?: number;
  /** The most ms to wait for the response headers. Default 30 000. */
  timeoutMs?: number;
  /** The most ms without a byte (the server pings every 15 s while idle) before the connection counts as broken. Default 45 000. */
  idleTimeoutMs?: number;
  /** The most characters of one SSE message (or line); more fails with `too_large`. Default 4 000 000. */
  maxEventChars?: number;
}

/** A run streamed from an agentloop endpoint: its events (iterate once), then its result. */
export interface RunEventStream<TOutput = unknown> extends AsyncIterable<AgentEvent> {
  /**
   * The run's summary (the `event: result` message). Rejects with {@link RunStreamError} when the stream failed
   * (or `AbortError` when aborted, or when the iteration was left before the end). Reading it without
   * iterating reads the stream to its end.
   */
  readonly result: Promise<StreamedRunResult<TOutput>>;
  /** The durable run's id, once the server said it (header `x-agentloop-run-id`) or `body.runId` gave it. */
  readonly runId: string | undefined;
  /** The id of the last event received (what a reconnect sends as `Last-Event-ID`). */
  readonly lastEventId: string | undefined;
}

const MAX_RECONNECT_DELAY_MS = 10_000;
/** The most reconnects of one run, whatever progress each made (a server that drops every connection). */
const MAX_TOTAL_RECONNECTS = 100;
const noop = (): void => undefined;

/**
 * Runs an agent behind an agentloop endpoint (`createAgentHandler`, `toSSEResponse`, `pipeToNodeResponse` of
 * `agentloop/web`) and streams its events: POSTs `{ input, ...options.body }` as JSON and reads the server-sent
 * events as they come. Browser-safe (fetch, streams, `TextDecoder`); works in Node 20+, Deno, Bun too.
 *
 * ```ts
 * const run = streamRun("/api/agent", "What's the weather in Paris?");
 * for await (const event of run) if (event.type === "text_delta") output.append(event.data.delta);
 * const { text, costUsd } = await run.result;
 * ```
 *
 * When the connection breaks (network, no data for `idleTimeoutMs`, a 502/503/504) and the run is durable (the
 * server named its run id, or `body.runId` did), it reconnects with `Last-Event-ID` (at most `maxReconnects`
 * times in a row, with a growing wait) and the server sends what was missed: each event once. A run that is
 * not durable cannot be resumed: the error is thrown. Messages are bounded (`maxEventChars`): a server that
 * sends a huge line fails with `too_large` instead of filling memory. Aborting `signal` (or leaving the
 * iteration) closes the request. Throws `InvalidArgumentError` for bad options.
 */
export function streamRun<TOutput = unknown>(
  url: string | URL,
  input: RunInput,
  options: StreamRunOptions = {},
): RunEventStream<TOutput> {
  const settings = resolveOptions(options);
  const target = String(url);
  const state = {
    runId: typeof options.body?.runId === "string" ? options.body.runId : undefined,
    lastEventId: undefined as string | undefined,
  };
  let settle: { resolve(value: StreamedRunResult<TOutput>): void; reject(error: unknown): void } | undefined;
  const result = new Promise<StreamedRunResult<TOutput>>((resolve, reject) => {
    settle = { resolve, reject };
  });
  result.catch(noop); // rejections reach the iteration; `result` is reported only to who reads it
  let settled = false;
  const finish = (outcome: { value: StreamedRunResult<TOutput> } | { error: unknown }) => {
    if (settled) return;
    settled = true;
    if ("value" in outcome) settle?.resolve(outcome.value);
    else settle?.reject(outcome.error);
  };

  async function* events(): AsyncGenerator<AgentEvent> {
    for (let attempt = 0, reconnects = 0; ; attempt++, reconnects++) {
      const controller = new AbortController();
      const unfollow = followSignal(options.signal, controller);
      try {
        const response = await openRunConnection({
          url: target,
          fetch: settings.fetch,
          body: { input, ...options.body, ...(state.runId !== undefined && { runId: state.runId }) },
          headers: options.headers ?? {},
          lastEventId: state.lastEventId,
          timeoutMs: settings.timeoutMs,
          controller,
        });
        state.runId = response.headers.get(RUN_ID_HEADER) ?? state.runId;
        const body = readBodyText(response.body as ReadableStream<Uint8Array>, {
          idleTimeoutMs: settings.idleTimeoutMs,
          url: target,
        });
        for await (const message of readSseEvents(body, {
          maxEventChars: settings.maxEventChars,
          url: target,
        })) {
          if (message.event === undefined || message.event === "message") {
            const event = parseAgentEvent(message.data, target);
            if (message.id !== undefined) state.lastEventId = message.id;
            attempt = 0;
            yield event;
          } else if (message.event === "result") {
            finish({ value: parseRunResult(message.data, target) as StreamedRunResult<TOutput> });
            return;
          } else if (message.event === "error") {
            throw parseRunError(message.data, target);
          }
        }
        const message = `${target} closed the stream before the run's result`;
        throw new RunStreamError({ kind: "network", message, url: target });
      } catch (error) {
        const failure = classify(error, options.signal, target);
        const reconnect = RunStreamError.isInstance(failure) && failure.reconnectable;
        const exhausted = attempt >= settings.maxReconnects || reconnects >= MAX_TOTAL_RECONNECTS;
        if (!reconnect || state.runId === undefined || exhausted) throw failure;
        const delayMs = Math.min(settings.reconnectDelayMs * 2 ** attempt, MAX_RECONNECT_DELAY_MS);
        await sleep(delayMs, options.signal);
      } finally {
        unfollow();
        controller.abort(); // closes the request, if it is still open
      }
    }
  }

  let started = false;
  async function* iterate(): AsyncGenerator<AgentEvent> {
    if (started)
      throw new InvalidArgumentError({ argument: "stream", message: "a run stream can be iterated once" });
    started = true;
    try {
      yield* events();
    } catch (error) {
      finish({ error });
      throw error;
    } finally {
      finish({ error: new AbortError({ message: "the run's stream was left before its result" }) });
    }
  }

  return {
    [Symbol.asyncIterator]: iterate,
    get result() {
      if (!started) {
        queueMicrotask(async () => {
          if (started) return;
          try {
            for await (const _ of iterate()) {
              // reading to the end
            }
          } catch {
            // the result carries the error
          }
        });
      }
      return result;
    },
    get runId() {
      return state.runId;
    },
    get lastEventId() {
      return state.lastEventId;
    },
  };
}

/** The error to report: an abort as `AbortError`, a too-large message as `too_large`, anything else as `network`. */
function classify(error: unknown, signal: AbortSignal | undefined, url: string): unknown {
  if (signal?.aborted) return AbortError.isInstance(error) ? error : new AbortError({ cause: signal.reason });
  if (RunStreamError.isInstance(error) || InvalidArgumentError.isInstance(error)) return error;
  if (ResponseTooLargeError.isInstance(error)) {
    const message = `${url} sent an event (or line) longer than maxEventChars = ${error.maximum}`;
    return new RunStreamError({ kind: "too_large", message, url, cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new RunStreamError({
    kind: "network",
    message: `the connection to ${url} failed: ${detail}`,
    url,
    cause: error,
  });
}

function resolveOptions(options: StreamRunOptions) {
  if (options === null || typeof options !== "object") {
    throw new InvalidArgumentError({ argument: "options", message: "expected an options object" });
  }
  const count = (name: keyof StreamRunOptions, fallback: number, min: number): number => {
    const value = options[name] ?? fallback;
    if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
      throw new InvalidArgumentError({ argument: name, message: `expected a number >= ${min}` });
    }
    return value;
  };
  const fetch = options.fetch ?? globalThis.fetch;
  if (typeof fetch !== "function") {
    throw new InvalidArgumentError({ argument: "fetch", message: "no fetch: pass one (options.fetch)" });
  }
  return {
    fetch,
    maxReconnects: count("maxReconnects", 5, 0),
    reconnectDelayMs: count("reconnectDelayMs", 500, 0),
    timeoutMs: count("timeoutMs", 30_000, 1),
    idleTimeoutMs: count("idleTimeoutMs", 45_000, 1),
    maxEventChars: count("maxEventChars", 4_000_000, 1),
  };
}
