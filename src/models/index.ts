export { collectStream, StreamCollector } from "./collect-stream.js";
export {
  type ContentPart,
  contentText,
  type FilePart,
  type ImagePart,
  type MessageContent,
  type TextPart,
} from "./content-part.js";
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
  ModelCapabilities,
  ModelRequest,
  ModelResponse,
  ModelToolSpec,
  OutputFormat,
  RetryInfo,
  ToolChoice,
} from "./model.js";
export type { ModelStreamPart } from "./model-stream-part.js";
export type {
  BinaryData,
  ContentPartInput,
  FilePartInput,
  ImagePartInput,
  RunInput,
} from "./normalize-content.js";
export { addUsage, emptyUsage, type Usage } from "./usage.js";
