/**
 * agentloop — a small, fast, predictable runtime for LLM agents.
 *
 * The layers, bottom up: `models` (provider-neutral messages and the Model interface), `http` (transport,
 * retries, SSE), `providers` (wire formats), `tools` (definition, validation, execution), `loop` (the agent
 * loop as an event generator) and `Agent` (the friendly wrapper).
 */
export { Agent, type AgentOptions, type PausedRun, type ResumeOptions, type RunOptions } from "./agent.js";
export type { AgentStream } from "./agent-stream.js";
export {
  applySummary,
  buildSummaryRequest,
  CalibrationRegistry,
  type CalibrationSnapshot,
  COMPACTION_MARGIN,
  type CompactionResult,
  type CompactMessagesOptions,
  ContextTracker,
  compactMessages,
  createEstimatingCounter,
  createTokenCounter,
  encodingForModel,
  estimateTokens,
  findSummary,
  groupTurns,
  type HistoryProblem,
  loadTokenCounter,
  SUMMARY_PREFIX,
  TokenCalibration,
  type TokenCounter,
  validateHistory,
} from "./context/index.js";
export * from "./cost/index.js";
export * from "./durable/index.js";
export * from "./errors/index.js";
export { createFetchHttpClient, createNodeHttpClient, type HttpClient } from "./http/http-client.js";
export { DEFAULT_RESPONSE_LIMITS, type ResponseLimits } from "./http/response-limits.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./http/retry-policy.js";
export type { ContextOptions } from "./loop/context-options.js";
export * from "./loop/index.js";
export { DENIED_RESULT, type PendingApproval } from "./loop/tool-step.js";
export type { AgentHooks } from "./loop/with-hooks.js";
export { type WorkingMemoryOptions, workingMemoryTools } from "./memory/working-memory-tools.js";
export * from "./models/index.js";
export { resolveModel } from "./models/resolve-model.js";
export * from "./planner/index.js";
export * from "./profiles/index.js";
export * from "./providers/anthropic/index.js";
export * from "./providers/openai/index.js";
export type {
  OpenAIResponsesModel,
  OpenAIResponsesModelConfig,
  OpenAIResponsesProviderData,
} from "./providers/openai-responses/index.js";
export * from "./reflection/index.js";
export {
  createJsonLinesRenderer,
  createTerminalRenderer,
  escapeTerminalText,
  formatEvent,
  type JsonLinesRendererOptions,
  type RenderContext,
  Renderer,
  type RendererOptions,
  type RenderRule,
  type TerminalRendererOptions,
} from "./render/index.js";
export type { MessageRedactor } from "./sessions/open-session-run.js";
export { RunState } from "./sessions/run-state.js";
export * from "./stores/index.js";
export * from "./tools/index.js";
export * from "./trace/index.js";
