import type { FinishReason } from "./finish-reason.js";
import type { ToolCall } from "./message.js";
import type { Usage } from "./usage.js";

/**
 * One part of a streamed model answer: a flat discriminated union. Tool calls are announced
 * (`tool_call_start`), their raw argument text streams (`tool_call_delta`), and the complete, parsed call
 * follows (`tool_call_end`). A stream ends with `finish` (or `error`).
 */
export type ModelStreamPart =
  | { type: "text_delta"; delta: string }
  | { type: "refusal_delta"; delta: string }
  | { type: "reasoning_delta"; delta: string }
  | { type: "tool_call_start"; id: string; name: string }
  | { type: "tool_call_delta"; id: string; delta: string }
  | { type: "tool_call_end"; toolCall: ToolCall }
  | { type: "provider_data"; data: Record<string, unknown> }
  | {
      type: "finish";
      usage: Usage;
      finishReason: FinishReason;
      /** The model the provider says answered (see `ModelResponse.model`). */
      model?: string;
    }
  | { type: "error"; error: unknown };
