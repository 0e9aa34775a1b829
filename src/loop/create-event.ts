import { describeFailure } from "../util/to-error.js";
import type { AgentEventDataMap, AgentEventOf, AgentEventType } from "./agent-event.js";

/** Builds an event `{ type, turn, timestamp, data }`. */
export function createEvent<K extends AgentEventType>(
  type: K,
  turn: number,
  data: AgentEventDataMap[K],
): AgentEventOf<K> {
  return { type, turn, timestamp: Date.now(), data } as AgentEventOf<K>;
}

/**
 * A JSON-safe description of an error (`{ name, message }`). Never throws, whatever was thrown: values that
 * are not readable errors are described as a `ThrownValueError` (see `toError`).
 */
export function describeError(error: unknown): { name: string; message: string } {
  return describeFailure(error);
}
