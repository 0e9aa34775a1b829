import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { AgentEvent, AgentEventType } from "../loop/agent-event.js";

/**
 * The id of one message of a run's SSE stream (its `id:` line, sent back as `Last-Event-ID`):
 *
 * - a **stable** event (one a replay of the durable run's log reproduces: `loop_start`, `turn_start`,
 *   `model_call`, `thought`, `action`, `observation`, `approval_requested`, `user_message`, `compaction`, ...)
 *   is numbered by how many stable events came before it, from 1: `id: 7`;
 * - any other message (streamed fragments, retries, fallbacks, warnings, soft limits, a sub-agent's events) is
 *   numbered after the last stable event, within the stream that sent it: `id: 7.3.k2x9qa` (the third such
 *   message after stable event 7, in stream `k2x9qa`).
 *
 * So a stable id names the same event in every stream of the run (the live one, a replay in another process),
 * and a volatile id only in the stream that sent it.
 */
export interface EventId {
  /** Stable events up to and including this message. */
  stable: number;
  /** 0 for a stable event; otherwise the message's rank after the last stable event, from 1. */
  volatile: number;
  /** The stream a volatile id belongs to. */
  epoch?: string;
}

/** How a message counts for resumption: stable, a top-level streamed fragment (`delta`), or other volatile. */
export type EventKind = "stable" | "delta" | "volatile";

/** The most stable events (or volatile messages after one) an id may count: beyond, it is not ours. */
const MAX_ID_NUMBER = 1e12;

/** Event types a replay of the run log may not reproduce one for one (timing, retries, failing hooks). */
const VOLATILE = new Set<AgentEventType>(["retry", "model_fallback", "soft_limit", "error"]);
/** Streamed fragments of a turn: voided by a `retry` event with source "stream". */
const DELTAS = new Set<AgentEventType>(["text_delta", "reasoning_delta", "tool_call_delta", "output_delta"]);

/** The kind of an event (see {@link EventId}). A sub-agent's events are volatile: its log replays them. */
export function eventKind(event: AgentEvent): EventKind {
  if (event.agent !== undefined) return "volatile";
  if (DELTAS.has(event.type)) return "delta";
  return VOLATILE.has(event.type) ? "volatile" : "stable";
}

/** The text of an id. */
export function formatEventId(id: EventId): string {
  return id.volatile === 0 ? String(id.stable) : `${id.stable}.${id.volatile}.${id.epoch ?? ""}`;
}

/**
 * Reads a `Last-Event-ID`. `undefined`, "" and "0" mean nothing was seen. Throws `InvalidArgumentError` for
 * anything that is not an id of {@link EventId}'s form.
 */
export function parseEventId(text: string | null | undefined): EventId {
  if (text === undefined || text === null || text === "") return { stable: 0, volatile: 0 };
  const match = /^(\d{1,13})(?:\.(\d{1,13})\.([a-z0-9]{1,16}))?$/.exec(text);
  const stable = Number(match?.[1]);
  const volatile = match?.[2] === undefined ? 0 : Number(match[2]);
  if (match === null || stable > MAX_ID_NUMBER || volatile > MAX_ID_NUMBER) {
    throw new InvalidArgumentError({
      argument: "lastEventId",
      message: `expected an event id such as "7" or "7.3.k2x9qa", got ${JSON.stringify(text.slice(0, 40))}`,
    });
  }
  return volatile === 0 ? { stable, volatile } : { stable, volatile, epoch: match[3] as string };
}

/** True when `a` and `b` are the same id (a volatile id only within its stream). */
export function sameEventId(a: EventId, b: EventId): boolean {
  return a.stable === b.stable && a.volatile === b.volatile && (a.volatile === 0 || a.epoch === b.epoch);
}

/** Numbers the messages of one stream (see {@link EventId}). */
export class EventIdCounter {
  /** This stream's epoch: the tag of its volatile ids. */
  readonly epoch = Math.random().toString(36).slice(2, 8).padEnd(6, "0");
  private stable = 0;
  private volatile = 0;

  /** The id and kind of the next message, `event`. */
  next(event: AgentEvent): { id: EventId; kind: EventKind } {
    const kind = eventKind(event);
    if (kind === "stable") {
      this.stable++;
      this.volatile = 0;
      return { id: { stable: this.stable, volatile: 0 }, kind };
    }
    this.volatile++;
    return { id: { stable: this.stable, volatile: this.volatile, epoch: this.epoch }, kind };
  }
}
