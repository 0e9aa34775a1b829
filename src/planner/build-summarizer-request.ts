import type { ModelRequest } from "../models/model.js";
import { describeObservations, type PlanObservation } from "./plan-observation.js";

/** Options of {@link buildSummarizerRequest}. */
export interface BuildSummarizerRequestOptions {
  /** The user's query. */
  query: string;
  /** Every step run, in order. */
  observations: readonly PlanObservation[];
  /** The agent's system prompt (its profile: language, tone, ...). */
  systemPrompt: string;
  /** Sampling temperature, when set. */
  temperature?: number | undefined;
}

/** What the summarizer is told to do, after the profile's system prompt. */
export const SUMMARIZER_INSTRUCTIONS =
  "Write the final answer to the user's query from the results of the steps below. Use only these results; " +
  "say plainly when a step failed and what is therefore unknown. Do not mention the plan or the tools.";

/**
 * The request that turns a run's observations into the answer: the profile's system prompt and
 * {@link SUMMARIZER_INSTRUCTIONS}, then the query and one line per observation (see `describeObservations`).
 */
export function buildSummarizerRequest(options: BuildSummarizerRequestOptions): ModelRequest {
  const system = [options.systemPrompt.trim(), SUMMARIZER_INSTRUCTIONS].filter((p) => p !== "").join("\n\n");
  const request: ModelRequest = {
    messages: [
      { role: "system", content: system },
      {
        role: "user",
        content: `User query:\n${options.query}\n\nStep results:\n${describeObservations(options.observations)}`,
      },
    ],
  };
  if (options.temperature !== undefined) request.temperature = options.temperature;
  return request;
}
