import type { AgentEvent, AgentEventOf, StopReason } from "../loop/agent-event.js";
import type { AnsiStyle } from "./ansi-style.js";
import { formatNestedEvent } from "./format-nested-event.js";
import {
  formatArgs,
  formatCost,
  formatCount,
  formatDuration,
  orderCallArgs,
  truncateText,
} from "./format-values.js";
import type { RunTotalsSnapshot } from "./run-totals.js";

/** Options of {@link formatEvent}. */
export interface FormatEventOptions {
  event: AgentEvent;
  style: AnsiStyle;
  /** Tool results (and other long texts) are cut to this many characters. */
  maxResultChars: number;
  /**
   * The run's totals, including this event (used by `model_call` and `loop_end`); for a sub-agent's event
   * (`event.agent` set), the totals of that sub-agent's run.
   */
  totals: RunTotalsSnapshot;
  /**
   * The text streamed (`text_delta`) in each turn so far, so that it is not printed twice; for a sub-agent's
   * event, the text that sub-agent streamed.
   */
  streamedText: ReadonlyMap<number, string>;
  /**
   * The last text printed was reasoning (`reasoning_delta`) of the same agent: more reasoning continues it,
   * without a label.
   */
  reasoningOpen?: boolean;
  /**
   * The last text printed was streamed text of the same type and agent as this event and its line is still
   * open: a sub-agent's streamed text continues that line without its name before it.
   */
  lineOpen?: boolean;
}

/** The label before streamed reasoning. */
const REASONING_LABEL = "thinking: ";

/** Arguments are cut to this many characters (results use `maxResultChars`). */
const MAX_ARGS_CHARS = 300;

/**
 * The built-in rendering of one event, as terminal text: a line (or a few) ending in `\n`, a streamed
 * `text_delta` as is, streamed reasoning dimmed (after a dim "thinking: " label where it starts), or `undefined`
 * for events that show nothing (e.g. a `thought` already streamed, or `tool_call_delta`: the call is shown
 * whole by its `action`). A sub-agent's event (`event.agent`) is dimmed, indented by its depth and prefixed with
 * the sub-agent's name; its start and end read `↳ researcher: started · …` and
 * `↳ researcher: done (completed, 2 turns, $0.0012)`.
 */
export function formatEvent(options: FormatEventOptions): string | undefined {
  const { event, style: s, maxResultChars } = options;
  if (typeof event.agent === "string") {
    return formatNestedEvent({ options, agent: event.agent, formatOwn: formatEvent });
  }
  const cut = (text: string, maxChars = maxResultChars): string => truncateText({ text, maxChars });
  switch (event.type) {
    case "loop_start":
      return event.data.task === ""
        ? `${s.dim(`▶ resuming · ${event.data.model}`)}\n`
        : `${s.bold(`▶ ${cut(event.data.task, 500)}`)}${s.dim(` · ${event.data.model}`)}\n`;
    case "model_call":
      return formatModelCall(event, s, options.totals.turns);
    case "text_delta":
      return event.data.delta === "" ? undefined : event.data.delta;
    case "reasoning_delta": {
      const delta = event.data.delta;
      if (typeof delta !== "string" || delta === "") return undefined;
      return options.reasoningOpen === true ? s.dim(delta) : s.dim(`${REASONING_LABEL}${delta}`);
    }
    case "tool_call_delta":
      return undefined;
    case "plan": {
      const steps = event.data.steps.map((step, i) =>
        step.type === "tool"
          ? `  ${i + 1}. ${step.name}(${cut(formatArgs(orderCallArgs(step.arguments)), MAX_ARGS_CHARS)})`
          : `  ${i + 1}. reply: ${cut(step.text)}`,
      );
      return `${s.magenta(`☰ plan${event.data.round > 0 ? ` (round ${event.data.round})` : ""}`)}\n${steps.join("\n")}\n`;
    }
    case "thought": {
      if (options.streamedText.get(event.turn)?.trim()) return undefined; // already on screen
      return `${event.data.content}\n`;
    }
    case "approval_requested":
      return event.data.calls
        .map(
          (call) =>
            `${s.yellow("? approval needed:")} ${s.bold(call.toolName)}(${cut(formatArgs(orderCallArgs(call.arguments)), MAX_ARGS_CHARS)})${inAgent(call, s)}\n`,
        )
        .join("");
    case "action":
      return `${s.cyan(`→ ${event.data.toolName}`)}(${cut(formatArgs(orderCallArgs(event.data.arguments)), MAX_ARGS_CHARS)})\n`;
    case "observation":
      return formatObservation(event, s, cut);
    case "user_message":
      return `${s.bold("› user:")} ${cut(event.data.content)}\n`;
    case "soft_limit":
      return `${s.yellow(`! soft limit (${event.data.reason}):`)} ${s.dim(cut(event.data.prompt))}\n`;
    case "compaction": {
      const d = event.data;
      const truncated =
        d.truncatedToolResults > 0 ? `, ${d.truncatedToolResults} tool results truncated` : "";
      return `${s.magenta(
        `⇣ compacted context: ${d.removedMessages} messages removed${truncated}, ` +
          `${formatCount(d.tokensBefore)} → ${formatCount(d.tokensAfter)} tokens (${d.strategy}, ${d.reason})`,
      )}\n`;
    }
    case "retry": {
      const d = event.data;
      const discarded = d.source === "stream" ? " — the streamed text of this turn is discarded" : "";
      return `${s.yellow(`↻ retry ${d.attempt} in ${formatDuration(d.delayMs)}: ${cut(d.error, 300)}${discarded}`)}\n`;
    }
    case "error":
      return event.data.fatal
        ? `${s.red(`✗ error: ${event.data.name}: ${cut(event.data.message, 1000)}`)}\n`
        : `${s.yellow(`! ${event.data.name}: ${cut(event.data.message, 1000)}`)}\n`;
    case "guardrail": {
      const d = event.data;
      const call = d.toolCallId === undefined ? "" : ` (${d.toolCallId})`;
      return `${s.red(`■ ${d.kind} guardrail ${d.name}${call} blocked: ${cut(d.reason, 300)}`)}\n`;
    }
    case "model_fallback": {
      const d = event.data;
      return `${s.yellow(`⇄ ${d.from} failed (${cut(d.error, 300)}); falling back to ${d.to}`)}\n`;
    }
    case "output_invalid": {
      const d = event.data;
      const next = d.retry ? "sent back to the model" : "no retries left";
      return `${s.yellow(`! typed answer invalid (${next}): ${cut(d.errors.join("; "), 300)}`)}\n`;
    }
    case "loop_end":
      return formatLoopEnd(event, options);
    default:
      return undefined;
  }
}

