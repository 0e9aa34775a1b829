import type { AgentEventDataMap } from "../loop/agent-event.js";

/** One step of a plan: a tool call or the reply that ends the run (the shape of the `plan` event's steps). */
export type PlanStep = AgentEventDataMap["plan"]["steps"][number];

/** A plan step that calls tool `name` with `arguments` (validated against the tool's schema before it runs). */
export type ToolPlanStep = Extract<PlanStep, { type: "tool" }>;

/** A plan step that ends execution: `text` is the answer. */
export type ReplyPlanStep = Extract<PlanStep, { type: "reply" }>;
