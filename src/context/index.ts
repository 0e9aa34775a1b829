/**
 * Context management: token counting (exact for OpenAI models through the optional gpt-tokenizer peer,
 * estimated otherwise), incremental tracking of a growing history, and compaction that keeps every history
 * valid for OpenAI and Anthropic (sliding window with a marker, or a running summary).
 */
export { type ApplySummaryOptions, applySummary } from "./apply-summary.js";
export { type BuildSummaryRequestOptions, buildSummaryRequest } from "./build-summary-request.js";
export { type CompactionResult, type CompactMessagesOptions, compactMessages } from "./compact-messages.js";
export {
  compactionMarkerText,
  type ParsedCompactionMarker,
  parseCompactionMarker,
} from "./compaction-marker.js";
export {
  CALIBRATION_LIMITS,
  type CalibrateOptions,
  ContextTracker,
  type ContextTrackerOptions,
} from "./context-tracker.js";
export { createEstimatingCounter, estimateTokens } from "./create-estimating-counter.js";
export { type GroupedTurns, groupTurns, type TurnUnit, type TurnUnitKind } from "./group-turns.js";
export {
  encodingForModel,
  type LoadTokenCounterOptions,
  loadTokenCounter,
  type OpenAIEncoding,
} from "./load-token-counter.js";
export { findSummary, SUMMARY_PREFIX } from "./summary-message.js";
export {
  CALIBRATION_SMOOTHING,
  type CalibrationKey,
  CalibrationRegistry,
  type CalibrationSnapshot,
  COMPACTION_MARGIN,
  type ObserveOptions,
  TokenCalibration,
} from "./token-calibration.js";
export {
  type CountMessagesOptions,
  type CreateTokenCounterOptions,
  countMessages,
  createTokenCounter,
  TOKEN_OVERHEAD,
  type TokenCounter,
} from "./token-counter.js";
export { type TruncateToolResultOptions, truncateToolResult } from "./truncate-tool-result.js";
export { type HistoryProblem, type HistoryProblemKind, validateHistory } from "./validate-history.js";
