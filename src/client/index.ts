/**
 * `agentloop/client` — the browser client of an agentloop endpoint: `streamRun(url, input)` streams a run's
 * events as an async iterable, with its result, and reconnects to a durable run. Browser-safe: fetch,
 * streams and `TextDecoder` only (no Node built-ins). Event types come from `agentloop` (`import type`).
 */

export {
  RunStreamError,
  type RunStreamErrorKind,
  type RunStreamErrorOptions,
} from "../errors/run-stream-error.js";
export { RUN_ID_HEADER } from "./run-id-header.js";
export { type RunEventStream, type StreamRunOptions, streamRun } from "./stream-run.js";
export type { StreamedRunError, StreamedRunResult } from "./streamed-run-result.js";
