import { RunStreamError } from "../errors/run-stream-error.js";
import type { AgentEvent } from "../loop/agent-event.js";
import type { StreamedRunResult } from "./streamed-run-result.js";

function parseObject(data: string, what: string, url: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const message = `${url} sent ${what} that is not a JSON object: ${JSON.stringify(data.slice(0, 80))}`;
    throw new RunStreamError({ kind: "malformed", message, url });
  }
  return value as Record<string, unknown>;
}

/** An agent event message's data: `{ type, turn, timestamp, data }` (checked as far as its shape). */
export function parseAgentEvent(data: string, url: string): AgentEvent {
  const event = parseObject(data, "an event", url);
  if (typeof event.type !== "string" || typeof event.turn !== "number" || typeof event.data !== "object") {
    const message = `${url} sent an event without a type, turn and data: ${JSON.stringify(data.slice(0, 80))}`;
    throw new RunStreamError({ kind: "malformed", message, url });
  }
  return event as unknown as AgentEvent;
}

/** The `event: result` message's data. */
export function parseRunResult(data: string, url: string): StreamedRunResult {
  const result = parseObject(data, "a result", url);
  if (typeof result.stopReason !== "string" || typeof result.text !== "string") {
    const message = `${url} sent a result without a stopReason and text`;
    throw new RunStreamError({ kind: "malformed", message, url });
  }
  return result as unknown as StreamedRunResult;
}

/** The `event: error` message's data, as the error to throw. */
export function parseRunError(data: string, url: string): RunStreamError {
  const error = parseObject(data, "an error", url);
  const errorName = typeof error.name === "string" ? error.name.slice(0, 100) : "Error";
  const detail = typeof error.message === "string" ? error.message.slice(0, 2_000) : "(no message)";
  return new RunStreamError({ kind: "server", errorName, message: `${errorName}: ${detail}`, url });
}
