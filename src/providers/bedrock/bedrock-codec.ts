/**
 * The heavy half of {@link BedrockConverseModel}: request body, response and event-stream parsing. Loaded on a
 * model's first call (see lazy-implementation.ts), so that it stays out of what `import("agentloop")` loads.
 */
export { buildBedrockBody } from "./build-bedrock-body.js";
export { isRetryableBedrockStatus, parseBedrockErrorBody } from "./parse-bedrock-error.js";
export { parseBedrockResponse } from "./parse-bedrock-response.js";
export { readBedrockStream } from "./read-bedrock-stream.js";
