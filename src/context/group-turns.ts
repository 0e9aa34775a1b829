import type { Message } from "../models/message.js";

/** What a {@link TurnUnit} holds. */
export type TurnUnitKind =
  /** One user message. */
  | "user"
  /** One assistant message without tool calls. */
  | "assistant"
  /** An assistant message with tool calls and the tool results right after it that answer them. */
  | "tool_round"
  /** A system message after the leading ones (not pinned). */
  | "system"
  /** A tool result that answers no preceding call (an invalid history; see `validateHistory`). */
  | "orphan_tool_result";

/** An atomic unit of a history: compaction keeps or removes it whole. `messages.slice(start, end)`. */
export interface TurnUnit {
  kind: TurnUnitKind;
  /** Index of the unit's first message. */
  start: number;
  /** Index after the unit's last message. */
  end: number;
}

/** The result of {@link groupTurns}. */
export interface GroupedTurns {
  /** The number of leading system messages (pinned: compaction never removes them). */
  pinned: number;
  /** The units after the pinned messages, in order; together they cover every remaining message. */
  units: TurnUnit[];
}

/**
 * Partitions a history into the leading system messages and atomic units: a user message; an assistant
 * message without tool calls; an assistant message with tool calls together with the tool results that follow
 * it directly and answer its call ids (each id once). A tool result that answers no call of the assistant
 * message right before it becomes its own `orphan_tool_result` unit; a call without a result stays in its
 * round (`validateHistory` reports both). O(messages).
 */
export function groupTurns(messages: readonly Message[]): GroupedTurns {
  let pinned = 0;
  while (pinned < messages.length && messages[pinned]!.role === "system") pinned++;
  return { pinned, units: splitUnits(messages, pinned) };
}

/** The units of `messages` from index `from` on, without pinning system messages. Internal to compaction. */
export function splitUnits(messages: readonly Message[], from: number): TurnUnit[] {
  const units: TurnUnit[] = [];
  let i = from;
  while (i < messages.length) {
    const message = messages[i]!;
    const start = i;
    i++;
    if (message.role === "assistant" && message.toolCalls !== undefined && message.toolCalls.length > 0) {
      const open = new Set(message.toolCalls.map((call) => call.id));
      while (i < messages.length) {
        const next = messages[i]!;
        if (next.role !== "tool" || !open.delete(next.toolCallId)) break;
        i++;
      }
      units.push({ kind: "tool_round", start, end: i });
    } else {
      const kind = message.role === "tool" ? "orphan_tool_result" : message.role;
      units.push({ kind, start, end: i });
    }
  }
  return units;
}
