/**
 * The heavy half of {@link AnthropicMessagesModel}: request body, response and stream parsing. Loaded on a model's
 * first call (see lazy-implementation.ts), so that it stays out of what `import("agentloop")` loads.
 */
export { buildAnthropicBody } from "./build-anthropic-body.js";
export { isRetryableAnthropicStatus, parseAnthropicErrorBody } from "./parse-anthropic-error.js";
export { parseAnthropicMessage } from "./parse-anthropic-message.js";
export { readAnthropicStream } from "./read-anthropic-stream.js";
