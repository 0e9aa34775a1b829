import type { AgentEventOf } from "../loop/agent-event.js";
import type { EventId } from "./event-id.js";
import type { RunItem } from "./run-entry.js";
import { formatEventMessage } from "./sse-format.js";

/** What to do with a message of a stream replayed for a client: skip it, send it, or send a retry marker first. */
export type SeenDecision = "skip" | "send" | "mark";

/**
 * Skips what a client saw, in a stream of the run it did not get it from (a replay of the run log, or a stream
 * whose ring no longer holds its last message), by the ids' stable numbering (see `EventId`):
 *
 * - stable events up to the last one the client saw are skipped; every later message is sent;
 * - the messages after that stable event (its volatile ones) cannot be matched one for one: when they hold the
 *   turn's streamed fragments and the client had seen some, a `retry` event with source "stream" is sent first
 *   (discard what this turn streamed, as after any retry) and the fragments are sent again, whole; other volatile
 *   messages (warnings, a sub-agent's events) are skipped as many as the client saw.
 */
export class SeenFilter {
  private readonly last: EventId;
  private active: boolean;
  private skippedVolatile = 0;

  /** `last`: the id of the last message the client saw. */
  constructor(last: EventId) {
    this.last = last;
    this.active = last.stable > 0 || last.volatile > 0;
  }

  /** The decision for the next message. */
  decide(item: RunItem): SeenDecision {
    if (!this.active) return "send";
    const { stable, volatile } = item.id;
    if (stable < this.last.stable || (stable === this.last.stable && volatile === 0)) return "skip";
    if (stable === this.last.stable && item.kind !== "delta" && this.skippedVolatile < this.last.volatile) {
      this.skippedVolatile++;
      return "skip";
    }
    this.active = false;
    return stable === this.last.stable && item.kind === "delta" && this.last.volatile > 0 ? "mark" : "send";
  }
}

/** The `retry` marker sent before a turn's fragments are sent again (no id: it is not part of the run). */
export function retryMarker(turn: number): string {
  // Built here, not with the loop's createEvent: agentloop/web loads no Node built-in (edge runtimes).
  const event: AgentEventOf<"retry"> = {
    type: "retry",
    turn,
    timestamp: Date.now(),
    data: {
      attempt: 0,
      delayMs: 0,
      error: "the stream was resumed from the run log: what this turn streamed is sent again",
      source: "stream",
    },
  };
  return formatEventMessage(undefined, event);
}
