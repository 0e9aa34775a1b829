import type { FinishReason } from "./finish-reason.js";
import type { ToolCall } from "./message.js";
import type { Usage } from "./usage.js";

/**
 * One part of a streamed model answer: a flat discriminated union. Tool calls are announced
 * (`tool-call-start`), their raw argument text streams (`tool-call-delta`), and the complete, parsed call
 * follows (`tool-call-end`). A stream ends with `finish` (or `error`).
 */
export type ModelStreamPart =
  | { type: "text-delta"; delta: string }
  | { type: "refusal-delta"; delta: string }
  | { type: "reasoning-delta"; delta: string }
  | { type: "tool-call-start"; id: string; name: string }
  | { type: "tool-call-delta"; id: string; delta: string }
  | { type: "tool-call-end"; toolCall: ToolCall }
  | { type: "provider-data"; data: Record<string, unknown> }
  | {
      type: "finish";
      usage: Usage;
      finishReason: FinishReason;
      /** The model the provider says answered (see `ModelResponse.model`). */
      model?: string;
    }
  | { type: "error"; error: unknown };
