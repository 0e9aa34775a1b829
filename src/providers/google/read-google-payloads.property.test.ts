import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import { readGooglePayloads } from "./read-google-payloads.js";

// Gemini streams are SSE with `alt=sse` and one JSON array without it. Random payloads (strings full of
// braces, brackets, quotes and backslashes), written either way with random whitespace, cut at random places,
// must come out as the payloads that went in.

const tricky = fc.string({
  unit: fc.constantFrom("{", "}", "[", "]", '"', "\\", ",", " ", "\n", "a", "é", "😀"),
  maxLength: 12,
});
const valueArbitrary: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    tricky,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(tricky, tie("value"), { maxKeys: 3 }),
  ),
})).value;
const payloadArbitrary = fc.dictionary(tricky, valueArbitrary, { minKeys: 1, maxKeys: 4 });
const spaceArbitrary = fc.constantFrom("", "\n", "\r\n", " ", "\n\r\n");

async function* pieces(text: string, cuts: readonly number[]): AsyncGenerator<string> {
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut <= start || cut >= text.length) continue;
    yield text.slice(start, cut);
    start = cut;
  }
  yield text.slice(start);
}

async function read(text: string, cuts: readonly number[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const data of readGooglePayloads(pieces(text, cuts), { url: "http://test" })) {
    out.push(JSON.parse(data));
  }
  return out;
}

const cutsArbitrary = fc.array(fc.nat({ max: 4000 }), { maxLength: 40 });

describe("readGooglePayloads", () => {
  it("splits a JSON-array stream into its elements, cut anywhere", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(payloadArbitrary, spaceArbitrary), { minLength: 1, maxLength: 5 }),
        spaceArbitrary,
        cutsArbitrary,
        async (elements, lead, cuts) => {
          const text = `${lead}[${elements.map(([value, space]) => `${JSON.stringify(value, null, 2)}${space}`).join(",\r\n")}]`;
          expect(await read(text, cuts)).toEqual(elements.map(([value]) => value));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads SSE with CRLF event separators, cut anywhere", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(payloadArbitrary, { minLength: 1, maxLength: 5 }),
        cutsArbitrary,
        async (payloads, cuts) => {
          const text = payloads.map((value) => `data: ${JSON.stringify(value)}\r\n\r\n`).join("");
          expect(await read(text, cuts)).toEqual(payloads);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("stops at the closing bracket and ignores what follows", async () => {
    expect(await read('[{"a":1}\n,\r\n{"b":"]"}\n] trailing', [3, 10])).toEqual([{ a: 1 }, { b: "]" }]);
  });

  it("refuses an array whose elements are not objects", async () => {
    await expect(read('[{"a":1}, 42]', [])).rejects.toSatisfy(StreamInterruptedError.isInstance);
  });

  it("bounds an element that never ends (maxEventChars)", async () => {
    const chunks = (async function* () {
      yield '[{"text":"';
      for (let i = 0; i < 100; i++) yield "x".repeat(100);
    })();
    const read = async () => {
      for await (const _ of readGooglePayloads(chunks, { url: "http://test", maxEventChars: 1000 })) {
        // no element completes
      }
    };
    await expect(read()).rejects.toThrow(/limits.maxSseEventBytes/);
  });

  it("yields nothing for an empty body", async () => {
    expect(await read("", [])).toEqual([]);
  });
});
