import { ModelCallError } from "./model-call-error.js";

/** Error codes (or types) that mean the request does not fit the model's context window. */
const CONTEXT_LENGTH_CODES = new Set([
  "context_length_exceeded", // OpenAI
  "exceed_context_size_error", // llama.cpp (llama-server)
  "context_window_exceeded",
  "model_context_window_exceeded", // Anthropic stop reason, also seen as an error type from gateways
]);

/**
 * What servers say when the prompt does not fit, by server:
 * - OpenAI / vLLM: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens"
 *   and vLLM's "... is longer than the model's context length" / "... is longer than the maximum model
 *   length of 4096"; "context_length_exceeded";
 * - llama.cpp: "request (538 tokens) exceeds the available context size (512 tokens), try increasing it";
 * - Ollama: "prompt too long; exceeded max context length by 12 tokens", "the input length exceeds the
 *   context length";
 * - LM Studio: "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded
 *   with context length of only 4096 tokens", "The number of tokens to keep from the initial prompt is
 *   greater than the context length";
 * - Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"; others: "context window", "too many tokens".
 */
const CONTEXT_LENGTH_MESSAGE = new RegExp(
  [
    "maximum context length",
    "max(?:imum)? context (?:length|size|window)",
    "context[ _]length[ _]exceeded",
    "(?:longer than|exceeds?|greater than|more than)(?: the)?(?: model'?s?| available| maximum| max)* context (?:length|size|window)",
    "longer than the maximum model length",
    "context (?:the )?overflows",
    "context window",
    "prompt is too long",
    "prompt too long",
    "too many tokens",
  ].join("|"),
  "i",
);

/**
 * True when `error` says the conversation no longer fits the model's context window: a
 * {@link ModelCallError} whose code or envelope type says so (`context_length_exceeded` from OpenAI,
 * `exceed_context_size_error` from llama.cpp), or a 400/413 (or a 200 error envelope) whose message says so
 * in the words of OpenAI, vLLM, llama.cpp, Ollama, LM Studio or Anthropic. Provider-neutral: the loop uses it
 * to compact the history and retry once.
 */
export function isContextLengthError(error: unknown): boolean {
  if (!ModelCallError.isInstance(error)) return false;
  if (error.code !== undefined && CONTEXT_LENGTH_CODES.has(error.code)) return true;
  if (error.errorType !== undefined && CONTEXT_LENGTH_CODES.has(error.errorType)) return true;
  if (error.status !== undefined && error.status !== 400 && error.status !== 413 && error.status !== 200) {
    return false;
  }
  if (error.isRetryable) return false;
  return CONTEXT_LENGTH_MESSAGE.test(error.message);
}
