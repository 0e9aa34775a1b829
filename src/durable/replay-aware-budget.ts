import type { BudgetCharges, BudgetReservation } from "../cost/budget.js";
import type { JournaledModel } from "./journaled-model.js";

/**
 * A shared budget as a durable run uses it: a call the journal answers was paid for by the attempt that made
 * it, so it reserves nothing and is not charged again; live calls are charged as usual.
 */
export function replayAwareBudget(
  budget: BudgetCharges | undefined,
  model: Pick<JournaledModel, "replaysNext" | "lastReplayed">,
): BudgetCharges | undefined {
  if (budget === undefined) return undefined;
  const free: BudgetReservation = Object.freeze({ amountUsd: 0 });
  return {
    reserve: (amountUsd) => (model.replaysNext ? Promise.resolve(free) : budget.reserve(amountUsd)),
    settle: (reservation, actualUsd) =>
      reservation === free ? Promise.resolve() : budget.settle(reservation, actualUsd),
    record: (actualUsd) => (model.lastReplayed ? Promise.resolve() : budget.record(actualUsd)),
  };
}
