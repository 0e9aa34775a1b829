import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import type { AgentEventOf } from "../loop/agent-event.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { Budget } from "./budget.js";
import { CostMeter, computeCost } from "./cost-meter.js";
import { findModelPrice } from "./model-pricing.js";

const usage = { inputTokens: 1000, outputTokens: 500 };
// gpt-4o-mini: $0.15 / M input, $0.60 / M output -> 0.00015 + 0.0003 per call
const PER_CALL = 0.00045;

const step = tool({
  name: "step",
  description: "a step",
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => n,
});
const endless = (modelId = "gpt-4o-mini") =>
  new ScriptedModel(
    (_request, index) => ({
      text: `thinking ${index}`,
      toolCalls: [{ name: "step", arguments: { n: index } }],
      usage,
    }),
    { modelId },
  );

describe("pricing", () => {
  it("matches exact ids, then the longest dated prefix, with overrides first", () => {
    expect(findModelPrice({ modelId: "gpt-4o-mini-2024-07-18" })?.inputPerMTok).toBe(0.15);
    expect(findModelPrice({ modelId: "gpt-4o-2024-08-06" })?.inputPerMTok).toBe(2.5);
    expect(findModelPrice({ modelId: "claude-haiku-4-5-20251001" })?.outputPerMTok).toBe(5);
    expect(
      findModelPrice({
        modelId: "gpt-4o-mini",
        pricing: { "gpt-4o-mini": { inputPerMTok: 9, outputPerMTok: 9 } },
      })?.inputPerMTok,
    ).toBe(9);
    expect(findModelPrice({ modelId: "my-local-llama" })).toBeUndefined();
  });

  it("bills cached input at the cached rate", () => {
    const price = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };
    const cost = computeCost({
      usage: { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000, totalTokens: 0 },
      price,
    });
    expect(cost).toBeCloseTo(0.6 * 2 + 0.4 * 0.5 + 0.1 * 8, 10);
  });

  it("bills cache reads and cache writes at their rates, the rest of the input at the input rate", () => {
    // Anthropic-style: reads 0.1 ×, writes 1.25 × input.
    const price = { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3, cacheWritePerMTok: 3.75 };
    const usage = {
      inputTokens: 1_000_000,
      cachedInputTokens: 600_000,
      cacheWriteTokens: 300_000,
      outputTokens: 10_000,
      totalTokens: 0,
    };
    // (1M − 0.6M − 0.3M) × 3 + 0.6M × 0.3 + 0.3M × 3.75 + 0.01M × 15 = 0.3 + 0.18 + 1.125 + 0.15
    expect(computeCost({ usage, price })).toBeCloseTo(1.755, 12);
    // Without a write rate, writes cost the input rate (OpenAI before GPT-5.6: no write fee).
    const { cacheWritePerMTok: _write, ...noWriteRate } = price;
    expect(computeCost({ usage, price: noWriteRate })).toBeCloseTo(0.3 + 0.18 + 0.9 + 0.15, 12);
    // A provider that reports no write count: all input but the reads at the input rate.
    const { cacheWriteTokens: _writes, ...readsOnly } = usage;
    expect(computeCost({ usage: readsOnly, price })).toBeCloseTo(1.2 + 0.18 + 0.15, 12);
  });

  it("clamps cache counts a provider reports above the input", () => {
    const price = { inputPerMTok: 1, outputPerMTok: 1, cachedInputPerMTok: 0.1, cacheWritePerMTok: 2 };
    const usage = {
      inputTokens: 1_000_000,
      cachedInputTokens: 800_000,
      cacheWriteTokens: 800_000,
      outputTokens: 0,
    };
    // 0.8M read, and only the 0.2M left written; nothing uncached, nothing negative.
    expect(computeCost({ usage: { ...usage, totalTokens: 0 }, price })).toBeCloseTo(0.08 + 0.4, 12);
    expect(computeCost({ usage: { ...usage, cachedInputTokens: -5, totalTokens: 0 }, price })).toBeCloseTo(
      0.2 + 1.6,
      12,
    );
  });

  it("takes cache rates from a pricing override", () => {
    const meter = new CostMeter({
      pricing: {
        "my-claude": { inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.2, cacheWritePerMTok: 4 },
      },
    });
    const entry = meter.add({
      modelId: "my-claude",
      usage: {
        inputTokens: 1000,
        cachedInputTokens: 500,
        cacheWriteTokens: 400,
        outputTokens: 10,
        totalTokens: 1010,
      },
    });
    expect(entry.costUsd).toBeCloseTo((100 * 2 + 500 * 0.2 + 400 * 4 + 10 * 10) / 1e6, 15);
  });

  it("flags models without a price and costs them at the fallback", () => {
    const meter = new CostMeter({ fallback: { inputPerMTok: 1, outputPerMTok: 1 } });
    expect(meter.add({ modelId: "mystery", usage: { ...usage, totalTokens: 1500 } })).toEqual({
      costUsd: 0.0015,
      priced: false,
      pricedAs: "mystery",
      firstUnpriced: true,
    });
    expect(meter.add({ modelId: "mystery", usage: { ...usage, totalTokens: 1500 } }).firstUnpriced).toBe(
      false,
    );
    expect([...meter.unknownModels]).toEqual(["mystery"]);
  });
});

