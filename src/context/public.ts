/**
 * `agentloop/context`: context management for code that works with histories directly. Token counters
 * ({@link loadTokenCounter}: exact for OpenAI models through the optional `gpt-tokenizer` peer, estimated
 * otherwise), incremental tracking of a growing history ({@link ContextTracker}) with learned corrections kept
 * across runs ({@link CalibrationRegistry}), compaction that keeps every history valid for OpenAI and Anthropic
 * ({@link compactMessages}), checks ({@link validateHistory}, {@link isContextLengthError}), and the text of a
 * message's content ({@link contentText}: a string, or its text parts joined). An Agent does
 * all of this itself with its `context` option; see docs/context.md.
 *
 * (The folder's index.ts is the internal barrel the loop imports; this file is the public entry.)
 */

export { isContextLengthError } from "../errors/is-context-length-error.js";
export { contentText } from "../models/content-part.js";
export { type CompactionResult, type CompactMessagesOptions, compactMessages } from "./compact-messages.js";
export { ContextTracker, type ContextTrackerOptions } from "./context-tracker.js";
export { createEstimatingCounter, estimateTokens } from "./create-estimating-counter.js";
export {
  encodingForModel,
  type LoadTokenCounterOptions,
  loadTokenCounter,
  type OpenAIEncoding,
} from "./load-token-counter.js";
export type { TextCountCacheOptions } from "./text-count-cache.js";
export {
  type CalibrationKey,
  CalibrationRegistry,
  type CalibrationSnapshot,
  COMPACTION_MARGIN,
  TokenCalibration,
} from "./token-calibration.js";
export { type CreateTokenCounterOptions, createTokenCounter, type TokenCounter } from "./token-counter.js";
export { type HistoryProblem, type HistoryProblemKind, validateHistory } from "./validate-history.js";
