export { Budget, type BudgetReservation } from "./budget.js";
export { CostMeter, type CostMeterOptions, computeCost } from "./cost-meter.js";
export { DEFAULT_PRICING, findModelPrice, type ModelPrice, type PricingTable } from "./model-pricing.js";
