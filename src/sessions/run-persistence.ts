import type { Message } from "../models/message.js";

/**
 * How the loop persists a run as it goes (implemented by the session layer): `flush` stores the messages
 * appended since the last flush (and the run state when it changed), `replace` stores a compacted history.
 * A rejection ends the run with stop reason `error` (the store keeps every step flushed before it).
 */
export interface RunPersistence {
  flush(messages: readonly Message[]): Promise<void>;
  replace(messages: readonly Message[]): Promise<void>;
}
