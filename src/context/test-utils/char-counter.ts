import { createTokenCounter, type TokenCounter } from "../token-counter.js";

/** A predictable counter for tests: one token per character (plus the usual message overhead). */
export function charCounter(): TokenCounter {
  return createTokenCounter({ encoding: "chars", exact: false, countText: (text) => text.length });
}
