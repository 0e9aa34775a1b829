export type {
  AgentEvent,
  AgentEventDataMap,
  AgentEventOf,
  AgentEventType,
  StopReason,
} from "./agent-event.js";
export {
  type AgentLimits,
  DEFAULT_LIMIT_PROMPTS,
  DEFAULT_LIMITS,
  type LimitPrompts,
  resolveLimits,
} from "./agent-limits.js";
export { type AgentLoopConfig, type AgentLoopOutcome, agentLoop } from "./agent-loop.js";
export { type AgentResult, AgentResultBuilder, type ToolCallRecord } from "./agent-result.js";
export {
  DEFAULT_LOOP_DETECTION,
  type LoopDetectionOptions,
  LoopDetector,
} from "./loop-detector.js";
