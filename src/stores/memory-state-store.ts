import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { JsonValue, StateStore } from "./session-store.js";

/**
 * A {@link StateStore} in process memory. Values are kept as JSON text (what the persistent state stores
 * write): `save` serialises, `load` parses a fresh copy, so a caller cannot change a stored value by mutating
 * the object it saved or loaded, and a value JSON cannot hold fails on `save` as it would in a persistent store.
 */
export class MemoryStateStore implements StateStore {
  private readonly values = new Map<string, string>();

  /** Stores `value` under `key` (as its JSON text). */
  async save(key: string, value: JsonValue): Promise<void> {
    const text: unknown = JSON.stringify(value);
    if (typeof text !== "string") {
      throw new InvalidArgumentError({ argument: "value", message: `key "${key}": not a JSON value` });
    }
    this.values.set(key, text);
  }

  /** A copy of the value under `key`, or `undefined`. */
  async load(key: string): Promise<JsonValue | undefined> {
    const text = this.values.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  }

  /** Removes `key` (no error when absent); with no key, removes every value. */
  async clear(key?: string): Promise<void> {
    if (key === undefined) this.values.clear();
    else this.values.delete(key);
  }

  /** Nothing to release; present for symmetry with the other stores. */
  async close(): Promise<void> {}
}
