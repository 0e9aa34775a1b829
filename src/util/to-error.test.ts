import { describe, expect, it } from "vitest";
import { ModelCallError } from "../errors/model-call-error.js";
import { ThrownValueError } from "../errors/thrown-value-error.js";
import { describeThrown } from "./describe-thrown.js";
import { EVERY_TRAP, errorWithThrowingGetters, trap } from "./test-utils/hostile-values.js";
import { describeFailure, toError } from "./to-error.js";

function hostileValues(): unknown[] {
  const circular: Record<string, unknown> = { toString: trap };
  circular.self = circular;
  const badError = errorWithThrowingGetters();
  const protoProxy = Object.create(new Proxy({}, EVERY_TRAP));
  return [
    undefined,
    null,
    "text",
    42,
    10n,
    Symbol("s"),
    Object.create(null),
    circular,
    { toString: trap, valueOf: trap, toJSON: trap },
    badError,
    // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
    Object.defineProperty({}, "then", { get: trap, enumerable: true }),
    new Proxy({}, EVERY_TRAP),
    new Proxy(() => undefined, EVERY_TRAP),
    protoProxy,
    () => undefined,
  ];
}

describe("toError", () => {
  it("never throws, and always gives an Error whose name and message are strings", () => {
    for (const value of hostileValues()) {
      const error = toError(value);
      expect(error).toBeInstanceOf(Error);
      expect(typeof error.message).toBe("string");
      expect(typeof error.name).toBe("string");
      const described = describeFailure(value);
      expect(typeof described.message).toBe("string");
      expect(() => JSON.stringify(described)).not.toThrow();
      expect(typeof describeThrown(value).text).toBe("string");
    }
  });

  it("passes readable errors through as they are (isInstance still works)", () => {
    const error = new ModelCallError({ message: "boom", isRetryable: true });
    expect(toError(error)).toBe(error);
    const plain = new TypeError("bad");
    expect(toError(plain)).toBe(plain);
    expect(describeFailure(plain)).toEqual({ name: "TypeError", message: "bad" });
  });

  it("wraps anything else in a ThrownValueError that keeps the value out of logs", () => {
    const proxy = new Proxy({}, EVERY_TRAP);
    const error = toError(proxy);
    expect(ThrownValueError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      valueType: "Proxy",
      message: "A non-Error value was thrown: a Proxy object",
    });
    expect((error as ThrownValueError).thrown).toBe(proxy);
    expect(error.cause).toBeUndefined();
    expect(Object.keys(error)).not.toContain("thrown");
    expect(toError("boom").message).toBe('A non-Error value was thrown: the string "boom"');
    expect(toError({ code: 7 }).message).toBe('A non-Error value was thrown: an object ({"code":7})');
  });
});
