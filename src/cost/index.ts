export {
  Budget,
  type BudgetOptions,
  type BudgetReservation,
  type BudgetUsage,
  type BudgetWindow,
} from "./budget.js";
export {
  type CallReservationOptions,
  callReservation,
  DEFAULT_RESERVED_OUTPUT_TOKENS,
} from "./call-reservation.js";
export { type CheckCapPricingOptions, checkCapPricing } from "./check-cap-pricing.js";
export {
  CostMeter,
  type CostMeterAddOptions,
  type CostMeterEntry,
  type CostMeterOptions,
  computeCost,
  unpricedModelMessage,
} from "./cost-meter.js";
export { DEFAULT_PRICING, findModelPrice, type ModelPrice, type PricingTable } from "./model-pricing.js";
