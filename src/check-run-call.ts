import type { AgentOptions, PausedRun, RunOptions } from "./agent-options.js";
import { checkCapPricing } from "./cost/check-cap-pricing.js";
import { InvalidArgumentError } from "./errors/invalid-argument-error.js";
import type { ApprovalDecisions } from "./loop/tool-step.js";
import { isEmptyInput, type MessageContent } from "./models/content-part.js";
import { normalizeContent, type RunInput } from "./models/normalize-content.js";

/** Options of {@link checkRunCall}. */
export interface CheckRunCallOptions {
  input: unknown;
  options: RunOptions;
  /** The agent's options (its store and pricing). */
  agent: Readonly<AgentOptions>;
  /** The agent's model id, for the pricing check. */
  modelId: string;
  /** The decisions when the call resumes a paused run. */
  resume: ApprovalDecisions | undefined;
}

function invalid(argument: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument, message });
}

/**
 * Checks one `run`/`stream`/`resume` call before anything starts, throwing {@link InvalidArgumentError}: the
 * input is a string or valid content parts (returned normalised), a run's `budget` has a price for the model, and a session run has a store, no
 * `messages`, a non-empty id and (unless it resumes) a task.
 */
export function checkRunCall({
  input,
  options,
  agent,
  modelId,
  resume,
}: CheckRunCallOptions): MessageContent {
  if (typeof input !== "string" && !Array.isArray(input)) {
    throw invalid("input", "expected a string or an array of content parts");
  }
  const content = normalizeContent({ content: input as RunInput, argument: "input" });
  if (options.budget !== undefined) {
    checkCapPricing({ modelId, pricing: agent.pricing, fallback: agent.pricingFallback, cap: "budget" });
  }
  const { sessionId } = options;
  if (sessionId === undefined) return content;
  if (agent.store === undefined) throw invalid("sessionId", "a session needs the Agent's store option");
  if (options.messages !== undefined)
    throw invalid("messages", "pass either messages or sessionId, not both");
  if (typeof sessionId !== "string" || sessionId === "")
    throw invalid("sessionId", "expected a non-empty string");
  if (isEmptyInput(content) && resume === undefined) throw invalid("input", "the task is empty");
  return content;
}

/** What `Agent.resume` was given, as an object (a run id string becomes `{ runId }`); refuses anything else. */
export function pausedRunOf(run: PausedRun): Exclude<PausedRun, string> {
  const paused = typeof run === "string" ? { runId: run } : run;
  if (paused === null || typeof paused !== "object") {
    throw invalid("paused", "expected a paused result, { sessionId }, { runId } or a run id");
  }
  return paused;
}
