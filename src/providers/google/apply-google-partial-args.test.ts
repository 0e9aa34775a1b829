import { describe, expect, it } from "vitest";
import { applyGooglePartialArgs, parseGoogleJsonPath } from "./apply-google-partial-args.js";

describe("applyGooglePartialArgs", () => {
  it("appends string pieces at their path and sets numbers, booleans and null", () => {
    const args: Record<string, unknown> = {};
    applyGooglePartialArgs(args, [
      { jsonPath: "$.id", stringValue: "A", willContinue: true },
      { jsonPath: "$.id", stringValue: "BC" },
      { jsonPath: "$.page.size", numberValue: 20 },
      { jsonPath: "$.tags[0]", stringValue: "x" },
      { jsonPath: "$.tags[1]", stringValue: "y" },
      { jsonPath: "$['a key']", boolValue: true },
      { jsonPath: "$.none", nullValue: "NULL_VALUE" },
    ]);
    expect(args).toEqual({ id: "ABC", page: { size: 20 }, tags: ["x", "y"], "a key": true, none: null });
  });

  it("skips paths it does not understand, holes in arrays and keys that would reach a prototype", () => {
    const args: Record<string, unknown> = {};
    applyGooglePartialArgs(args, [
      { jsonPath: "id", stringValue: "no $" },
      { jsonPath: "$.list[4294967294]", stringValue: "far" },
      { jsonPath: "$.__proto__.polluted", stringValue: "yes" },
    ]);
    expect(args).toEqual({ ["__proto__"]: { polluted: "yes" } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it("parses JSON paths", () => {
    expect(parseGoogleJsonPath("$.a[2]['b.c'][\"d\"]")).toEqual(["a", 2, "b.c", "d"]);
    expect(parseGoogleJsonPath("$")).toEqual([]);
    expect(parseGoogleJsonPath("$..a")).toBeUndefined();
  });
});
