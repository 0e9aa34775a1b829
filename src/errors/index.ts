export { AbortError, throwIfAborted } from "./abort-error.js";
export { AgentloopError, type AgentloopErrorOptions } from "./agentloop-error.js";
export { ApprovalRequiredError } from "./approval-required-error.js";
export { ContextOverflowError } from "./context-overflow-error.js";
export { EmptyResponseError } from "./empty-response-error.js";
export { GuardrailError, type GuardrailErrorOptions, type GuardrailKind } from "./guardrail-error.js";
export { InvalidArgumentError } from "./invalid-argument-error.js";
export { isContextLengthError } from "./is-context-length-error.js";
export { LockLostError } from "./lock-lost-error.js";
export { isRetryableStatus, ModelCallError, type ModelCallErrorOptions } from "./model-call-error.js";
export { OutputError, type OutputErrorOptions, type OutputErrorReason } from "./output-error.js";
export { RefusalError } from "./refusal-error.js";
export { ResponseTooLargeError, type ResponseTooLargeErrorOptions } from "./response-too-large-error.js";
export { SessionBusyError } from "./session-busy-error.js";
export { SessionConflictError } from "./session-conflict-error.js";
export {
  StepControlError,
  type StepControlErrorOptions,
  type StepControlHook,
} from "./step-control-error.js";
export { StreamInterruptedError } from "./stream-interrupted-error.js";
export { ThrownValueError } from "./thrown-value-error.js";
export {
  UnsupportedContentError,
  type UnsupportedContentErrorOptions,
} from "./unsupported-content-error.js";
export {
  UnsupportedRuntimeError,
  type UnsupportedRuntimeErrorOptions,
} from "./unsupported-runtime-error.js";
