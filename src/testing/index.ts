/**
 * agentloop/testing — test doubles for code built on agentloop: {@link ScriptedModel}, a `Model` that plays
 * scripted answers and records every call, and {@link startMockOpenAIServer}, a real local HTTP server
 * speaking the OpenAI Chat Completions wire format with injectable faults.
 */

export { UnexpectedModelCallError } from "../errors/unexpected-model-call-error.js";
export {
  type MockOpenAIServer,
  type MockOpenAIServerOptions,
  type RecordedRequest,
  startMockOpenAIServer,
} from "./mock-openai-server.js";
export type {
  MockChatRequest,
  MockFault,
  MockReply,
  MockScript,
  MockStatusFault,
  MockStreamFault,
  MockToolCall,
} from "./mock-reply.js";
export {
  ScriptedModel,
  type ScriptedModelCall,
  type ScriptedModelOptions,
  type ScriptedSteps,
} from "./scripted-model.js";
export { DEFAULT_SCRIPTED_USAGE, type ScriptedStep, type ScriptedToolCall } from "./scripted-step.js";
export type { ChunkSize } from "./split-text.js";
