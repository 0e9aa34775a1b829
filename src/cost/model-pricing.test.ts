import { describe, expect, it } from "vitest";
import { DEFAULT_PRICING, findModelPrice } from "./model-pricing.js";

const entries = Object.entries(DEFAULT_PRICING);

describe("DEFAULT_PRICING", () => {
  it("prices Anthropic cache writes at 1.25 × input and reads at 0.1 × (0.05 × for the 5.5 models)", () => {
    const claude = entries.filter(([id]) => id.startsWith("claude-"));
    expect(claude.length).toBeGreaterThan(10);
    for (const [id, price] of claude) {
      expect(price.cacheWritePerMTok, id).toBeCloseTo(price.inputPerMTok * 1.25, 12);
      const readShare = id.endsWith("-5-5") ? 0.05 : 0.1;
      expect(price.cachedInputPerMTok, id).toBeCloseTo(price.inputPerMTok * readShare, 12);
    }
  });

  it("gives every OpenAI model a cached-input rate below its input rate and no write fee", () => {
    const openai = entries.filter(([id]) => !id.startsWith("claude-"));
    for (const [id, price] of openai) {
      expect(price.cachedInputPerMTok, id).toBeLessThan(price.inputPerMTok);
      expect(price.cacheWritePerMTok, id).toBeUndefined();
    }
  });

  it("prices newer ids as themselves, never as an older id they extend", () => {
    // "claude-opus-4-5-…" once fell back to "claude-opus-4" ($15): it is $5.
    expect(findModelPrice({ modelId: "claude-opus-4-5-20251101" })?.inputPerMTok).toBe(5);
    expect(findModelPrice({ modelId: "claude-opus-4-1-20250805" })?.inputPerMTok).toBe(15);
    expect(findModelPrice({ modelId: "claude-opus-5-5" })?.inputPerMTok).toBe(4);
    expect(findModelPrice({ modelId: "claude-sonnet-4-5-20250929" })?.cacheWritePerMTok).toBe(3.75);
    expect(findModelPrice({ modelId: "gpt-5.4-mini-2026-03-17" })?.inputPerMTok).toBe(0.75);
    expect(findModelPrice({ modelId: "gpt-5-mini-2025-08-07" })?.inputPerMTok).toBe(0.25);
    // Left out on purpose (priced by prompt length, or a promotional price): flagged, not guessed.
    expect(findModelPrice({ modelId: "claude-haiku-5-5" })).toBeUndefined();
    expect(findModelPrice({ modelId: "gpt-5.6-sol" })).toBeUndefined();
  });
});

describe("Gemini prices", () => {
  it("prices Gemini models, dated and preview ids by their family's longest prefix", () => {
    expect(findModelPrice({ modelId: "gemini-2.5-flash" })?.inputPerMTok).toBe(0.3);
    expect(findModelPrice({ modelId: "gemini-2.5-flash-lite-preview-09-2025" })?.inputPerMTok).toBe(0.1);
    expect(findModelPrice({ modelId: "gemini-2.5-pro" })?.outputPerMTok).toBe(10);
  });
});

describe("Bedrock ids", () => {
  it("price as the model they wrap, and a table entry for the Bedrock id itself wins", () => {
    const sonnet = findModelPrice({ modelId: "claude-sonnet-4-5" });
    expect(findModelPrice({ modelId: "us.anthropic.claude-sonnet-4-5-20250929-v1:0" })).toEqual(sonnet);
    expect(findModelPrice({ modelId: "anthropic.claude-sonnet-4-5-20250929-v1:0" })).toEqual(sonnet);
    expect(findModelPrice({ modelId: "global.anthropic.claude-sonnet-4-5-v1" })).toEqual(sonnet);
    expect(findModelPrice({ modelId: "us.amazon.nova-micro-v1:0" })).toBeUndefined();
    const own = { inputPerMTok: 9, outputPerMTok: 9 };
    const pricing = { "us.anthropic.claude-sonnet-4-5-20250929-v1:0": own };
    expect(findModelPrice({ modelId: "us.anthropic.claude-sonnet-4-5-20250929-v1:0", pricing })).toBe(own);
  });
});
