import type { JsonValue, StateStore } from "./session-store.js";

/**
 * A {@link StateStore} in process memory. Values are copied (`structuredClone`) on save and on load, so a
 * caller cannot change a stored value by mutating the object it saved or loaded.
 */
export class MemoryStateStore implements StateStore {
  private readonly values = new Map<string, JsonValue>();

  /** Stores a copy of `value` under `key`. */
  async save(key: string, value: JsonValue): Promise<void> {
    this.values.set(key, structuredClone(value));
  }

  /** A copy of the value under `key`, or `undefined`. */
  async load(key: string): Promise<JsonValue | undefined> {
    const value = this.values.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  /** Removes `key` (no error when absent); with no key, removes every value. */
  async clear(key?: string): Promise<void> {
    if (key === undefined) this.values.clear();
    else this.values.delete(key);
  }

  /** Nothing to release; present for symmetry with the other stores. */
  async close(): Promise<void> {}
}
