import type { BudgetCharges, BudgetReservation } from "../cost/budget.js";
import { callReservation, DEFAULT_RESERVED_OUTPUT_TOKENS } from "../cost/call-reservation.js";
import type { CostMeter, CostMeterEntry } from "../cost/cost-meter.js";
import type { Model, ModelResponse } from "../models/model.js";
import type { Usage } from "../models/usage.js";

/** Output tokens reserved for a call when `maxOutputTokens` is not set (see `callReservation`). */
export const DEFAULT_WORST_CASE_OUTPUT_TOKENS = DEFAULT_RESERVED_OUTPUT_TOKENS;

/** Options of {@link CostGuard}. */
export interface CostGuardOptions {
  meter: CostMeter;
  modelId: string;
  /** The run's cap (`limits.maxCostUsd`). */
  maxCostUsd?: number | undefined;
  /** A cap shared with other runs. */
  budget?: BudgetCharges | undefined;
}

/**
 * The cost policy of a run. Before each model call {@link admit} decides whether its reservation
 * (`callReservation`: estimated input plus `maxOutputTokens`, or 1,024 output tokens) still fits the run's cap
 * and the shared budget (reserving it in the budget); after it {@link price} records the call in the meter and
 * {@link settle} settles the reservation with the actual cost. Summary calls made while compacting are not
 * reserved: {@link chargeSummary} counts them for the cap and charges the budget as they happen.
 */
export class CostGuard {
  constructor(private readonly options: CostGuardOptions) {}

  /** True when there is a cap to check (otherwise callers skip the input estimate entirely). */
  get active(): boolean {
    return this.options.maxCostUsd !== undefined || this.options.budget !== undefined;
  }

  /** The cost reserved for a call with `inputTokens` of input (priced as `modelId`, default the run's model). */
  worstCase({
    inputTokens,
    maxOutputTokens,
    modelId = this.options.modelId,
  }: {
    inputTokens: number;
    maxOutputTokens: number | undefined;
    modelId?: string | undefined;
  }): number {
    const { price } = this.options.meter.priceOf(modelId);
    return callReservation({ price, inputTokens, maxOutputTokens });
  }

  /**
   * Admits a call: `false` when it could exceed a cap (stop with `cost_limit`), else the budget reservation to
   * settle (undefined without a budget).
   */
  async admit(args: {
    inputTokens: number;
    maxOutputTokens: number | undefined;
    /** The model the call goes to, when not the run's (a `prepareStep` override). */
    modelId?: string | undefined;
  }): Promise<BudgetReservation | undefined | false> {
    const worst = this.worstCase(args);
    const { maxCostUsd, budget, meter } = this.options;
    if (maxCostUsd !== undefined && meter.totalUsd + worst > maxCostUsd) return false;
    if (budget === undefined) return undefined;
    return (await budget.reserve(worst)) ?? false;
  }

  /**
   * Records a response in the meter, priced as the model it says answered, else as `modelId` (the model that
   * was called: the run's, or a fallback).
   */
  price(response: ModelResponse, modelId: string = this.options.modelId): CostMeterEntry {
    return this.options.meter.add({
      modelId,
      respondedModel: response.model,
      usage: response.usage,
    });
  }

  /** Settles a reservation with the call's actual cost (0 when it failed). */
  async settle(reservation: BudgetReservation | undefined, actualUsd: number): Promise<void> {
    if (reservation !== undefined) await this.options.budget?.settle(reservation, actualUsd);
  }

  /** A summary call (compaction): counted in the meter and charged to the shared budget now. */
  async chargeSummary({ model, usage }: { model: Model; usage: Usage }): Promise<void> {
    const { costUsd } = this.options.meter.add({ modelId: model.modelId, usage });
    await this.options.budget?.record(costUsd);
  }

  /** The run's spending so far: USD, and the models without a known price. */
  totals(): { costUsd: number; costUnknownModels: string[] } {
    const { meter } = this.options;
    return { costUsd: meter.totalUsd, costUnknownModels: [...meter.unknownModels] };
  }
}
