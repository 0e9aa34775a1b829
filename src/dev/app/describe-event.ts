import { formatCount, formatJson, formatMs, formatUsd } from "./format.js";
import type { AgentEvent } from "./types.js";

/** How a timeline entry looks. */
export type EntryTone = "info" | "model" | "tool" | "ok" | "warn" | "error" | "muted";

/** A timeline entry: a one-line title, a short meta line, and details shown on demand. */
export interface TimelineEntry {
  /** A short marker shown before the title (text, not an icon font). */
  badge: string;
  title: string;
  meta?: string;
  /** Longer text (arguments, results, prompts), shown in a `<pre>` under a disclosure. */
  details?: Array<{ label: string; text: string }>;
  tone: EntryTone;
}

const SKIPPED = new Set(["text_delta", "reasoning_delta", "tool_call_delta", "output_delta"]);

/**
 * How the timeline shows an event, or `undefined` for the streamed fragments (text, reasoning, tool-call
 * arguments, partial typed output): the chat shows those, and each turn's `model_call` sums them up.
 */
export function describeEvent(event: AgentEvent): TimelineEntry | undefined {
  if (SKIPPED.has(event.type)) return undefined;
  switch (event.type) {
    case "loop_start":
      return {
        badge: "start",
        title: `run started · ${event.data.model}`,
        meta: formatJson(event.data.task, { maxChars: 200 }),
        details: event.data.task.length > 200 ? [{ label: "input", text: event.data.task }] : [],
        tone: "info",
      };
    case "turn_start":
      return {
        badge: `turn ${event.turn}`,
        title: `turn ${event.turn} · ${event.data.model}`,
        tone: "muted",
      };
    case "model_call": {
      const { usage, costUsd, latencyMs, finishReason, priced } = event.data;
      return {
        badge: "model",
        title: `model call · ${formatMs(latencyMs)}`,
        meta: `${formatCount(usage.inputTokens)} in / ${formatCount(usage.outputTokens)} out tokens · ${priced ? formatUsd(costUsd) : "unpriced"} · ${finishReason.unified}`,
        tone: "model",
      };
    }
    case "thought":
      return {
        badge: "text",
        title: "the model wrote, with its tool calls:",
        meta: formatJson(event.data.content, { maxChars: 200 }),
        details: event.data.content.length > 200 ? [{ label: "text", text: event.data.content }] : [],
        tone: "muted",
      };
    case "action":
      return {
        badge: "call",
        title: `→ ${event.data.toolName}`,
        meta: formatJson(event.data.arguments, { maxChars: 160 }),
        details: [{ label: "arguments", text: formatJson(event.data.arguments, { pretty: true }) }],
        tone: "tool",
      };
    case "observation":
      return {
        badge: event.data.ok ? "result" : "failed",
        title: `← ${event.data.toolName} · ${formatMs(event.data.durationMs)}`,
        meta:
          event.data.error === undefined
            ? formatJson(event.data.result, { maxChars: 160 })
            : `${event.data.error.type}: ${event.data.error.message}`,
        details: [{ label: "result", text: formatJson(event.data.result) }],
        tone: event.data.ok ? "ok" : "error",
      };
    case "approval_requested":
      return {
        badge: "approval",
        title: `waiting for approval: ${event.data.calls.map((call) => call.toolName).join(", ")}`,
        details: event.data.calls.map((call) => ({
          label: `${call.toolName} (${call.toolCallId})`,
          text: formatJson(call.arguments, { pretty: true }),
        })),
        tone: "warn",
      };
    case "retry":
      return {
        badge: "retry",
        title: `retry ${event.data.attempt} in ${formatMs(event.data.delayMs)}${event.data.source === "stream" ? " (the streamed text is discarded)" : ""}`,
        meta: event.data.error,
        tone: "warn",
      };
    case "model_fallback":
      return {
        badge: "fallback",
        title: `fallback ${event.data.from} → ${event.data.to}`,
        meta: event.data.error,
        tone: "warn",
      };
    case "compaction":
      return {
        badge: "compact",
        title: `history compacted (${event.data.strategy}, ${event.data.reason})`,
        meta: `${formatCount(event.data.tokensBefore)} → ${formatCount(event.data.tokensAfter)} tokens · ${event.data.removedMessages} messages out · ${event.data.truncatedToolResults} results truncated`,
        tone: "info",
      };
    case "guardrail":
      return {
        badge: "guardrail",
        title: `${event.data.kind} guardrail "${event.data.name}" blocked the run`,
        meta: `${event.data.reason}${event.data.toolCallId === undefined ? "" : ` (call ${event.data.toolCallId}, ${event.data.phase})`}`,
        tone: "error",
      };
    case "soft_limit":
      return {
        badge: "limit",
        title: `soft limit (${event.data.reason})`,
        details: [{ label: "prompt", text: event.data.prompt }],
        tone: "warn",
      };
    case "user_message":
      return {
        badge: "message",
        title: "message sent to the running agent",
        details: [{ label: "message", text: event.data.content }],
        tone: "info",
      };
    case "output_invalid":
      return {
        badge: "output",
        title: `typed answer invalid${event.data.retry ? " (sent back)" : ""}`,
        details: [{ label: "errors", text: event.data.errors.join("\n") }],
        tone: "warn",
      };
    case "plan":
      return {
        badge: "plan",
        title: `plan (round ${event.data.round}): ${event.data.steps.length} steps`,
        details: [{ label: "steps", text: formatJson(event.data.steps, { pretty: true }) }],
        tone: "info",
      };
    case "error":
      return {
        badge: event.data.fatal ? "error" : "warning",
        title: `${event.data.name}: ${event.data.message}`,
        tone: event.data.fatal ? "error" : "warn",
      };
    case "loop_end":
      return {
        badge: "end",
        title: `run ended: ${event.data.stopReason}`,
        ...(event.data.text !== "" && { details: [{ label: "answer", text: event.data.text }] }),
        tone:
          event.data.stopReason === "completed"
            ? "ok"
            : event.data.stopReason === "awaiting_approval"
              ? "warn"
              : "error",
      };
    default:
      return { badge: "event", title: (event as { type: string }).type, tone: "muted" };
  }
}
