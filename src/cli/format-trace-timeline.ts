import type { AgentEvent } from "../loop/agent-event.js";
import type { AnsiStyle } from "../render/ansi-style.js";
import { escapeTerminalText } from "../render/escape-terminal-text.js";
import {
  formatArgs,
  formatCost,
  formatCount,
  formatDuration,
  truncateText,
} from "../render/format-values.js";
import { describeContent } from "../tools/describe-content.js";
import type { Trace, TraceRecord } from "../trace/trace-types.js";

/** Options of {@link formatTraceTimeline}. */
export interface FormatTraceTimelineOptions {
  trace: Trace;
  style: AnsiStyle;
  /** Texts (results, answers) are cut to this many characters. Default 160. */
  maxChars?: number;
}

const quote = (text: string, maxChars: number): string => JSON.stringify(truncateText({ text, maxChars }));

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** One line of the timeline: sequence number, time, turn (or model call), label, detail. */
function line(parts: {
  seq: string;
  time?: string;
  turn?: string;
  /** A sub-agent's event: indented by its depth, after its path (styled). */
  nested?: string;
  label: string;
  /** Colours the label (after padding, so the columns line up). */
  paint?: (text: string) => string;
  detail: string;
}): string {
  const paint = parts.paint ?? ((text: string) => text);
  return (
    `${parts.seq.padStart(6)}  ${(parts.time ?? "").padStart(9)}  ${(parts.turn ?? "").padEnd(8)}` +
    `${parts.nested ?? ""}${paint(parts.label.padEnd(16))} ${parts.detail}`
  ).trimEnd();
}

/**
 * Before a sub-agent's event (`event.agent`): two spaces per level below the run, then its path
 * (`  lead/researcher › `); "" for the run's own events.
 */
function nestedPrefix(agent: string | undefined, s: AnsiStyle): string {
  if (typeof agent !== "string") return "";
  const depth = Math.max(1, agent.split("/").length - 1);
  return `${"  ".repeat(depth)}${s.dim(`${escapeTerminalText(agent)} ›`)} `;
}

function eventDetail(event: AgentEvent, max: number): string {
  switch (event.type) {
    case "loop_start":
      return event.data.task === "" ? `resume · ${event.data.model}` : `task ${quote(event.data.task, max)}`;
    case "model_call": {
      const d = event.data;
      return (
        `${d.model} · ${formatDuration(d.latencyMs)} · ${formatCount(d.usage.inputTokens)} in / ` +
        `${formatCount(d.usage.outputTokens)} out tokens · ${formatCost(d.costUsd)} · ${d.finishReason.unified}`
      );
    }
    case "text_delta":
      return quote(event.data.delta, max);
    case "plan":
      return `round ${event.data.round} · ${event.data.steps.length} steps`;
    case "thought":
      return quote(event.data.content, max);
    case "approval_requested":
      return event.data.calls
        .map(
          (call) => `${call.toolName}(${truncateText({ text: formatArgs(call.arguments), maxChars: max })})`,
        )
        .join(", ");
    case "action":
      return `${event.data.toolName}(${truncateText({ text: formatArgs(event.data.arguments), maxChars: max })}) · ${event.data.toolCallId}`;
    case "observation":
      return (
        `${event.data.toolName} ${event.data.ok ? "ok" : "failed"} · ${formatDuration(event.data.durationMs)} · ` +
        quote(event.data.result, max)
      );
    case "soft_limit":
      return `${event.data.reason}: ${quote(event.data.prompt, max)}`;
    case "compaction":
      return `${event.data.removedMessages} messages removed · ${event.data.tokensBefore} → ${event.data.tokensAfter} tokens`;
    case "retry":
      return `attempt ${event.data.attempt} in ${formatDuration(event.data.delayMs)} (${event.data.source}): ${truncateText({ text: event.data.error, maxChars: max })}`;
    case "error":
      return `${event.data.fatal ? "fatal " : ""}${event.data.name}: ${truncateText({ text: event.data.message, maxChars: max })}`;
    case "loop_end":
      return `${event.data.stopReason} · ${quote(event.data.text, max)}`;
    default:
      return "";
  }
}

