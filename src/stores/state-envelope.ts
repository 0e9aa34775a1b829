import { StoreError } from "../errors/store-error.js";
import { type JsonValue, SESSION_RECORD_VERSION } from "./session-store.js";

/** How a {@link StateStore} value is persisted by the file and Redis state stores: versioned, like session records. */
export interface StateEnvelope {
  /** Schema version ({@link SESSION_RECORD_VERSION}). */
  v: number;
  /** When it was saved (ms since epoch). */
  at: number;
  value: JsonValue;
}

/** Wraps a value for persisting. */
export function createStateEnvelope(value: JsonValue): StateEnvelope {
  return { v: SESSION_RECORD_VERSION, at: Date.now(), value };
}

/** Options of {@link parseStateEnvelope}. */
export interface ParseStateEnvelopeOptions {
  /** The stored JSON text. */
  text: string;
  key: string;
  /** Where it was read (for errors). */
  where: string;
}

/**
 * Reads a persisted {@link StateEnvelope} and returns its value. Throws {@link StoreError} for text that is not
 * an envelope and for an envelope from a newer schema version.
 */
export function parseStateEnvelope({ text, key, where }: ParseStateEnvelopeOptions): JsonValue {
  const fail = (problem: string, cause?: unknown): never => {
    throw new StoreError({ message: `State "${key}": ${problem} (${where})`, operation: "load", cause });
  };
  let envelope: Partial<StateEnvelope> | null;
  try {
    envelope = JSON.parse(text) as Partial<StateEnvelope> | null;
  } catch (error) {
    return fail("the stored value is corrupt", error);
  }
  if (typeof envelope !== "object" || envelope === null || !("value" in envelope)) {
    return fail("the stored value is not a state envelope");
  }
  const { v } = envelope;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
    return fail("the stored value has no valid version");
  if (v > SESSION_RECORD_VERSION) {
    return fail(
      `the stored value has schema version ${v}, written by a newer agentloop (this one reads up to version ${SESSION_RECORD_VERSION})`,
    );
  }
  return envelope.value as JsonValue;
}
