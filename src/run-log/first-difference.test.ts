import { describe, expect, it } from "vitest";
import { firstDifference } from "./first-difference.js";

describe("firstDifference", () => {
  it("is null for JSON-equal values (key order and undefined properties do not matter)", () => {
    expect(
      firstDifference({
        expected: { a: 1, b: [1, { c: "x" }] },
        actual: { b: [1, { c: "x" }], a: 1, d: undefined },
      }),
    ).toBeNull();
  });

  it("gives the first differing path, keys in sorted order", () => {
    expect(
      firstDifference({
        expected: { messages: [{ role: "user", content: "a" }], tools: [] },
        actual: { messages: [{ role: "user", content: "b" }], tools: [1] },
      }),
    ).toEqual({ path: "messages[0].content", expected: "a", actual: "b" });
  });

  it("reports missing keys, extra items, type changes and odd keys", () => {
    expect(firstDifference({ expected: { a: 1 }, actual: {} })).toEqual({
      path: "a",
      expected: 1,
      actual: undefined,
    });
    expect(firstDifference({ expected: [1], actual: [1, 2] })).toEqual({
      path: "[1]",
      expected: undefined,
      actual: 2,
    });
    expect(firstDifference({ expected: { a: [1] }, actual: { a: { 0: 1 } } })).toMatchObject({ path: "a" });
    expect(firstDifference({ expected: { "x-y": 1 }, actual: { "x-y": 2 } })).toMatchObject({
      path: '["x-y"]',
    });
    expect(firstDifference({ expected: 1, actual: "1" })).toEqual({ path: "", expected: 1, actual: "1" });
  });
});
