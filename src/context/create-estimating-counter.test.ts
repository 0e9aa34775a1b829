import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { createEstimatingCounter, estimateTokens } from "./create-estimating-counter.js";
import { TOKEN_CORPUS } from "./test-utils/token-corpus.js";

/** Samples in Latin script, code and data: where o200k_base and cl100k_base agree closely. */
const LATIN = [
  "englishProse",
  "englishChat",
  "englishTechnical",
  "typescript",
  "python",
  "jsonToolResult",
  "prettyJson",
  "markdown",
  "logLines",
  "url",
  "hex",
  "base64",
  "german",
  "french",
  "spanish",
  "whitespaceHeavy",
];

function errors(count: (text: string) => number, names: string[]) {
  let estimated = 0;
  let actual = 0;
  const relative = names.map((name) => {
    const text = TOKEN_CORPUS[name]!;
    const expected = count(text);
    const estimate = estimateTokens(text);
    estimated += estimate;
    actual += expected;
    return { name, error: (estimate - expected) / expected };
  });
  return { relative, total: (estimated - actual) / actual };
}

describe("estimateTokens", () => {
  it("is 0 for the empty string and grows with the text", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("hello")).toBe(1);
    expect(estimateTokens("hello world ".repeat(100))).toBeGreaterThan(
      estimateTokens("hello world ".repeat(10)),
    );
  });

  it("counts CJK characters close to one token each and Latin words close to one token", () => {
    expect(estimateTokens("数据分析数据分析")).toBeGreaterThanOrEqual(8);
    expect(estimateTokens("the cat sat on the mat")).toBe(6);
  });

  // The documented accuracy (see estimateTokens' JSDoc): within −30 %…+45 % per text of the corpus against
  // cl100k_base and within 5 % over the whole corpus; against o200k_base within −25 %…+30 % on Latin script,
  // code and data.
  it("stays within the documented error against cl100k_base on every corpus text", () => {
    const { relative, total } = errors((text) => cl100k.countTokens(text), Object.keys(TOKEN_CORPUS));
    for (const { name, error } of relative) {
      expect({ name, ok: error >= -0.3 && error <= 0.45 }).toEqual({ name, ok: true });
    }
    expect(Math.abs(total)).toBeLessThan(0.05);
  });

  it("stays within the documented error against o200k_base on Latin script, code and data", () => {
    const { relative, total } = errors((text) => o200k.countTokens(text), LATIN);
    for (const { name, error } of relative) {
      expect({ name, ok: error >= -0.25 && error <= 0.3 }).toEqual({ name, ok: true });
    }
    expect(Math.abs(total)).toBeLessThan(0.1);
  });

  it("never splits a surrogate pair into two estimates and handles lone surrogates", () => {
    expect(estimateTokens("🚀")).toBe(2);
    expect(Number.isFinite(estimateTokens("\ud83d"))).toBe(true);
  });
});

describe("createEstimatingCounter", () => {
  it("is a shared, inexact counter", () => {
    const counter = createEstimatingCounter();
    expect(counter).toBe(createEstimatingCounter());
    expect(counter).toMatchObject({ encoding: "estimate", exact: false });
    expect(counter.countText("hello world")).toBe(estimateTokens("hello world"));
  });
});
