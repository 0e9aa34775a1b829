import type { AgentEventDataMap, AgentEventOf, AgentEventType } from "./agent-event.js";

/** Builds an event `{ type, step, timestamp, data }`. */
export function createEvent<K extends AgentEventType>(
  type: K,
  step: number,
  data: AgentEventDataMap[K],
): AgentEventOf<K> {
  return { type, step, timestamp: Date.now(), data } as AgentEventOf<K>;
}

/** A JSON-safe one-line description of an error: `Name: message`. */
export function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}
