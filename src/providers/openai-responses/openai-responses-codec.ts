/**
 * The heavy half of {@link OpenAIResponsesModel}: request body, response and stream parsing. Loaded on a model's
 * first call (see lazy-implementation.ts), so that it stays out of what `import("agentloop")` loads.
 */
export { parseOpenAIErrorBody } from "../openai/parse-openai-error.js";
export { buildOpenAIResponsesBody } from "./build-openai-responses-body.js";
export { parseOpenAIResponse } from "./parse-openai-response.js";
export { readOpenAIResponsesStream } from "./read-openai-responses-stream.js";
