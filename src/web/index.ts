/**
 * `agentloop/web` — agent runs on the web: stream a run to a browser as server-sent events
 * (`toSSEResponse` for fetch-style servers, `pipeToNodeResponse` for node:http), resume a durable run where a
 * client that reconnects left it (`durableStream`, `RunEventLog`), and a ready request handler
 * (`createAgentHandler`). The browser side is `agentloop/client`. For the Vercel AI SDK's `useChat`: the UI
 * message stream protocol (`toUIMessageStreamResponse`, or `readUIChatRequest` + `createUIChatResponse` for a
 * whole chat route with approvals). See docs/web.md.
 */

export { type AgentHandlerOptions, createAgentHandler, type HandlerAgent } from "./create-agent-handler.js";
export {
  type DurableStream,
  type DurableStreamOptions,
  durableStream,
  type StreamingAgent,
} from "./durable-stream.js";
export { pipeToNodeResponse } from "./pipe-to-node-response.js";
export {
  DEFAULT_RUN_EVENT_LOG_OPTIONS,
  RunEventLog,
  type RunEventLogOptions,
} from "./run-event-log.js";
export { DEFAULT_HEARTBEAT_MS } from "./sse-format.js";
export type { DisconnectBehavior, SSEStreamOptions } from "./sse-stream-options.js";
export { toSSEResponse } from "./to-sse-response.js";
export {
  DEFAULT_UI_CHAT_REQUEST_LIMITS,
  type ParseUIChatRequestOptions,
  parseUIChatRequest,
  readUIChatRequest,
  type UIChatRequest,
  type UIChatRequestLimits,
} from "./ui-chat-request.js";
export { createUIChatResponse, type StreamUIChatOptions, streamUIChat } from "./ui-chat-stream.js";
export type { UIAgentEvents } from "./ui-event-mapper.js";
export {
  type ToUIMessageStreamOptions,
  toUIMessageStream,
  type UIMessageStreamSource,
  type UIStreamError,
} from "./ui-message-stream.js";
export {
  type ToUIMessageStreamResponseOptions,
  toUIMessageStreamResponse,
} from "./ui-message-stream-response.js";
export type {
  UIAgentEventData,
  UIFinishReason,
  UIMessage,
  UIMessageChunk,
  UIMessagePart,
  UIOutputData,
  UIToolMetadata,
} from "./ui-message-types.js";
