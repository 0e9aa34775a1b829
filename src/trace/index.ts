/**
 * `agentloop/trace`: traces. An agent with `trace: true` puts one in `result.trace`; record one around
 * any model yourself with {@link TraceRecorder}. Check a trace's hash chain ({@link verifyTrace}), save and
 * load it as JSON Lines ({@link saveTrace}, which redacts by default, and {@link loadTrace}), redact a copy
 * ({@link redactTrace}), read its events ({@link traceEvents}), and replay it without a network
 * ({@link replay}, built on {@link ReplayModel} and {@link recordedTools}). See docs/traces.md.
 */

export { TraceError } from "../errors/trace-error.js";
export type { Difference } from "../run-log/first-difference.js";
export { type RedactTraceOptions, redactTrace } from "./redact-trace.js";
export { type ReplayOptions, type ReplayOutcome, replay } from "./replay.js";
export { type Divergence, ReplayModel, type ReplayModelOptions } from "./replay-model.js";
export { type RecordedToolsOptions, recordedTools } from "./replay-tools.js";
export { type TraceEventsOptions, traceEvents } from "./trace-events.js";
export { loadTrace, type SaveTraceOptions, saveTrace } from "./trace-file.js";
export { TraceRecorder, type TraceRecorderOptions } from "./trace-recorder.js";
export type {
  Trace,
  TraceMeta,
  TraceRecord,
  TraceRecordDataMap,
  TraceRecordKind,
  TraceRecordOf,
} from "./trace-types.js";
export { type VerifyTraceResult, verifyTrace } from "./verify-trace.js";
