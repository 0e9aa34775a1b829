import { StoreError } from "../errors/store-error.js";
import { SESSION_RECORD_VERSION, type SessionRecord } from "./session-store.js";

/** Options of {@link parseSessionRecord}. */
export interface ParseSessionRecordOptions {
  /** A decoded record of unknown shape (from JSON, a database row, a Redis list entry). */
  value: unknown;
  /** The session the record belongs to (for the error). */
  sessionId: string;
  /** Where the record was read, for the error message: `"file /x/y.jsonl line 3"`, `"Redis list entry 4"`. */
  where: string;
  /** The operation reported by the error (default `"load"`). */
  operation?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks that a decoded value is a {@link SessionRecord} of a version this code understands and returns it.
 * Throws {@link StoreError} for a record from a newer schema version ("written by a newer agentloop") and for
 * anything that is not a record: a store never misreads or silently drops history. The check is shallow
 * (version, type, time and the payload's outer shape), so it stays cheap on long histories.
 */
export function parseSessionRecord(options: ParseSessionRecordOptions): SessionRecord {
  const { value, sessionId, where } = options;
  const operation = options.operation ?? "load";
  const fail = (problem: string): never => {
    throw new StoreError({
      message: `Session "${sessionId}": ${problem} (${where})`,
      operation,
      sessionId,
    });
  };
  if (!isObject(value)) return fail("a stored record is not an object");
  const { v, type, at } = value;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
    return fail("a stored record has no valid version");
  if (v > SESSION_RECORD_VERSION) {
    return fail(
      `a stored record has schema version ${v}, written by a newer agentloop (this one reads up to version ${SESSION_RECORD_VERSION}); upgrade agentloop to read this session`,
    );
  }
  if (typeof at !== "number" || !Number.isFinite(at)) return fail("a stored record has no valid time");
  switch (type) {
    case "message":
      if (!isObject(value.message) || typeof value.message.role !== "string") {
        return fail("a stored message record has no message");
      }
      if (value.appendId !== undefined && typeof value.appendId !== "string") {
        return fail("a stored message record has an invalid append id");
      }
      break;
    case "snapshot":
      if (!Array.isArray(value.messages) || !value.messages.every(isObject)) {
        return fail("a stored snapshot record has no message list");
      }
      break;
    case "state":
      if (!isObject(value.state)) return fail("a stored state record has no state object");
      break;
    default:
      return fail(`a stored record has an unknown type ${JSON.stringify(type)}`);
  }
  return value as SessionRecord;
}
