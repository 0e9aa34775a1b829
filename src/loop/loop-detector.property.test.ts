import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../util/canonical-json.js";
import { type LoopDetectionOptions, LoopDetector } from "./loop-detector.js";

const optionsArbitrary: fc.Arbitrary<LoopDetectionOptions> = fc.record({
  window: fc.integer({ min: 1, max: 8 }),
  threshold: fc.integer({ min: 2, max: 5 }),
});

/** A call from a small alphabet (3 names × 3 arguments), so random sequences repeat themselves. */
const smallCallArbitrary = fc.tuple(
  fc.constantFrom("search", "read", "fetch"),
  fc.constantFrom<unknown>({ q: "x" }, { q: "y", page: 2 }, {}),
);

/** Distinct calls: a unique argument per call. */
function distinctCalls(count: number, name = "tool"): [string, unknown][] {
  return Array.from({ length: count }, (_, i) => [name, { n: i, filler: true }]);
}

/**
 * The specification, over the whole history (no memory bound): the newest call closes a loop when its
 * signature occurs `threshold` times in the last `window` calls, or the last `p * threshold` calls (p = 2, 3)
 * repeat a cycle of p distinct signatures.
 */
function referenceVerdict(history: readonly string[], { window, threshold }: LoopDetectionOptions) {
  const n = history.length;
  const last = history[n - 1];
  const same = history.slice(Math.max(0, n - window)).filter((s) => s === last).length;
  if (same >= threshold) return "same";
  for (const period of [2, 3]) {
    const span = period * threshold;
    if (n < span) continue;
    const tail = history.slice(n - span);
    const cycle = tail.every((s, i) => s === tail[i % period]);
    if (cycle && new Set(tail.slice(0, period)).size === period) return `cycle ${period}`;
  }
  return undefined;
}

function verdictOf(reason: string | undefined): string | undefined {
  if (reason === undefined) return undefined;
  if (/with the same arguments/.test(reason)) return "same";
  const cycle = /cycle of (\d) calls/.exec(reason);
  return cycle === null ? `unknown: ${reason}` : `cycle ${cycle[1]}`;
}

/** A copy of a JSON value with every object's keys in another order. */
function reorderKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item, i) => reorderKeys(item, seed + i));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  const rotated = entries.map((_, i) => entries[(i + seed) % entries.length]!).reverse();
  const copy: Record<string, unknown> = {};
  for (const [key, item] of rotated) {
    Object.defineProperty(copy, key, {
      value: reorderKeys(item, seed + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

function signaturesOf(detector: LoopDetector): readonly string[] {
  return (detector as unknown as { signatures: string[] }).signatures;
}

describe("LoopDetector properties", () => {
  it("never flags a sequence of distinct calls", () => {
    fc.assert(
      fc.property(optionsArbitrary, fc.integer({ min: 0, max: 60 }), (options, count) => {
        const detector = new LoopDetector(options);
        for (const [name, args] of distinctCalls(count)) expect(detector.add(name, args)).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it("flags a call made `threshold` times within the window exactly at its last repeat", () => {
    fc.assert(
      fc.property(
        optionsArbitrary,
        fc.integer({ min: 0, max: 10 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        smallCallArbitrary,
        (options, prefix, gaps, [name, args]) => {
          fc.pre(options.window >= options.threshold);
          // threshold copies, with distinct calls between them, all within `window` calls.
          let room = options.window - options.threshold;
          const sequence: [string, unknown][] = distinctCalls(prefix, "before");
          let filler = 0;
          for (let copy = 0; copy < options.threshold; copy++) {
            if (copy > 0) {
              const gap = Math.min(room, gaps[copy] ?? 0);
              room -= gap;
              for (let g = 0; g < gap; g++) sequence.push(["between", { n: filler++ }]);
            }
            sequence.push([name, args]);
          }
          const detector = new LoopDetector(options);
          const verdicts = sequence.map(([n, a]) => detector.add(n, a));
          expect(verdicts.slice(0, -1)).toEqual(verdicts.slice(0, -1).map(() => undefined));
          expect(verdictOf(verdicts[verdicts.length - 1])).toBe("same");
        },
      ),
      { numRuns: 150 },
    );
  });

  it("detects 2- and 3-cycles of distinct calls repeated `threshold` times", () => {
    fc.assert(
      fc.property(
        optionsArbitrary,
        fc.constantFrom(2, 3),
        fc.integer({ min: 0, max: 6 }),
        (options, period, prefix) => {
          const cycle = distinctCalls(period, "cycle");
          const sequence = [...distinctCalls(prefix, "before")];
          for (let r = 0; r < options.threshold; r++) sequence.push(...cycle);
          const detector = new LoopDetector(options);
          const verdicts = sequence.map(([n, a]) => detector.add(n, a));
          const first = verdicts.findIndex((v) => v !== undefined);
          // Flagged at the latest when the cycle completed its `threshold`-th round, never in the prefix.
          expect(first).toBeGreaterThanOrEqual(prefix);
          if (options.window <= period * (options.threshold - 1)) {
            // No call repeats `threshold` times within the window: only the cycle rule can fire, at the end.
            expect(first).toBe(sequence.length - 1);
            expect(verdictOf(verdicts[first])).toBe(`cycle ${period}`);
          } else {
            expect(first).not.toBe(-1);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("signs arguments canonically: key order never matters, different arguments never collide", () => {
    // Through JSON once: `fc.jsonValue` generates -0, which tool arguments (parsed JSON) never hold.
    const argsArbitrary = fc
      .jsonValue({ maxDepth: 3 })
      .map((value) => JSON.parse(JSON.stringify(value)) as unknown);
    fc.assert(
      fc.property(argsArbitrary, argsArbitrary, fc.nat(), (a, b, seed) => {
        expect(LoopDetector.signature("t", reorderKeys(a, seed))).toBe(LoopDetector.signature("t", a));
        // Canonical JSON is JSON of the same value, so equal signatures mean equal arguments.
        expect(JSON.parse(canonicalJson(a))).toEqual(a);
        const detector = new LoopDetector({ window: 4, threshold: 2 });
        detector.add("t", a);
        const repeated = detector.add("t", reorderKeys(a, seed + 1)) !== undefined;
        expect(repeated).toBe(true);
        if (canonicalJson(a) === canonicalJson(b)) expect(b).toEqual(a);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps bounded memory over long random sequences and decides exactly as the unbounded specification", () => {
    fc.assert(
      fc.property(
        optionsArbitrary,
        fc.array(smallCallArbitrary, { minLength: 50, maxLength: 400 }),
        (options, calls) => {
          const detector = new LoopDetector(options);
          const bound = 2 * Math.max(options.window, 3 * options.threshold);
          const history: string[] = [];
          for (const [name, args] of calls) {
            const verdict = verdictOf(detector.add(name, args));
            history.push(LoopDetector.signature(name, args));
            expect(verdict).toBe(referenceVerdict(history, options));
            expect(signaturesOf(detector).length).toBeLessThanOrEqual(bound);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