function recordLine(record: TraceRecord, startedAt: number, max: number, s: AnsiStyle): string {
  const seq = `#${record.seq}`;
  switch (record.kind) {
    case "meta": {
      const d = record.data;
      const tools = d.tools.length === 0 ? "no tools" : `tools ${d.tools.join(", ")}`;
      const prior = d.messages.length > 0 ? ` · ${d.messages.length} prior messages` : "";
      return line({
        seq,
        label: "meta",
        paint: s.bold,
        detail: `${d.model} · ${tools}${prior} · ${new Date(d.startedAt).toISOString()}`,
      });
    }
    case "event": {
      const event = record.data;
      return line({
        seq,
        time: `+${formatDuration(event.timestamp - startedAt)}`,
        turn: `turn ${event.turn}`,
        nested: nestedPrefix(event.agent, s),
        label: event.type,
        paint: s.cyan,
        detail: eventDetail(event, max),
      });
    }
    case "model_request": {
      const { call, mode, request } = record.data;
      const tools = request.tools?.length ?? 0;
      return line({
        seq,
        turn: `call ${call}`,
        label: "model_request",
        paint: s.dim,
        detail: s.dim(`${mode} · ${plural(request.messages.length, "message")} · ${plural(tools, "tool")}`),
      });
    }
    case "model_response": {
      const { call, response } = record.data;
      const calls = response.toolCalls.map(
        (c) => `${c.name}(${truncateText({ text: c.rawArguments, maxChars: max })})`,
      );
      const text = response.text === "" ? [] : [quote(response.text, max)];
      const usage = `${formatCount(response.usage.inputTokens)} in / ${formatCount(response.usage.outputTokens)} out tokens`;
      return line({
        seq,
        turn: `call ${call}`,
        label: "model_response",
        paint: s.dim,
        detail: [...text, ...calls, usage, response.finishReason.unified].join(" · "),
      });
    }
    case "model_error":
      return line({
        seq,
        turn: `call ${record.data.call}`,
        label: "model_error",
        paint: s.red,
        detail: `${record.data.error.name}: ${truncateText({ text: record.data.error.message, maxChars: max })}`,
      });
    case "tool_result":
      return line({
        seq,
        label: "tool_result",
        paint: s.dim,
        detail: `${record.data.toolName} ${record.data.ok ? "ok" : "failed"} · ${quote(describeContent(record.data.result), max)}`,
      });
    default:
      return line({ seq, label: "unknown", detail: "" });
  }
}

/**
 * A recorded run as a readable timeline, one line per record: the meta record, each event (time since the
 * start, turn, type and what matters: tool calls with arguments, results, model calls with latency, tokens and
 * cost), model requests and responses, and tool results (images and files as short notes, never their
 * data). Consecutive `text_delta` events (of one agent) are folded into one line. A sub-agent's events
 * (`event.agent`, from `agent.asTool`) are indented by its depth after its path (`lead/researcher ›`); their
 * turns are the sub-agent's own.
 */
export function formatTraceTimeline({ trace, style, maxChars = 160 }: FormatTraceTimelineOptions): string[] {
  const first = trace.records[0];
  const startedAt = first?.kind === "meta" ? first.data.startedAt : 0;
  const lines: string[] = [];
  const records = trace.records;
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as TraceRecord;
    if (record.kind === "event" && record.data.type === "text_delta") {
      let text = record.data.data.delta;
      let j = i + 1;
      for (; j < records.length; j++) {
        const next = records[j] as TraceRecord;
        // Only the same agent's text is folded: a sub-agent's text never joins its caller's.
        if (next.kind !== "event" || next.data.type !== "text_delta") break;
        if (next.data.agent !== record.data.agent) break;
        text += next.data.data.delta;
      }
      const count = j - i;
      lines.push(
        line({
          seq: count > 1 ? `#${record.seq}-${record.seq + count - 1}` : `#${record.seq}`,
          time: `+${formatDuration(record.data.timestamp - startedAt)}`,
          turn: `turn ${record.data.turn}`,
          nested: nestedPrefix(record.data.agent, style),
          label: count > 1 ? `text_delta ×${count}` : "text_delta",
          paint: style.cyan,
          detail: quote(text, maxChars),
        }),
      );
      i = j - 1;
      continue;
    }
    lines.push(recordLine(record, startedAt, maxChars, style));
  }
  return lines;
}
