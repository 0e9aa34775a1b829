import { CostMeter } from "../cost/cost-meter.js";
import type { AgentEvent } from "../loop/agent-event.js";
import { describeError } from "../loop/create-event.js";
import type { Model, ModelRequest, ModelResponse } from "../models/model.js";
import { addUsage, emptyUsage, type Usage } from "../models/usage.js";
import type { Profile } from "../profiles/profile.js";
import type { Tool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { toError } from "../util/to-error.js";
import { buildPlanRequest } from "./build-plan-request.js";
import { buildRepairRequest } from "./build-repair-request.js";
import { buildSummarizerRequest } from "./build-summarizer-request.js";
import { EventRecorder, type PlanEventHook } from "./event-recorder.js";
import { executePlan } from "./execute-plan.js";
import { parsePlan } from "./parse-plan.js";
import type { PlanObservation } from "./plan-observation.js";
import type { PlanStep } from "./plan-step.js";
import { formatObservationReport, plannerMessages } from "./planner-messages.js";
import { rankTools } from "./rank-tools.js";

/** Everything one plan-and-execute run needs (resolved and validated by `PlanAgent`). */
export interface RunPlanConfig {
  query: string;
  model: Model;
  summarizer?: Model | undefined;
  tools: readonly Tool[];
  profile: Profile;
  /** At most this many plan steps are taken in the whole run (all rounds together). */
  maxSteps: number;
  /** Extra planning rounds after the first. */
  replan: number;
  /** How many tools are offered to the planner (the most relevant to the query). */
  maxToolsInPrompt: number;
  temperature?: number | undefined;
  toolTimeoutMs?: number | undefined;
  maxToolResultChars?: number | undefined;
  onEvent?: PlanEventHook | undefined;
}

/** The outcome of a plan-and-execute run. */
export interface PlanResult {
  /** The answer (what `execute` resolves with); "" when the run failed. */
  text: string;
  /** "completed", or "error" when a model call failed (see `error`). */
  stopReason: "completed" | "error";
  /** Every planned step, all rounds in order (after unknown tools were dropped). */
  steps: PlanStep[];
  /** The plan of each round. */
  plans: PlanStep[][];
  /** One per tool step run, in order. */
  observations: PlanObservation[];
  /** The names of the tools offered to the planner (the only ones a plan may call). */
  offeredTools: string[];
  /** Every event, in order; the last is `loop_end`. */
  events: AgentEvent[];
  /** Tokens of every model call (planning, repair, summary). */
  usage: Usage;
  /** Model calls made. */
  turns: number;
  /** USD spent on model calls, from the built-in price table (0 for unknown models, as in `model_call`). */
  costUsd: number;
  /** Set when `stopReason` is "error". */
  error?: Error;
}

/**
 * One plan-and-execute run: offer the planner the tools most relevant to the query ({@link rankTools}), ask for
 * a plan (one repair request when it cannot be read; then the model's text is the reply), drop steps naming
 * tools that were not offered (non-fatal `error` events), execute the plan ({@link executePlan}), re-plan up to
 * `replan` times with the observations, and answer: a reply step's text, else the summarizer's text, else a
 * localised template. Emits the ReAct loop's event types; never rejects: a failing model call ends the run
 * with a fatal `error` event and `loop_end` with stop reason "error".
 */
export async function runPlan(config: RunPlanConfig): Promise<PlanResult> {
  const { query, model, profile } = config;
  const recorder = new EventRecorder(config.onEvent);
  const usage = emptyUsage();
  const meter = new CostMeter();
  const messages = plannerMessages(profile.language);
  const systemPrompt = profile.renderSystemPrompt();
  const offered = rankTools({ query, tools: config.tools, limit: config.maxToolsInPrompt });
  const registry = new ToolRegistry({ tools: offered });
  const known = new Set(config.tools.map((tool) => tool.name));
  const plans: PlanStep[][] = [];
  const observations: PlanObservation[] = [];
  let turns = 0;

  const generate = async (target: Model, request: ModelRequest): Promise<ModelResponse> => {
    const started = performance.now();
    const response = await target.generate(request);
    turns++;
    addUsage(usage, response.usage);
    const { costUsd, priced } = meter.add({ modelId: target.modelId, usage: response.usage });
    recorder.emit("model_call", turns, {
      model: `${target.provider}:${target.modelId}`,
      finishReason: response.finishReason,
      usage: response.usage,
      latencyMs: Math.round(performance.now() - started),
      costUsd,
      priced,
    });
    return response;
  };

  const nonFatal = (name: string, message: string) =>
    recorder.emit("error", turns, { name, message, fatal: false });

  const dropUnknown = (steps: PlanStep[]): PlanStep[] =>
    steps.filter((step, index) => {
      if (step.type === "reply" || registry.has(step.name)) return true;
      const why = known.has(step.name) ? "was not offered for this query" : "does not exist";
      nonFatal(
        "UnknownTool",
        `plan step ${index + 1} names tool "${step.name}", which ${why}; the step is dropped`,
      );
      return false;
    });

  const plan = async (): Promise<PlanStep[]> => {
    const request = buildPlanRequest({
      query,
      tools: offered,
      systemPrompt,
      observations,
      temperature: config.temperature,
    });
    const response = await generate(model, request);
    const parsed = parsePlan(response.text);
    if (parsed.ok) return dropUnknown(parsed.steps);
    nonFatal("PlanParseError", `the plan could not be read (${parsed.error}); asking the model to repair it`);
    const repair = await generate(
      model,
      buildRepairRequest({ request, output: response.text, error: parsed.error }),
    );
    const repaired = parsePlan(repair.text);
    if (repaired.ok) return dropUnknown(repaired.steps);
    nonFatal(
      "PlanParseError",
      `the repaired plan could not be read (${repaired.error}); its text is the reply`,
    );
    const text = repair.text.trim() !== "" ? repair.text.trim() : response.text.trim();
    return text === "" ? [] : [{ type: "reply", text }];
  };

  const summarize = async (): Promise<string> => {
    if (config.summarizer !== undefined && observations.length > 0) {
      try {
        const request = buildSummarizerRequest({
          query,
          observations,
          systemPrompt,
          temperature: config.temperature,
        });
        const response = await generate(config.summarizer, request);
        if (response.text.trim() !== "") return response.text;
        nonFatal("SummarizerError", "the summarizer answered with no text; the step report is the answer");
      } catch (error) {
        const { name, message } = describeError(error);
        nonFatal(
          "SummarizerError",
          `the summarizer failed (${name}: ${message}); the step report is the answer`,
        );
      }
    }
    return formatObservationReport({ observations, language: profile.language });
  };

  recorder.emit("loop_start", 0, { task: query, model: `${model.provider}:${model.modelId}` });
  let text: string | undefined;
  let failure: Error | undefined;
  try {
    let taken = 0;
    for (let round = 0; round <= config.replan && taken < config.maxSteps; round++) {
      const steps = await plan();
      plans.push(steps);
      recorder.emit("plan", turns, { round, steps });
      if (steps.length === 0) {
        if (round === 0) text = messages.noPlan;
        break;
      }
      const result = await executePlan({
        steps,
        registry,
        recorder,
        round,
        turn: turns,
        firstStep: observations.length + 1,
        budget: config.maxSteps - taken,
        toolTimeoutMs: config.toolTimeoutMs,
        maxResultChars: config.maxToolResultChars,
      });
      taken += result.taken;
      observations.push(...result.observations);
      if (result.skipped > 0) {
        nonFatal(
          "MaxStepsReached",
          `maxSteps (${config.maxSteps}) reached: ${result.skipped} planned step(s) not run`,
        );
      }
      if (result.reply !== undefined) {
        text = result.reply;
        break;
      }
    }
    text ??= await summarize();
    recorder.emit("loop_end", turns, { stopReason: "completed", text });
  } catch (error) {
    failure = toError(error);
    text = "";
    recorder.emit("error", turns, { ...describeError(error), fatal: true });
    recorder.emit("loop_end", turns, { stopReason: "error", text });
  }
  const result: PlanResult = {
    text,
    stopReason: failure === undefined ? "completed" : "error",
    steps: plans.flat(),
    plans,
    observations,
    offeredTools: offered.map((tool) => tool.name),
    events: recorder.events,
    usage,
    turns,
    costUsd: meter.totalUsd,
  };
  if (failure !== undefined) result.error = failure;
  return result;
}
