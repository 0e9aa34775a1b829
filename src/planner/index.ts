/** Plan-and-execute agents: the model plans every step up front, the steps run in order, then it answers. */
export {
  type BuildPlanRequestOptions,
  buildPlanRequest,
  PLANNER_INSTRUCTIONS,
} from "./build-plan-request.js";
export { type BuildRepairRequestOptions, buildRepairRequest } from "./build-repair-request.js";
export {
  type BuildSummarizerRequestOptions,
  buildSummarizerRequest,
  SUMMARIZER_INSTRUCTIONS,
} from "./build-summarizer-request.js";
export type { PlanEventHook } from "./event-recorder.js";
export { type ExecutePlanOptions, type ExecutePlanResult, executePlan } from "./execute-plan.js";
export { type ParsePlanResult, parsePlan } from "./parse-plan.js";
export {
  PlanAgent,
  type PlanAgentInput,
  type PlanAgentOptions,
  type PlanAgentRequest,
} from "./plan-agent.js";
export { describeObservations, type PlanObservation } from "./plan-observation.js";
export type { PlanStep, ReplyPlanStep, ToolPlanStep } from "./plan-step.js";
export { formatObservationReport, type PlannerMessages, plannerMessages } from "./planner-messages.js";
export { type RankToolsOptions, rankTools, tokenize } from "./rank-tools.js";
export { type PlanResult, type RunPlanConfig, runPlan } from "./run-plan.js";
