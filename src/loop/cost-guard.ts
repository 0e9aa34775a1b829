import type { Budget, BudgetReservation } from "../cost/budget.js";
import type { CostMeter } from "../cost/cost-meter.js";

/** Output tokens assumed for a call's worst case when `maxOutputTokens` is not set. */
export const DEFAULT_WORST_CASE_OUTPUT_TOKENS = 4096;

/** Options of {@link CostGuard}. */
export interface CostGuardOptions {
  meter: CostMeter;
  modelId: string;
  /** The run's cap (`limits.maxCostUsd`). */
  maxCostUsd?: number | undefined;
  /** A cap shared with other runs. */
  budget?: Budget | undefined;
}

/**
 * Decides before each model call whether its worst case still fits the run's cap and the shared budget
 * (reserving it in the budget), and settles the reservation with the actual cost afterwards.
 */
export class CostGuard {
  constructor(private readonly options: CostGuardOptions) {}

  /** True when there is a cap to check (otherwise callers skip the input estimate entirely). */
  get active(): boolean {
    return this.options.maxCostUsd !== undefined || this.options.budget !== undefined;
  }

  /** The worst-case cost of a call with `inputTokens` of input. */
  worstCase({
    inputTokens,
    maxOutputTokens,
  }: {
    inputTokens: number;
    maxOutputTokens: number | undefined;
  }): number {
    const { price } = this.options.meter.priceOf(this.options.modelId);
    const output = maxOutputTokens ?? DEFAULT_WORST_CASE_OUTPUT_TOKENS;
    return (inputTokens * price.inputPerMTok + output * price.outputPerMTok) / 1_000_000;
  }

  /**
   * Admits a call: `false` when it could exceed a cap (stop with `cost_limit`), else the budget reservation to
   * settle (undefined without a budget).
   */
  admit(args: {
    inputTokens: number;
    maxOutputTokens: number | undefined;
  }): BudgetReservation | undefined | false {
    const worst = this.worstCase(args);
    const { maxCostUsd, budget, meter } = this.options;
    if (maxCostUsd !== undefined && meter.totalUsd + worst > maxCostUsd) return false;
    if (budget === undefined) return undefined;
    return budget.reserve(worst) ?? false;
  }

  /** Settles a reservation with the call's actual cost (0 when it failed). */
  settle(reservation: BudgetReservation | undefined, actualUsd: number): void {
    if (reservation !== undefined) this.options.budget?.settle(reservation, actualUsd);
  }
}
