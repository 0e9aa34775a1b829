import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { canonicalJson } from "../util/canonical-json.js";
import { LoopDetector } from "./loop-detector.js";

const feed = (detector: LoopDetector, calls: Array<[string, unknown]>) =>
  calls.map(([n, a]) => detector.add(n, a));

describe("LoopDetector", () => {
  it("signs arguments canonically (key order does not matter, nesting included)", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(LoopDetector.signature("t", { a: 1, b: 2 })).toBe(LoopDetector.signature("t", { b: 2, a: 1 }));
  });

  it("flags the third identical call within the window, not before", () => {
    const results = feed(new LoopDetector(), [
      ["a", { x: 1 }],
      ["a", { x: 1 }],
      ["a", { x: 1 }],
    ]);
    expect(results.slice(0, 2)).toEqual([undefined, undefined]);
    expect(results[2]).toMatch(/3 times/);
  });

  it("counts repeats within the window only", () => {
    const results = feed(new LoopDetector({ window: 4, threshold: 3 }), [
      ["a", 1],
      ["b", 1],
      ["c", 1],
      ["d", 1],
      ["a", 1],
      ["e", 1],
      ["a", 1],
    ]);
    expect(results.every((r) => r === undefined)).toBe(true);
  });

  it("flags A,B alternation on the sixth call", () => {
    const results = feed(new LoopDetector(), [
      ["a", 1],
      ["b", 1],
      ["a", 1],
      ["b", 1],
      ["a", 1],
      ["b", 1],
    ]);
    expect(results.slice(0, 5).every((r) => r === undefined)).toBe(true);
    expect(results[5]).toMatch(/cycle of 2/);
  });

  it("does not flag distinct calls or a changing argument", () => {
    const detector = new LoopDetector();
    for (let i = 0; i < 50; i++) expect(detector.add("search", { page: i })).toBeUndefined();
  });

  it("rejects invalid settings", () => {
    expect(() => new LoopDetector({ window: 0, threshold: 3 })).toThrow(InvalidArgumentError);
    expect(() => new LoopDetector({ window: 4, threshold: 1 })).toThrow(InvalidArgumentError);
  });
});

describe("LoopDetector per response", () => {
  const roll = { name: "roll_dice", args: { sides: 6 } };

  it("counts identical calls of one response once (three dice rolls are not a loop)", () => {
    const detector = new LoopDetector();
    expect(detector.addResponse([roll, roll, roll])).toBeUndefined();
    expect(detector.addResponse([roll, roll, roll])).toBeUndefined();
    // The third response repeating the same call is a loop across turns.
    expect(detector.addResponse([roll, roll, roll])).toMatch(/roll_dice .* 3 times/);
  });

  it("flags the same call repeated across three responses", () => {
    const detector = new LoopDetector();
    expect(detector.addResponse([roll])).toBeUndefined();
    expect(detector.addResponse([roll])).toBeUndefined();
    expect(detector.addResponse([roll])).toMatch(/3 times/);
  });
});
