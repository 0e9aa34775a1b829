import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonCopy, RawJson } from "./canonical-json.js";

/** The canonical text by definition: keys sorted at every level, then `JSON.stringify`. */
function reference(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== "object") return v;
    const record = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, sort(record[key])]),
    );
  };
  return JSON.stringify(sort(value)) ?? "null";
}

describe("canonicalJson", () => {
  it("sorts keys at every level, also keys already in order and integer-like keys", () => {
    const value = { b: 1, a: { z: [{ y: 1, x: 2 }], c: "d" }, 10: "ten", 9: "nine", m: { a: 1, b: 2 } };
    expect(canonicalJson(value)).toBe(
      '{"10":"ten","9":"nine","a":{"c":"d","z":[{"x":2,"y":1}]},"b":1,"m":{"a":1,"b":2}}',
    );
  });

  it("sorts the keys of a large object", () => {
    const value = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`k${(i * 7) % 40}`, { b: i, a: -i }]),
    );
    expect(canonicalJson(value)).toBe(reference(value));
    expect(canonicalJsonCopy(value).json).toBe(reference(value));
  });

  it("writes strings, numbers and booleans as JSON.stringify does, escapes and lone surrogates included", () => {
    const strings = [
      'quote " and \\ back',
      "tab\tnew\nline\u0001",
      "é ünïcode ✓ 😀",
      "lone \ud800 high",
      "\u2028",
    ];
    const numbers = [0, -0, 1.5, -2e-7, 1e21, Number.MAX_SAFE_INTEGER, Number.NaN, Infinity, -Infinity];
    const value = { strings, numbers, flags: [true, false], [strings[0] as string]: "key with escapes" };
    expect(canonicalJson(value)).toBe(reference(value));
    expect(canonicalJson("lone \udc00")).toBe('"lone \\udc00"');
    expect(canonicalJson({ n: -0, x: Number.NaN })).toBe('{"n":0,"x":null}');
  });

  it("leaves out undefined, functions and symbols in objects and writes null for them in arrays", () => {
    const value = { a: undefined, b: () => 1, c: Symbol("s"), d: [undefined, () => 1, Symbol("s"), null] };
    expect(canonicalJson(value)).toBe('{"d":[null,null,null,null]}');
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("honours toJSON, inserts RawJson as is, and throws for a bigint as JSON.stringify does", () => {
    const at = new Date(0);
    expect(canonicalJson({ at, raw: new RawJson('{"z":1,"a":2}'), list: [new RawJson("[1]")] })).toBe(
      '{"at":"1970-01-01T00:00:00.000Z","list":[[1]],"raw":{"z":1,"a":2}}',
    );
    expect(canonicalJson({ toJSON: () => ({ b: 1, a: 2 }) })).toBe('{"a":2,"b":1}');
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it("gives the same text as the reference for generated nested values (and canonicalJsonCopy a parse of it)", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const leaf = (): unknown =>
      [() => 's\u00e9\n"', () => random() * 1e6 - 5e5, () => random() > 0.5, () => null][
        Math.floor(random() * 4)
      ]?.();
    const make = (depth: number): unknown => {
      if (depth === 0 || random() < 0.3) return leaf();
      if (random() < 0.4) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth - 1));
      const keys = Array.from({ length: Math.floor(random() * 6) }, () => `k${Math.floor(random() * 20)}`);
      return Object.fromEntries(keys.map((key) => [key, make(depth - 1)]));
    };
    for (let i = 0; i < 200; i++) {
      const value = make(5);
      expect(canonicalJson(value)).toBe(reference(value));
      const { json, copy } = canonicalJsonCopy(value);
      expect(json).toBe(reference(value));
      expect(copy).toStrictEqual(JSON.parse(json));
    }
  });
});

describe("canonicalJsonCopy", () => {
  class Point {
    constructor(
      readonly y: number,
      readonly x: number,
    ) {}
  }

  it("returns the canonical text and a fresh plain copy equal to JSON.parse of it", () => {
    const shared = { b: [1, { d: "x" }], a: "y" };
    const value = {
      z: shared,
      n: [-0, Number.NaN, Infinity, undefined, () => 1, Symbol("s")],
      skip: undefined,
      fn: () => 1,
      at: new Date(0),
      point: new Point(1, 2),
      raw: new RawJson('{"k":[true]}'),
      own: JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
      custom: { toJSON: () => undefined },
    };
    const { json, copy } = canonicalJsonCopy(value);
    expect(json).toBe(canonicalJson(value));
    expect(copy).toStrictEqual(JSON.parse(json));
    const result = copy as Record<string, { b: unknown[] }>;
    expect(result.z).not.toBe(shared);
    expect(result.z?.b).not.toBe(shared.b);
    expect(Object.getPrototypeOf(result.point)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(result.own)).toBe(Object.prototype);
    expect(Object.hasOwn(result.own as object, "__proto__")).toBe(true);
    expect(Object.is((copy as { n: unknown[] }).n[0], 0)).toBe(true);
  });

  it("copies primitives and what JSON writes as null", () => {
    expect(canonicalJsonCopy("a\nb")).toEqual({ json: '"a\\nb"', copy: "a\nb" });
    expect(canonicalJsonCopy(undefined)).toEqual({ json: "null", copy: null });
    expect(canonicalJsonCopy([undefined])).toEqual({ json: "[null]", copy: [null] });
    expect(() => canonicalJsonCopy({ n: 1n })).toThrow(TypeError);
  });
});
