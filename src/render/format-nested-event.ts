import type { AgentEvent, AgentEventOf, StopReason } from "../loop/agent-event.js";
import type { AnsiStyle } from "./ansi-style.js";
import type { FormatEventOptions } from "./format-event.js";
import { formatCost, truncateText } from "./format-values.js";
import type { RunTotalsSnapshot } from "./run-totals.js";

/** Options of {@link formatNestedEvent}. */
export interface FormatNestedEventOptions {
  /** The options `formatEvent` was given, for an event with an `agent` path. */
  options: FormatEventOptions;
  /** The sub-agent's path (`event.agent`). */
  agent: string;
  /** The built-in rendering of an event as a run's own (`formatEvent`). */
  formatOwn: (options: FormatEventOptions) => string | undefined;
}

/** Where a sub-agent's lines go: indented by its depth, prefixed with its name. */
interface Nesting {
  indent: string;
  name: string;
}

/** A sub-agent's task in its start line is cut to this many characters. */
const MAX_TASK_CHARS = 120;

/**
 * The built-in rendering of an event of a sub-agent (`event.agent`, from `agent.asTool`): the event's own
 * rendering, dimmed, indented two spaces per level of nesting and prefixed with the sub-agent's name (the last
 * segment of its path), so it reads as part of the tool call that runs it. Its `loop_start` and `loop_end` read
 * as the sub-agent starting and finishing (`↳ researcher: done (completed, 2 turns, $0.0012)`, from the
 * sub-agent's `totals`); its answer is not printed again (the call's result shows it). Its streamed text goes on
 * its own prefixed lines (`lineOpen`: the line is already open), never into the caller's answer.
 */
export function formatNestedEvent({
  options,
  agent,
  formatOwn,
}: FormatNestedEventOptions): string | undefined {
  const segments = agent.split("/");
  const nesting: Nesting = {
    indent: "  ".repeat(Math.max(1, segments.length - 1)),
    name: segments.at(-1) || agent,
  };
  const { event, style } = options;
  // Each line is dimmed as a whole; inside it only colours (they do not end the dimming) are kept.
  const s = coloursOnly(style);
  const lines = (text: string, prefix: string, open = false): string =>
    nestedLines({ text, prefix, open, indent: nesting.indent, dim: style.dim });
  switch (event.type) {
    case "loop_start": {
      const what =
        event.data.task === ""
          ? "resumed"
          : `started · ${truncateText({ text: event.data.task, maxChars: MAX_TASK_CHARS })}`;
      return `${lines(s.cyan(`↳ ${nesting.name}: ${what}`), "")}\n`;
    }
    case "loop_end":
      return `${lines(formatNestedEnd({ event, s, name: nesting.name, totals: options.totals }), "")}\n`;
    case "text_delta":
    case "reasoning_delta": {
      // Streamed text goes on the sub-agent's own lines: its name where a line starts, unless the line is open.
      const own = formatOwn({ ...options, event: ownEvent(event), style: s });
      return own === undefined ? undefined : lines(own, `${nesting.name}: `, options.lineOpen === true);
    }
    default: {
      const own = formatOwn({ ...options, event: ownEvent(event), style: s });
      const prefix = event.type === "thought" ? `${nesting.name}: ` : `${nesting.name} `;
      return own === undefined ? undefined : lines(own, prefix);
    }
  }
}

/** The sub-agent's end: done or stopped, with its turns and cost; paused when it waits for an approval. */
function formatNestedEnd(args: {
  event: AgentEventOf<"loop_end">;
  s: AnsiStyle;
  name: string;
  totals: RunTotalsSnapshot;
}): string {
  const { event, s, name, totals: t } = args;
  const { stopReason } = event.data;
  if (stopReason === "awaiting_approval") return s.yellow(`↳ ${name}: paused (awaiting approval)`);
  const word = stopReason === "completed" || stopReason === "stop_condition" ? "done" : "stopped";
  const turns = `${t.turns} ${t.turns === 1 ? "turn" : "turns"}`;
  const cost = `${formatCost(t.costUsd)}${t.unpriced ? " unpriced" : ""}`;
  return colourOf(s, stopReason)(`↳ ${name}: ${word} (${stopReason}, ${turns}, ${cost})`);
}

function colourOf(s: AnsiStyle, reason: StopReason): (text: string) => string {
  if (reason === "completed" || reason === "stop_condition") return s.green;
  if (reason === "error" || reason === "aborted") return s.red;
  return s.yellow;
}

/**
 * `text` as a sub-agent's lines: each line that is not empty indented, prefixed and dimmed, except that the
 * first one only continues an `open` line (the sub-agent's streamed text so far).
 */
function nestedLines(args: {
  text: string;
  prefix: string;
  open: boolean;
  indent: string;
  dim: (text: string) => string;
}): string {
  const { text, prefix, open, indent, dim } = args;
  return text
    .split("\n")
    .map((line, i) => {
      if (line === "") return line;
      return i === 0 && open ? dim(line) : `${indent}${dim(`${prefix}${line}`)}`;
    })
    .join("\n");
}

/** The event without its `agent`, to be rendered as a run's own. */
function ownEvent(event: AgentEvent): AgentEvent {
  const { agent: _agent, ...own } = event;
  return own as AgentEvent;
}

/** `style` without bold and dim (a sub-agent's lines are dimmed as a whole), its colours kept. */
function coloursOnly(style: AnsiStyle): AnsiStyle {
  const same = (text: string): string => text;
  return { ...style, bold: same, dim: same };
}
