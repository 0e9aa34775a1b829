import { ModelCallError } from "./model-call-error.js";

const CONTEXT_LENGTH_MESSAGE =
  /maximum context length|context[ _]length[ _]exceeded|context window|prompt is too long|too many tokens/i;

/**
 * True when `error` says the conversation no longer fits the model's context window: a
 * {@link ModelCallError} with code `context_length_exceeded` (OpenAI), or a 400/413 whose message says so
 * (OpenAI-compatible servers such as vLLM report "This model's maximum context length is …" without a code;
 * Anthropic says "prompt is too long"). Provider-neutral: the loop uses it to compact and retry once.
 * The agent can then compact or trim the history instead of retrying.
 */
export function isContextLengthError(error: unknown): boolean {
  if (!ModelCallError.isInstance(error)) return false;
  if (error.code === "context_length_exceeded") return true;
  if (error.status !== 400 && error.status !== 413) return false;
  return CONTEXT_LENGTH_MESSAGE.test(error.message);
}