/** ` · in lead/researcher` for a pending call inside a sub-agent (its path), else "". */
function inAgent(call: object, s: AnsiStyle): string {
  const agent = (call as { agent?: unknown }).agent;
  return typeof agent === "string" && agent !== "" ? s.dim(` · in ${agent}`) : "";
}

/** `turn` counts the run's model calls (a resumed run goes on counting; `event.turn` restarts). */
function formatModelCall(event: AgentEventOf<"model_call">, s: AnsiStyle, turn: number): string {
  const d = event.data;
  const cost = `${formatCost(d.costUsd)}${d.priced ? "" : " (unpriced)"}`;
  const tokens = `${formatCount(d.usage.inputTokens)} in / ${formatCount(d.usage.outputTokens)} out tokens`;
  return `${s.dim(`· turn ${turn}: ${d.model} · ${formatDuration(d.latencyMs)} · ${tokens} · ${cost} · ${d.finishReason.unified}`)}\n`;
}

function formatObservation(
  event: AgentEventOf<"observation">,
  s: AnsiStyle,
  cut: (text: string) => string,
): string {
  const d = event.data;
  const took = s.dim(` (${formatDuration(d.durationMs)})`);
  if (d.ok) return `${s.green(`← ${d.toolName}:`)} ${cut(d.result)}${took}\n`;
  return `${s.red(`✗ ${d.toolName} failed:`)} ${cut(d.result)}${took}\n`;
}

/** The colour of the totals line for each stop reason. */
function stopColour(s: AnsiStyle, reason: StopReason): (text: string) => string {
  if (reason === "completed") return s.green;
  if (reason === "error" || reason === "aborted") return s.red;
  return s.yellow;
}

function formatLoopEnd(event: AgentEventOf<"loop_end">, options: FormatEventOptions): string {
  const { style: s, totals: t } = options;
  const { stopReason, text } = event.data;
  if (stopReason === "awaiting_approval") return `${s.yellow("⏸ paused: awaiting approval")}\n`;
  let streamed = false;
  for (const chunk of options.streamedText.values()) if (chunk.trim() === text.trim()) streamed = true;
  const answer = text !== "" && !streamed ? `\n${text}\n` : "";
  const cost = `${formatCost(t.costUsd)}${t.unpriced ? " (unpriced)" : ""}`;
  const tokens = `${formatCount(t.totalTokens)} tokens (${formatCount(t.inputTokens)} in / ${formatCount(t.outputTokens)} out)`;
  const turns = `${t.turns} ${t.turns === 1 ? "turn" : "turns"}`;
  const line = `■ ${stopReason} · ${turns} · ${tokens} · ${cost} · ${formatDuration(t.durationMs)}`;
  return `${answer}\n${stopColour(s, stopReason)(s.bold(line))}\n`;
}
