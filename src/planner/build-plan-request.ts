import type { ModelRequest } from "../models/model.js";
import type { Tool } from "../tools/tool.js";
import { describeObservations, type PlanObservation } from "./plan-observation.js";

/** Options of {@link buildPlanRequest}. */
export interface BuildPlanRequestOptions {
  /** The user's query. */
  query: string;
  /** The tools the plan may use (the ones offered for this query). */
  tools: readonly Tool[];
  /** The agent's system prompt (its profile), put before the planning instructions. */
  systemPrompt: string;
  /** Steps already run (re-planning rounds); empty or absent for the first plan. */
  observations?: readonly PlanObservation[];
  /** Sampling temperature, when set. */
  temperature?: number | undefined;
}

/** The planning instructions: the plan's JSON format. */
export const PLANNER_INSTRUCTIONS = [
  "You are the planner of a plan-and-execute agent. Do not answer the query yourself and do not call tools:",
  "write a plan that the executor runs step by step, in order.",
  "Reply with only a JSON array of steps, no prose and no code fence. Each step is one of:",
  '  {"type": "tool", "name": "<tool name>", "arguments": {<arguments matching the tool\'s JSON Schema>}}',
  '  {"type": "reply", "text": "<the final answer to the user>"}',
  "A reply step ends execution: use it only when the answer needs no tool results (e.g. small talk), because",
  "you cannot see results while planning. When the query needs tools, plan only tool steps: their results are",
  "turned into the answer afterwards. Use only the tools listed below, with every required argument.",
  "If nothing can be done, reply with [].",
].join("\n");

function describeTools(tools: readonly Tool[]): string {
  if (tools.length === 0) return "Available tools: none (plan a single reply step).";
  const lines = tools.map(
    (tool) =>
      `- ${tool.name}: ${tool.description}\n  arguments (JSON Schema): ${JSON.stringify(tool.jsonSchema)}`,
  );
  return `Available tools:\n${lines.join("\n")}`;
}

/**
 * The model request that asks for a plan: the system prompt, then {@link PLANNER_INSTRUCTIONS} and each offered
 * tool's name, description and JSON Schema; the user message holds the query and, when re-planning, the results
 * of the steps run so far, with the instruction to plan only what is still missing (`[]` when done). No
 * `tools` are sent: the plan comes back as text.
 */
export function buildPlanRequest(options: BuildPlanRequestOptions): ModelRequest {
  const { query, tools, systemPrompt, observations = [] } = options;
  const system = [systemPrompt.trim(), PLANNER_INSTRUCTIONS, describeTools(tools)]
    .filter((part) => part !== "")
    .join("\n\n");
  let user = `User query:\n${query}`;
  if (observations.length > 0) {
    user +=
      `\n\nSteps already run, with their results:\n${describeObservations(observations)}\n\n` +
      "Plan only the steps still needed to answer the query (retry a failed step with corrected arguments if " +
      "that helps). Reply with [] when the results above are enough.";
  }
  const request: ModelRequest = {
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
  };
  if (options.temperature !== undefined) request.temperature = options.temperature;
  return request;
}
