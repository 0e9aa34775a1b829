import { ModelCallError } from "../errors/model-call-error.js";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";

/** Options of {@link checkToolCallSlot}. */
export interface CheckToolCallSlotOptions {
  /** The index (slot) a stream gives a new tool call. */
  slot: unknown;
  /** The most tool calls one response may hold (`limits.maxToolCalls`); undefined: no bound. */
  maxToolCalls: number | undefined;
  /** The URL called (without credentials), for the error. */
  url: string;
}

/**
 * Checks the slot of a new streamed tool call before it is used: a non-negative integer (else a non-retryable
 * `ModelCallError`, code `invalid_tool_call_index`) below `maxToolCalls` (else {@link ResponseTooLargeError}).
 * Providers index their tool-call state by it, so an index such as 4294967294 must never reach an array.
 */
export function checkToolCallSlot({ slot, maxToolCalls, url }: CheckToolCallSlotOptions): void {
  if (typeof slot !== "number" || !Number.isSafeInteger(slot) || slot < 0) {
    throw new ModelCallError({
      message: `Model stream from ${url} sent a tool call with an invalid index: ${String(slot)}`,
      isRetryable: false,
      code: "invalid_tool_call_index",
      url,
    });
  }
  if (maxToolCalls !== undefined && slot >= maxToolCalls) {
    throw new ResponseTooLargeError({
      limit: "limits.maxToolCalls",
      maximum: maxToolCalls,
      received: slot + 1,
      what: "the number of tool calls (or a tool-call index)",
      url,
    });
  }
}
