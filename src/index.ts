/**
 * agentloop — a small, fast, predictable runtime for LLM agents.
 *
 * The layers, bottom up: `models` (provider-neutral messages and the Model interface), `http` (transport,
 * retries, SSE), `providers` (wire formats), `tools` (definition, validation, execution), `loop` (the agent
 * loop as an event generator) and `Agent` (the friendly wrapper).
 */
export { Agent, type AgentOptions, type AgentStream, type RunOptions } from "./agent.js";
export * from "./errors/index.js";
export { createFetchHttpClient, createNodeHttpClient, type HttpClient } from "./http/http-client.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./http/retry-policy.js";
export * from "./loop/index.js";
export type { AgentHooks } from "./loop/with-hooks.js";
export * from "./models/index.js";
export { resolveModel } from "./models/resolve-model.js";
export * from "./providers/openai/index.js";
export * from "./tools/index.js";
