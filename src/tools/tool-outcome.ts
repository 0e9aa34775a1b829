import type { MessageContent } from "../models/content-part.js";

/** The result of one tool call. */
export interface ToolOutcome {
  /** The id of the call this answers. */
  toolCallId: string;
  /** The tool's name as the model wrote it. */
  toolName: string;
  /** True when the tool ran and returned a serialisable value. */
  ok: boolean;
  /**
   * What the model is sent: the result (text, or content parts when the tool returned `toolContent`), or an
   * error text it can act on. Text is truncated to the result limit.
   */
  content: MessageContent;
  /** The tool's raw return value, when `ok`. */
  value?: unknown;
  /** Why the call failed, when not `ok`: `type` is the error class (`ToolTimeoutError`, `AbortError`, ...). */
  error?: { type: string; message: string };
  /** Wall time of the call in ms (0 for calls that never started). */
  durationMs: number;
}
