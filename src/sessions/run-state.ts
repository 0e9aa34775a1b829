import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { JsonValue } from "../stores/session-store.js";

/**
 * A run's key-value state, given to tools as `ctx.state`. With a session it is loaded from the store and saved
 * back when changed (so it outlives compaction and the run); without one it lives for the run only. Values
 * are JSON, copied in and out, so a tool cannot change stored state by mutating what it read.
 */
export class RunState {
  private readonly values: Map<string, JsonValue>;
  private changed = false;

  constructor(initial: { readonly [key: string]: JsonValue } = {}) {
    this.values = new Map(Object.entries(initial));
  }

  /** The value at `key` (a copy), or undefined. */
  get(key: string): JsonValue | undefined {
    const value = this.values.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  /** Sets `key` to a JSON value (copied). Throws {@link InvalidArgumentError} for values that are not JSON. */
  set(key: string, value: JsonValue): void {
    let copy: JsonValue;
    try {
      copy = JSON.parse(JSON.stringify(value)) as JsonValue;
    } catch (error) {
      throw new InvalidArgumentError({
        argument: `state.${key}`,
        message: "expected a JSON value",
        cause: error,
      });
    }
    this.values.set(key, copy);
    this.changed = true;
  }

  /** Removes `key`. */
  delete(key: string): void {
    if (this.values.delete(key)) this.changed = true;
  }

  /** The keys, in insertion order. */
  keys(): string[] {
    return [...this.values.keys()];
  }

  /** True when something changed since the last `markSaved`. */
  get dirty(): boolean {
    return this.changed;
  }

  /** Records that the current values were persisted. */
  markSaved(): void {
    this.changed = false;
  }

  /** A plain JSON object of every value (for persisting). */
  toJSON(): { [key: string]: JsonValue } {
    return Object.fromEntries(this.values);
  }
}
