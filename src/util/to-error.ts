import { ThrownValueError } from "../errors/thrown-value-error.js";
import { describeThrown, type ThrownDescription } from "./describe-thrown.js";

/**
 * Turns anything that was thrown (or a promise was rejected with) into an `Error` that is safe to handle:
 * an error object whose `name`, `message` and `stack` read as strings is returned as is (so `isInstance`
 * checks and the user's own error classes still work); anything else (a string, a BigInt, a Symbol, an
 * object without a prototype, a circular object, a Proxy, an error with a throwing getter) becomes a
 * {@link ThrownValueError} describing it. Never throws, whatever it is given.
 */
export function toError(value: unknown): Error {
  return fromDescription(value, describeThrown(value));
}

function fromDescription(value: unknown, description: ThrownDescription): Error {
  if (description.error !== undefined) return value as Error;
  return new ThrownValueError({ valueType: description.type, description: description.text, thrown: value });
}

/**
 * The `{ name, message }` of a thrown value for an event or a message to the model (`describeThrown` rules).
 * Never throws.
 */
export function describeFailure(value: unknown): { name: string; message: string } {
  const description = describeThrown(value);
  if (description.error !== undefined) return description.error;
  const error = fromDescription(value, description);
  return { name: error.name, message: error.message };
}
