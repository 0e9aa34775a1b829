/**
 * agentloop — a small, fast, predictable runtime for LLM agents.
 *
 * The root entry holds what an application needs: {@link Agent} with its options, results and events,
 * {@link tool}, the model providers ({@link createOpenAI}, {@link createAnthropic}) and the model interface,
 * the errors to catch, the session/state stores and run journals to construct, {@link Budget}, {@link Profile}
 * and {@link runWithReflection}. Advanced pieces live in documented subpaths (see docs/conventions.md):
 *
 * - `agentloop/context` — token counting, context tracking, compaction, history validation
 * - `agentloop/trace` — traces: record, verify, save, load, redact, replay
 * - `agentloop/durable` — durable runs without an Agent (`runDurably`), journal sweeping, the journal format
 * - `agentloop/planner` — the plan-and-execute agent (`PlanAgent`)
 * - `agentloop/render` — terminal and JSON-lines renderers for events
 * - `agentloop/guardrails` — input, tool and output guardrails (`GuardrailError`) and the built-in checks
 * - `agentloop/tools` (built-in tools), `agentloop/testing` (test doubles), `agentloop/redis`,
 *   `agentloop/postgres`, `agentloop/mcp`, `agentloop/queue`
 *
 * The list below is deliberate and checked by test/package/public-api.test.ts.
 */

export { Agent, type AgentOptions, type PausedRun, type ResumeOptions, type RunOptions } from "./agent.js";
export type { AgentStream } from "./agent-stream.js";
export { Budget, type BudgetOptions } from "./cost/index.js";
export { DurableRunBusyError, FileJournal, MemoryJournal, type RunJournal } from "./durable/index.js";
export {
  AbortError,
  AgentloopError,
  ApprovalRequiredError,
  ContextOverflowError,
  EmptyResponseError,
  InvalidArgumentError,
  LockLostError,
  ModelCallError,
  OutputError,
  RefusalError,
  ResponseTooLargeError,
  SessionBusyError,
  SessionConflictError,
  StreamInterruptedError,
  ThrownValueError,
  UnsupportedContentError,
  UnsupportedRuntimeError,
} from "./errors/index.js";
export type { RetryPolicy } from "./http/retry-policy.js";
export type { ContextOptions } from "./loop/context-options.js";
export type {
  AgentEvent,
  AgentEventOf,
  AgentEventType,
  AgentLimits,
  AgentResult,
  StopReason,
  ToolCallRecord,
} from "./loop/index.js";
export type { PendingApproval } from "./loop/tool-step.js";
export type { AgentHooks } from "./loop/with-hooks.js";
export {
  type AssistantMessage,
  type ContentPart,
  type ContentPartInput,
  collectStream,
  type FilePart,
  type FinishReason,
  type ImagePart,
  type JsonSchema,
  type Message,
  type MessageContent,
  type Model,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  type RunInput,
  type SystemMessage,
  type ToolCall,
  type ToolMessage,
  type Usage,
  type UserMessage,
} from "./models/index.js";
export type { OutputSchema } from "./output/resolve-output.js";
export { Profile, type ProfileOptions } from "./profiles/index.js";
export {
  type AnthropicProvider,
  type AnthropicProviderOptions,
  createAnthropic,
} from "./providers/anthropic/index.js";
export { createBedrock } from "./providers/bedrock/create-bedrock.js";
export { createGoogle } from "./providers/google/create-google.js";
export { createOpenAI, type OpenAIProvider, type OpenAIProviderOptions } from "./providers/openai/index.js";
export { createOpenAICompatible } from "./providers/openai-compatible/create-openai-compatible.js";
export { resolveModel } from "./providers/resolve-model.js";
export {
  type ReflectionResult,
  type RunWithReflectionOptions,
  runWithReflection,
} from "./reflection/index.js";
export {
  type AppendOptions,
  createRedactor,
  FileStateStore,
  FileStore,
  type JsonValue,
  MemoryStateStore,
  MemoryStore,
  type SessionData,
  type SessionInfo,
  type SessionLock,
  type SessionStore,
  type StateStore,
  StoreError,
} from "./stores/index.js";
export {
  type Tool,
  ToolArgumentsError,
  type ToolContent,
  type ToolContext,
  ToolExecutionError,
  ToolNotFoundError,
  ToolRegistry,
  ToolTimeoutError,
  tool,
  toolContent,
} from "./tools/index.js";
