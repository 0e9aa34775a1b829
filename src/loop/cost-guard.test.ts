import { describe, expect, it } from "vitest";
import type { BudgetCharges, BudgetReservation } from "../cost/budget.js";
import { CostMeter } from "../cost/cost-meter.js";
import type { ModelResponse } from "../models/model.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { CostGuard } from "./cost-guard.js";

const PRICING = {
  "m-1": { inputPerMTok: 1, outputPerMTok: 2 },
  "m-2": { inputPerMTok: 10, outputPerMTok: 20 },
};
const meter = () => new CostMeter({ pricing: PRICING });
const response = (model?: string): ModelResponse => ({
  text: "ok",
  toolCalls: [],
  usage: { inputTokens: 1_000_000, outputTokens: 1_000_000, totalTokens: 2_000_000 },
  finishReason: { unified: "stop", raw: "stop" },
  ...(model !== undefined && { model }),
});

/** A budget that records what the run charged to it. */
const recordingBudget = (fits = true) => {
  const log: string[] = [];
  const budget: BudgetCharges = {
    reserve: async (usd) => {
      log.push(`reserve ${usd}`);
      return fits ? ({ usd } as unknown as BudgetReservation) : undefined;
    },
    settle: async (_r, usd) => void log.push(`settle ${usd}`),
    record: async (usd) => void log.push(`record ${usd}`),
  };
  return { budget, log };
};

describe("CostGuard", () => {
  it("is inactive without a cap or a budget, active with either", () => {
    expect(new CostGuard({ meter: meter(), modelId: "m-1" }).active).toBe(false);
    expect(new CostGuard({ meter: meter(), modelId: "m-1", maxCostUsd: 1 }).active).toBe(true);
    expect(new CostGuard({ meter: meter(), modelId: "m-1", budget: recordingBudget().budget }).active).toBe(
      true,
    );
  });

  it("refuses a call whose worst case would pass the run's cap", async () => {
    const guard = new CostGuard({ meter: meter(), modelId: "m-1", maxCostUsd: 1 });
    // 1M input tokens at $1 + 1,024 output tokens: just over $1.
    expect(await guard.admit({ inputTokens: 1_000_000, maxOutputTokens: undefined })).toBe(false);
    expect(await guard.admit({ inputTokens: 1000, maxOutputTokens: 10 })).toBeUndefined();
  });

  it("reserves the worst case in the budget, refuses when it does not fit, and settles the actual cost", async () => {
    const { budget, log } = recordingBudget();
    const guard = new CostGuard({ meter: meter(), modelId: "m-1", budget });
    const reservation = await guard.admit({ inputTokens: 1_000_000, maxOutputTokens: 500_000 });
    expect(reservation).toEqual({ usd: 2 });
    await guard.settle(reservation as BudgetReservation, 1.5);
    expect(log).toEqual(["reserve 2", "settle 1.5"]);
    const full = new CostGuard({ meter: meter(), modelId: "m-1", budget: recordingBudget(false).budget });
    expect(await full.admit({ inputTokens: 1, maxOutputTokens: 1 })).toBe(false);
  });

  it("prices a response as the model it says answered, and adds it to the run's total", () => {
    const guard = new CostGuard({ meter: meter(), modelId: "m-1" });
    expect(guard.price(response()).costUsd).toBe(3);
    expect(guard.price(response("m-2"))).toMatchObject({ costUsd: 30, pricedAs: "m-2" });
    expect(guard.totals()).toEqual({ costUsd: 33, costUnknownModels: [] });
  });

  it("charges a summary call to the meter and records it in the budget at once", async () => {
    const { budget, log } = recordingBudget();
    const guard = new CostGuard({ meter: meter(), modelId: "m-1", budget });
    await guard.chargeSummary({ model: new ScriptedModel([], { modelId: "m-2" }), usage: response().usage });
    expect(log).toEqual(["record 30"]);
    expect(guard.totals().costUsd).toBe(30);
  });

  it("lists the models it could not price", () => {
    const guard = new CostGuard({ meter: meter(), modelId: "unknown-x" });
    expect(guard.price(response()).firstUnpriced).toBe(true);
    expect(guard.totals()).toEqual({ costUsd: 0, costUnknownModels: ["unknown-x"] });
  });
});