describe("agent cost", () => {
  it("reports each call's cost on model_call and the total on the result", async () => {
    const model = new ScriptedModel(
      [
        { toolCalls: [{ name: "step", arguments: { n: 1 } }], usage },
        { text: "done", usage },
      ],
      { modelId: "gpt-4o-mini" },
    );
    const result = await new Agent({ model, tools: [step] }).run("go");
    const calls = result.events.filter((e): e is AgentEventOf<"model_call"> => e.type === "model_call");
    expect(calls.map((e) => e.data.costUsd)).toEqual([PER_CALL, PER_CALL].map((c) => expect.closeTo(c, 12)));
    expect(calls.every((e) => e.data.priced)).toBe(true);
    expect(result.costUsd).toBeCloseTo(2 * PER_CALL, 12);
    expect(result.costUnknownModels).toEqual([]);
  });

  it("flags an unknown model in the result", async () => {
    const result = await new Agent({
      model: new ScriptedModel([{ text: "hi", usage }], { modelId: "local-llm" }),
    }).run("go");
    expect(result.costUsd).toBe(0);
    expect(result.costUnknownModels).toEqual(["local-llm"]);
  });

  it("stops with cost_limit before a call whose worst case would exceed maxCostUsd, keeping the partial result", async () => {
    const model = endless();
    const result = await new Agent({
      model,
      tools: [step],
      loopDetection: false,
      maxOutputTokens: 1000, // reserved per call: 0.0006 output + the estimated input (calibrated)
      limits: { maxCostUsd: 0.0021, maxTurns: 50 },
    }).run("go");
    expect(result.stopReason).toBe("cost_limit");
    expect(model.calls).toHaveLength(4);
    expect(result.costUsd).toBeCloseTo(4 * PER_CALL, 12);
    expect(result.costUsd).toBeLessThanOrEqual(0.0021);
    expect(result.text).toBe("thinking 3");
    expect(result.usage.inputTokens).toBe(4000);
    expect(result.messages.at(-1)?.role).toBe("tool");
    expect(result.events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "cost_limit" } });
  });

  it("caps many runs together with a shared Budget, also when they run concurrently", async () => {
    const budget = new Budget({ limitUsd: 0.004 });
    const agent = new Agent({
      model: endless(),
      tools: [step],
      loopDetection: false,
      maxOutputTokens: 1000,
      budget,
    });
    const results = await Promise.all([agent.run("a"), agent.run("b"), agent.run("c")]);
    expect(results.every((r) => r.stopReason === "cost_limit")).toBe(true);
    const spent = results.reduce((sum, r) => sum + r.costUsd, 0);
    expect(budget.spentUsd).toBeCloseTo(spent, 12);
    expect((await budget.usage()).spentUsd).toBeCloseTo(spent, 12);
    expect(budget.spentUsd).toBeLessThanOrEqual(0.004);
    expect(budget.spentUsd).toBeGreaterThan(0.004 - 0.0007); // it was used, not refused early
    expect(budget.remainingUsd).toBeLessThan(0.0007);
    // A later run on the exhausted budget stops before any call.
    const model = endless();
    const late = await agent.with({ model }).run("d");
    expect(late.stopReason).toBe("cost_limit");
    expect(model.calls).toHaveLength(0);
  });

  it("validates the cap", () => {
    expect(() => new Agent({ model: endless(), limits: { maxCostUsd: -1 } })).toThrow(/maxCostUsd/);
    expect(() => new Budget({ limitUsd: Number.NaN })).toThrow(/limitUsd/);
  });
});
