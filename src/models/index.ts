export { collectStream, StreamCollector } from "./collect-stream.js";
export type { FinishReason, UnifiedFinishReason } from "./finish-reason.js";
export {
  type AssistantMessage,
  createToolCall,
  type Message,
  parseToolArguments,
  type SystemMessage,
  type ToolCall,
  type ToolMessage,
  type UserMessage,
} from "./message.js";
export type {
  JsonSchema,
  Model,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelToolSpec,
  RetryInfo,
  ToolChoice,
} from "./model.js";
export type { ModelStreamPart } from "./model-stream-part.js";
export { addUsage, emptyUsage, type Usage } from "./usage.js";
