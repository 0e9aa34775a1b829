import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/** A hold on part of a {@link Budget}, taken before a model call and settled with its actual cost after. */
export interface BudgetReservation {
  readonly amountUsd: number;
}

/**
 * A spending cap shared by many runs (e.g. a daily budget per user): `new Budget({ limitUsd: 5 })`, passed as
 * `new Agent({ budget })` or `agent.run(input, { budget })`. Before each model call a run reserves the call's
 * worst case; if that does not fit, the run stops with `cost_limit`. After the call the reservation is settled
 * with the actual cost — so concurrent runs cannot together overspend. In-process; for a budget across
 * processes, subclass it over a shared store.
 */
export class Budget {
  readonly limitUsd: number;
  private spent = 0;
  private reserved = 0;

  constructor({ limitUsd, spentUsd = 0 }: { limitUsd: number; spentUsd?: number }) {
    if (!Number.isFinite(limitUsd) || limitUsd < 0) {
      throw new InvalidArgumentError({
        argument: "limitUsd",
        message: `expected a number >= 0, got ${limitUsd}`,
      });
    }
    this.limitUsd = limitUsd;
    this.spent = spentUsd;
  }

  /** USD spent so far (settled calls). */
  get spentUsd(): number {
    return this.spent;
  }

  /** USD still available: the limit minus what is spent and reserved. */
  get remainingUsd(): number {
    return Math.max(0, this.limitUsd - this.spent - this.reserved);
  }

  /** Reserves `amountUsd`, or returns undefined when it does not fit. */
  reserve(amountUsd: number): BudgetReservation | undefined {
    if (this.spent + this.reserved + amountUsd > this.limitUsd) return undefined;
    this.reserved += amountUsd;
    return { amountUsd };
  }

  /** Releases a reservation and records the actual cost (0 when the call failed without usage). */
  settle(reservation: BudgetReservation, actualUsd: number): void {
    this.reserved = Math.max(0, this.reserved - reservation.amountUsd);
    this.spent += actualUsd;
  }
}
