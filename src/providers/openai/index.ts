/**
 * The OpenAI Chat Completions provider (also for OpenAI-compatible servers).
 */
export {
  createOpenAI,
  DEFAULT_OPENAI_TIMEOUT_MS,
  type OpenAIProvider,
  type OpenAIProviderOptions,
} from "./create-openai.js";
export type { OpenAIChatModel, OpenAIChatModelConfig } from "./openai-chat-model.js";
