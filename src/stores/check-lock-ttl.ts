import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/**
 * Validates a store's or journal's `lockTtlMs` option: `undefined` (the default) or a finite number of
 * milliseconds of at least 30 (a lock is renewed every third of its lifetime). Returns it; throws
 * {@link InvalidArgumentError} otherwise.
 */
export function checkLockTtl(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 30) {
    throw new InvalidArgumentError({
      argument: "lockTtlMs",
      message: `expected a number of milliseconds >= 30, got ${String(value)}`,
    });
  }
  return value;
}
