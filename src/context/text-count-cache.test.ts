import { describe, expect, it, vi } from "vitest";
import { TextCountCache } from "./text-count-cache.js";
import { createTokenCounter } from "./token-counter.js";

const length = (text: string) => text.length;

describe("TextCountCache", () => {
  it("counts a text once and returns the same count for an equal string", () => {
    const cache = new TextCountCache();
    const count = vi.fn(length);
    expect(cache.count("hello world", count)).toBe(11);
    // A distinct string object with the same characters.
    expect(cache.count(["hello", "world"].join(" "), count)).toBe(11);
    expect(count).toHaveBeenCalledTimes(1);
  });

  it("evicts the least recently used text beyond maxEntries", () => {
    const cache = new TextCountCache({ maxEntries: 2 });
    const count = vi.fn(length);
    cache.count("a", count);
    cache.count("bb", count);
    cache.count("a", count); // "a" is now the most recent
    cache.count("ccc", count); // evicts "bb"
    expect(cache.size).toBe(2);
    expect(count).toHaveBeenCalledTimes(3);
    cache.count("a", count);
    expect(count).toHaveBeenCalledTimes(3);
    cache.count("bb", count);
    expect(count).toHaveBeenCalledTimes(4);
  });

  it("keeps the total characters within maxChars and never keeps a text over a quarter of it", () => {
    const cache = new TextCountCache({ maxChars: 100 });
    const count = vi.fn(length);
    for (let i = 0; i < 10; i++) cache.count(`${i}`.repeat(20), count);
    expect(cache.size).toBe(5); // 5 × 20 characters
    cache.count("x".repeat(26), count);
    cache.count("x".repeat(26), count);
    expect(count).toHaveBeenCalledTimes(12); // the long text was counted twice: never kept
    expect(cache.size).toBe(5);
  });

  it("with maxEntries 0 keeps nothing", () => {
    const cache = new TextCountCache({ maxEntries: 0 });
    const count = vi.fn(length);
    cache.count("a", count);
    cache.count("a", count);
    expect(count).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });
});

describe("the text cache in an exact counter", () => {
  it("gives exactly the tokenizer's counts (never fewer), CJK and emoji included, hit or miss", async () => {
    const tokenizer = await import("gpt-tokenizer/encoding/o200k_base");
    const uncached = createTokenCounter({
      encoding: "o200k_base",
      exact: true,
      countText: (text) => tokenizer.countTokens(text),
      textCache: false,
    });
    const cached = createTokenCounter({
      encoding: "o200k_base",
      exact: true,
      countText: (text) => tokenizer.countTokens(text),
      textCache: { maxEntries: 3 },
    });
    const texts = [
      "You are a careful assistant. Answer briefly.",
      "東京の天気は？明日は雨が降りますか。",
      "🌧️🌧️🌧️ weather: rain, 12°C",
      "function f(x) { return x * 2; }",
      "Привет, как дела?",
    ];
    // Twice around, through a cache smaller than the set: hits and misses both.
    for (const text of [...texts, ...texts, ...[...texts].reverse()]) {
      const expected = uncached.countText(text);
      expect(cached.countText(text)).toBe(expected);
      expect(cached.countMessage({ role: "user", content: text })).toBe(
        uncached.countMessage({ role: "user", content: text }),
      );
    }
    // CJK text is more than one token per several characters: what an estimate by length would miss.
    expect(uncached.countText(texts[1]!)).toBeGreaterThan(texts[1]!.length / 4);
  });
});
