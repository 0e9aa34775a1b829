/**
 * The Anthropic Messages provider (`POST /v1/messages`): text, tool use, extended thinking, streaming.
 */
export type { AnthropicMessagesModel, AnthropicMessagesModelConfig } from "./anthropic-messages-model.js";
export type { AnthropicProviderData } from "./convert-to-anthropic-messages.js";
export {
  type AnthropicProvider,
  type AnthropicProviderOptions,
  createAnthropic,
  DEFAULT_ANTHROPIC_BASE_URL,
  DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS,
  DEFAULT_ANTHROPIC_TIMEOUT_MS,
  DEFAULT_ANTHROPIC_VERSION,
} from "./create-anthropic.js";
