export { AbortError, throwIfAborted } from "./abort-error.js";
export { AgentloopError, type AgentloopErrorOptions } from "./agentloop-error.js";
export { ContextOverflowError } from "./context-overflow-error.js";
export { EmptyResponseError } from "./empty-response-error.js";
export { InvalidArgumentError } from "./invalid-argument-error.js";
export { isContextLengthError } from "./is-context-length-error.js";
export { isRetryableStatus, ModelCallError, type ModelCallErrorOptions } from "./model-call-error.js";
export { SessionBusyError } from "./session-busy-error.js";
export { StreamInterruptedError } from "./stream-interrupted-error.js";
