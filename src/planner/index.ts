/**
 * `agentloop/planner`: plan-and-execute agents. {@link PlanAgent} has the model plan every step up front
 * (tool steps and a reply), runs the steps in order on the same agent loop as `Agent` (limits, approvals,
 * budgets, sessions, durable runs, traces), optionally re-plans with what it observed, then answers; it emits
 * the same events as `Agent`. See docs/planner.md.
 */
export {
  PlanAgent,
  type PlanAgentInput,
  type PlanAgentOptions,
  type PlanAgentRequest,
  type PlanEventHook,
} from "./plan-agent.js";
export type { PlanObservation } from "./plan-observation.js";
export type { PlanResult } from "./plan-result.js";
export type { PlanStep, ReplyPlanStep, ToolPlanStep } from "./plan-step.js";
