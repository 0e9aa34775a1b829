/**
 * Tracing: record a run as a tamper-evident list of records (`TraceRecorder`), check it (`verifyTrace`),
 * save and load it (`saveTrace`, `loadTrace`), and replay it without a model (`replay`, `ReplayModel`).
 */

export type { Difference } from "./first-difference.js";
export { type HashRecordOptions, hashRecord } from "./hash-record.js";
export { type RedactTraceOptions, redactTrace } from "./redact-trace.js";
export { type ReplayOptions, type ReplayOutcome, replay } from "./replay.js";
export { type Divergence, ReplayModel, type ReplayModelOptions } from "./replay-model.js";
export { type RecordedToolsOptions, recordedTools } from "./replay-tools.js";
export { TraceError } from "./trace-error.js";
export { type TraceEventsOptions, traceEvents } from "./trace-events.js";
export { loadTrace, type SaveTraceOptions, saveTrace, TRACE_FILE_TYPE } from "./trace-file.js";
export { TraceRecorder, type TraceRecorderOptions } from "./trace-recorder.js";
export {
  GENESIS_HASH,
  type RecordedError,
  type RecordedModelRequest,
  TRACE_RECORD_KINDS,
  TRACE_VERSION,
  type Trace,
  type TraceMeta,
  type TraceModelError,
  type TraceModelRequest,
  type TraceModelResponse,
  type TraceRecord,
  type TraceRecordDataMap,
  type TraceRecordKind,
  type TraceRecordOf,
  type TraceToolResult,
} from "./trace-types.js";
export { type VerifyTraceResult, verifyTrace } from "./verify-trace.js";
