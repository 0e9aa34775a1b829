import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_THROWNVALUEERROR = errorMarker("ThrownValueError");

/**
 * A tool, hook, model or store threw (or rejected with) something that is not a usable error: a string, a
 * BigInt, a Symbol, an object without a prototype, a circular object, a Proxy, or an Error whose `name`,
 * `message` or `stack` cannot be read. agentloop reports this error in its place; its message describes the
 * value as far as that can be done safely. The value itself is kept as `thrown` (not enumerable and not the
 * `cause`, so logging this error never runs the value's hostile code).
 */
export class ThrownValueError extends AgentloopError {
  protected readonly [MARK_THROWNVALUEERROR] = true;
  /** What was thrown: `"Proxy"`, `"bigint"`, `"symbol"`, `"string"`, `"object"`, `"Error"`, ... */
  readonly valueType: string;
  /** The thrown value, as is (handle with care: reading it may throw). */
  declare readonly thrown: unknown;

  constructor({
    valueType,
    description,
    thrown,
  }: { valueType: string; description: string; thrown: unknown }) {
    super({
      message:
        valueType === "Error"
          ? `An unreadable error was thrown: ${description}`
          : `A non-Error value was thrown: ${description}`,
    });
    this.name = "ThrownValueError";
    this.valueType = valueType;
    Object.defineProperty(this, "thrown", { value: thrown, enumerable: false });
  }

  static override isInstance(error: unknown): error is ThrownValueError {
    return hasMarker(error, MARK_THROWNVALUEERROR);
  }
}
