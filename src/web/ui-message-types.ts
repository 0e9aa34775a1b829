/**
 * The shapes of the Vercel AI SDK UI message stream protocol (`x-vercel-ai-ui-message-stream: v1`, the `ai`
 * package's `uiMessageChunkSchema`) that agentloop writes, and of the `UIMessage`s a `useChat` client sends.
 * Wire shapes: they keep the protocol's spelling (kebab-case types, `toolCallId`, `errorText`).
 */

/** Why a UI message stream finished (the protocol's `finishReason`). */
export type UIFinishReason =
  | "stop"
  | "length"
  | "content-filter"
  | "tool-calls"
  | "error"
  | "interrupted"
  | "other";

/** The `toolMetadata` of a tool part for a call made inside a sub-agent: the sub-agent's path. */
export type UIToolMetadata = { agent: string };

/** The `data-*` chunk of an agent event (sub-agent events, or all events with `agentEvents: "all"`). */
export interface UIAgentEventData {
  /** The sub-agent's path (`"lead/researcher"`); absent on the run's own events. */
  agent?: string;
  type: string;
  turn: number;
  data: unknown;
}

/** The `data-output` part of a typed answer (`Agent({ output })`): partial while it streams, then done. */
export type UIOutputData =
  | { state: "partial"; value: unknown }
  | { state: "done"; value: unknown }
  | { state: "invalid"; errors: string[]; retry: boolean };

/** One chunk of a UI message stream, as agentloop writes it (a subset of the `ai` package's `UIMessageChunk`). */
export type UIMessageChunk =
  | { type: "start"; messageId?: string; messageMetadata?: unknown }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "reset-step" }
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string }
  | { type: "reasoning-start"; id: string }
  | { type: "reasoning-delta"; id: string; delta: string }
  | { type: "reasoning-end"; id: string }
  | { type: "tool-input-start"; toolCallId: string; toolName: string; toolMetadata?: UIToolMetadata }
  | { type: "tool-input-delta"; toolCallId: string; inputTextDelta: string }
  | {
      type: "tool-input-available";
      toolCallId: string;
      toolName: string;
      input: unknown;
      toolMetadata?: UIToolMetadata;
    }
  | { type: "tool-approval-request"; approvalId: string; toolCallId: string; isAutomatic?: boolean }
  | { type: "tool-approval-response"; approvalId: string; approved: boolean }
  | { type: "tool-output-available"; toolCallId: string; output: unknown }
  | { type: "tool-output-error"; toolCallId: string; errorText: string }
  | { type: "tool-output-denied"; toolCallId: string }
  | { type: "steering-message"; id: string; parts: Array<{ type: "text"; text: string }> }
  | { type: "data-output"; id: string; data: UIOutputData }
  | { type: "data-agent-event"; data: UIAgentEventData; transient: true }
  | { type: "error"; errorText: string }
  | { type: "finish"; finishReason?: UIFinishReason; messageMetadata?: unknown };

/** The type of a {@link UIMessageChunk}. */
export type UIMessageChunkType = UIMessageChunk["type"];

/**
 * One part of a `UIMessage` as a client sends it: `text`, `file`, `reasoning`, `step-start`, a tool part
 * (`tool-<name>` or `dynamic-tool`), `data-*` and others. Only the fields agentloop reads are named.
 */
export interface UIMessagePart {
  type: string;
  text?: string;
  url?: string;
  mediaType?: string;
  filename?: string;
  toolCallId?: string;
  toolName?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id?: string; approved?: boolean; reason?: string; isAutomatic?: boolean };
  data?: unknown;
  [key: string]: unknown;
}

/** A chat message as `useChat` keeps and sends it (the `ai` package's `UIMessage`). */
export interface UIMessage {
  id: string;
  role: "system" | "user" | "assistant";
  metadata?: unknown;
  parts: UIMessagePart[];
}
