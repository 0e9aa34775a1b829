import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { EVERY_TRAP, errorWithThrowingGetters } from "../util/test-utils/hostile-values.js";
import { ThrownValueError } from "./thrown-value-error.js";
import { ToolExecutionError } from "./tool-execution-error.js";

describe("ToolExecutionError", () => {
  it("keeps a thrown Error as its cause", () => {
    const thrown = new RangeError("out of range");
    const error = new ToolExecutionError({ toolName: "t", cause: thrown });
    expect(error.cause).toBe(thrown);
    expect(error.message).toBe('Tool "t" failed: RangeError: out of range');
  });

  it.each([
    ["a Proxy whose every trap throws", () => new Proxy({}, EVERY_TRAP)],
    ["an Error whose getters throw", () => errorWithThrowingGetters()],
    ["a string", () => "boom"],
  ])("can be logged when the tool threw %s (util.inspect never throws)", (_name, make) => {
    const error = new ToolExecutionError({ toolName: "t", cause: make() });
    expect(() => inspect(error)).not.toThrow();
    expect(ThrownValueError.isInstance(error.cause)).toBe(true);
    expect(error.message).toMatch(/^Tool "t" failed: /);
  });
});
