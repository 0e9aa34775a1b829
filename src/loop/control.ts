// agentloop/control: control of every step of a run (docs/loop.md, "Control of every step"): the stop
// conditions for `stopWhen`, the types of `prepareStep`, the steering inbox, and the error of a failing hook.
export {
  StepControlError,
  type StepControlErrorOptions,
  type StepControlHook,
} from "../errors/step-control-error.js";
export type { PrepareStep, StepInfo, StepOverrides } from "./policies/prepare-step.js";
export {
  hasToolCall,
  type StopCondition,
  type StopConditionRun,
  turnCount,
} from "./policies/stop-conditions.js";
export { SteeringInbox } from "./steering-inbox.js";
export type { HookRun } from "./with-hooks.js";
