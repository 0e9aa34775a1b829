import { describe, expect, it } from "vitest";
import { loadPartialJsonParser, PartialOutput } from "./partial-output.js";

const parser = await loadPartialJsonParser();

describe("PartialOutput", () => {
  it("reports the growing object at each fragment of a small answer, only when it changed", () => {
    const partial = new PartialOutput(parser);
    const text = '{"city":"Paris","tags":["a","b"]}';
    const seen: unknown[] = [];
    for (const char of text) {
      const update = partial.add(char);
      if (update !== undefined) seen.push(update.partial);
    }
    const flushed = partial.flush();
    if (flushed !== undefined) seen.push(flushed.partial);
    expect(seen[0]).toEqual({});
    expect(seen).toContainEqual({ city: "Par" });
    expect(seen).toContainEqual({ city: "Paris", tags: ["a"] });
    expect(seen.at(-1)).toEqual({ city: "Paris", tags: ["a", "b"] });
    for (let i = 1; i < seen.length; i++) expect(seen[i]).not.toEqual(seen[i - 1]);
  });

  it("skips text before the JSON (a ```json fence) and reports nothing before an object starts", () => {
    const fenced = new PartialOutput(parser);
    expect(fenced.add('```json\n{"a":1')?.partial).toEqual({ a: 1 });
    const bad = new PartialOutput(parser);
    expect(bad.add("not json at all")).toBeUndefined();
  });

  it("parses a long answer a bounded number of times (work linear in its length)", () => {
    let calls = 0;
    const counting = (text: string) => {
      calls++;
      return parser(text);
    };
    const partial = new PartialOutput(counting);
    const items = Array.from({ length: 5_000 }, (_, i) => `"item-${i}"`).join(",");
    const text = `{"items":[${items}]}`;
    for (let i = 0; i < text.length; i += 4) partial.add(text.slice(i, i + 4));
    partial.flush();
    // ~55,000 fragments; parses are spaced geometrically (1/16 more text each time) after the first few.
    expect(text.length / 4).toBeGreaterThan(10_000);
    expect(calls).toBeLessThan(400);
  });
});
