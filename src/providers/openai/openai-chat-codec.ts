/**
 * The heavy half of {@link OpenAIChatModel}: request body, response and stream parsing. Loaded on a model's first
 * call (see lazy-implementation.ts), so that it stays out of what `import("agentloop")` loads.
 */
export { buildOpenAIChatBody } from "./build-openai-chat-body.js";
export { withOwnReasoning } from "./openai-compatible-reasoning.js";
export { parseOpenAIChatCompletion } from "./parse-openai-chat-completion.js";
export { parseOpenAIErrorBody } from "./parse-openai-error.js";
export { readOpenAIChatStream } from "./read-openai-chat-stream.js";
