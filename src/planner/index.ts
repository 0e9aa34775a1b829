/**
 * `agentloop/planner`: plan-and-execute agents. {@link PlanAgent} has the model plan every step up front
 * (tool steps and a reply), runs the steps in order through the same tool executor as `Agent`, optionally
 * re-plans with what it observed, then answers; it emits the same events as `Agent`. See docs/planner.md.
 */
export type { PlanEventHook } from "./event-recorder.js";
export {
  PlanAgent,
  type PlanAgentInput,
  type PlanAgentOptions,
  type PlanAgentRequest,
} from "./plan-agent.js";
export type { PlanObservation } from "./plan-observation.js";
export type { PlanStep, ReplyPlanStep, ToolPlanStep } from "./plan-step.js";
export type { PlanResult } from "./run-plan.js";
