import type { BudgetCharges, BudgetReservation } from "./budget.js";

/** What the runs nested in one run have spent and hold reserved, live (shared by all of them). */
export interface NestedSpend {
  spentUsd: number;
  reservedUsd: number;
}

/** Options of {@link NestedBudget}. */
export interface NestedBudgetOptions {
  /** The calling run's shared budget, charged too (undefined: none). */
  budget: BudgetCharges | undefined;
  /** The calling run's own cap (`limits.maxCostUsd`) and what it has spent itself (undefined: no cap). */
  cap: { limitUsd: number; spentUsd: () => number } | undefined;
  /** The live spend of every run nested in the caller (this one included): updated here. */
  live: NestedSpend;
}

/** A reservation of a {@link NestedBudget}: its amount, and the shared budget's reservation. */
interface NestedReservation extends BudgetReservation {
  readonly inner: BudgetReservation | undefined;
}

/**
 * The budget of a run nested in another (a sub-agent of `agent.asTool`): a call is admitted only when it fits
 * both the caller's shared budget and the caller's own cap, counting what the caller spent and what every run
 * nested in it spent and holds reserved so far. `spentUsd` is what this run spent (the caller adds the run's
 * cost to its own when it ends, and takes it out of `live`).
 */
export class NestedBudget implements BudgetCharges {
  /** What this run has spent so far. */
  spentUsd = 0;

  constructor(private readonly options: NestedBudgetOptions) {}

  async reserve(amountUsd: number): Promise<BudgetReservation | undefined> {
    const { cap, live, budget } = this.options;
    if (cap !== undefined && cap.spentUsd() + live.spentUsd + live.reservedUsd + amountUsd > cap.limitUsd) {
      return undefined;
    }
    live.reservedUsd += amountUsd;
    let inner: BudgetReservation | undefined;
    try {
      inner = budget === undefined ? undefined : await budget.reserve(amountUsd);
    } catch (error) {
      live.reservedUsd -= amountUsd;
      throw error;
    }
    if (budget !== undefined && inner === undefined) {
      live.reservedUsd -= amountUsd;
      return undefined;
    }
    const reservation: NestedReservation = { amountUsd, inner };
    return reservation;
  }

  async settle(reservation: BudgetReservation, actualUsd: number): Promise<void> {
    const { live, budget } = this.options;
    live.reservedUsd -= reservation.amountUsd;
    this.spend(actualUsd);
    const { inner } = reservation as NestedReservation;
    if (inner !== undefined) await budget?.settle(inner, actualUsd);
  }

  async record(actualUsd: number): Promise<void> {
    this.spend(actualUsd);
    await this.options.budget?.record(actualUsd);
  }

  private spend(actualUsd: number): void {
    if (!(actualUsd > 0 && Number.isFinite(actualUsd))) return;
    this.spentUsd += actualUsd;
    this.options.live.spentUsd += actualUsd;
  }
}
