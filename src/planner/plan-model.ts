import type { AgentEvent } from "../loop/agent-event.js";
import { createEvent, describeError } from "../loop/create-event.js";
import { createToolCall } from "../models/message.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { addUsage, emptyUsage } from "../models/usage.js";
import type { Profile } from "../profiles/profile.js";
import { responseToParts } from "../run-log/recorded-model-call.js";
import type { Tool } from "../tools/tool.js";
import { buildPlanRequest } from "./build-plan-request.js";
import { buildRepairRequest } from "./build-repair-request.js";
import { buildSummarizerRequest } from "./build-summarizer-request.js";
import { parsePlan } from "./parse-plan.js";
import type { PlanStep, ToolPlanStep } from "./plan-step.js";
import { formatObservationReport, plannerMessages } from "./planner-messages.js";
import { PLAN_STEP_ID, type PlanRunView, readPlanRun, type StepDetails } from "./read-plan-run.js";

/** Options of {@link PlanModel}. */
export interface PlanModelOptions {
  /** The model that writes plans (and repairs them). */
  planner: Model;
  /** Turns the observations into the answer; without one, a localised step report is the answer. */
  summarizer?: Model | undefined;
  /** The tools offered to the planner for this run (the only ones a plan may call). */
  offered: readonly Tool[];
  /** Every tool of the agent (to say why a step naming one that was not offered is dropped). */
  known: ReadonlySet<string>;
  profile: Profile;
  /** Plan steps per run at most, all rounds together. */
  maxSteps: number;
  /** Extra planning rounds after the first. */
  replan: number;
  temperature?: number | undefined;
  /** Receives the run's `plan` events and non-fatal planning errors, as they happen. */
  emit: (event: AgentEvent) => void;
  /** Details of executed steps the history lacks (their `observation` events), by call id. */
  details: ReadonlyMap<string, StepDetails>;
  /** Every plan, round by round (what `PlanResult.plans` reports). */
  plans: PlanStep[][];
}

/** A turn's answer: the response the loop acts on. */
type Turn = { text: string; toolCalls: ModelResponse["toolCalls"]; model?: string };

/**
 * Plan-and-execute as a model on the one agent loop. Each turn reads where the run is from its history
 * ({@link readPlanRun}) and answers it: a new round's plan as tool calls (`plan_step_<n>`, run in order by the
 * loop, with its limits, approvals, budget, sessions and traces), a reply step as the answer, or — after the
 * last round — the summarizer's answer or the step report. Planning calls (one repair for an unreadable plan)
 * and the summary are made here; their usage is the turn's. A turn that needs no request (a reply step, the
 * step report) reports zero usage. Stateless between turns but for `plans`: a paused run resumes anywhere.
 */
export class PlanModel implements Model {
  readonly provider: string;
  readonly modelId: string;

  constructor(private readonly options: PlanModelOptions) {
    this.provider = options.planner.provider;
    this.modelId = options.planner.modelId;
  }

  async generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    const view = readPlanRun({ messages: request.messages, details: this.options.details });
    const usage = emptyUsage();
    const turn = await this.turn({ view, usage, signal: options?.signal });
    const response: ModelResponse = {
      text: turn.text,
      toolCalls: turn.toolCalls,
      usage,
      finishReason: { unified: turn.toolCalls.length > 0 ? "tool_calls" : "stop", raw: "plan" },
    };
    if (turn.model !== undefined) response.model = turn.model;
    return response;
  }

  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    const generate = () => this.generate(request, options);
    return (async function* () {
      for (const part of responseToParts(await generate())) yield part;
    })();
  }

  private async turn(args: {
    view: PlanRunView;
    usage: ModelResponse["usage"];
    signal?: AbortSignal | undefined;
  }): Promise<Turn> {
    const { view } = args;
    const { maxSteps, replan } = this.options;
    if (view.pendingReply !== undefined) return { text: view.pendingReply, toolCalls: [] };
    if (view.rounds > replan || (view.rounds > 0 && view.taken >= maxSteps)) return this.summarize(args);
    const steps = await this.plan(args);
    this.options.plans.push(steps);
    this.options.emit(createEvent("plan", view.rounds, { round: view.rounds, steps }));
    const taken = this.take({ steps, budget: maxSteps - view.taken });
    if (taken.tools.length === 0) {
      if (taken.reply !== undefined) return { text: taken.reply, toolCalls: [] };
      if (view.rounds === 0)
        return { text: plannerMessages(this.options.profile.language).noPlan, toolCalls: [] };
      return this.summarize(args);
    }
    let number = view.observations.length + 1;
    const toolCalls = taken.tools.map((step) =>
      createToolCall({
        id: `${PLAN_STEP_ID}${number++}`,
        name: step.name,
        rawArguments: JSON.stringify(step.arguments) ?? "{}",
      }),
    );
    return { text: taken.reply ?? "", toolCalls };
  }

  /** A round's plan: asked for, repaired once when unreadable, then the model's text as a reply. */
  private async plan(args: {
    view: PlanRunView;
    usage: ModelResponse["usage"];
    signal?: AbortSignal | undefined;
  }): Promise<PlanStep[]> {
    const { view, usage, signal } = args;
    const o = this.options;
    const request = buildPlanRequest({
      query: view.query,
      tools: o.offered,
      systemPrompt: o.profile.renderSystemPrompt(),
      observations: view.observations,
      temperature: o.temperature,
    });
    const call = async (target: Model, req: ModelRequest) => {
      const response = await target.generate(req, signal === undefined ? undefined : { signal });
      addUsage(usage, response.usage);
      return response;
    };
    const response = await call(o.planner, request);
    const parsed = parsePlan(response.text);
    if (parsed.ok) return this.dropUnknown(parsed.steps);
    this.warn(
      "PlanParseError",
      `the plan could not be read (${parsed.error}); asking the model to repair it`,
    );
    const repair = await call(
      o.planner,
      buildRepairRequest({ request, output: response.text, error: parsed.error }),
    );
    const repaired = parsePlan(repair.text);
    if (repaired.ok) return this.dropUnknown(repaired.steps);
    this.warn(
      "PlanParseError",
      `the repaired plan could not be read (${repaired.error}); its text is the reply`,
    );
    const text = repair.text.trim() !== "" ? repair.text.trim() : response.text.trim();
    return text === "" ? [] : [{ type: "reply", text }];
  }

  /** The steps a round may take within the run's budget: its tool steps up to a reply step, and that reply. */
  private take({ steps, budget }: { steps: readonly PlanStep[]; budget: number }): {
    tools: ToolPlanStep[];
    reply: string | undefined;
  } {
    const tools: ToolPlanStep[] = [];
    let reply: string | undefined;
    let taken = 0;
    for (const step of steps) {
      if (taken >= budget) {
        const skipped = steps.length - taken;
        const message = `maxSteps (${this.options.maxSteps}) reached: ${skipped} planned step(s) not run`;
        this.options.emit(createEvent("error", 0, { name: "MaxStepsReached", message, fatal: false }));
        break;
      }
      taken++;
      if (step.type === "reply") {
        reply = step.text;
        break;
      }
      tools.push(step);
    }
    return { tools, reply };
  }

  /** The answer after the last round: the summarizer's text, else the localised step report. */
  private async summarize(args: {
    view: PlanRunView;
    usage: ModelResponse["usage"];
    signal?: AbortSignal | undefined;
  }): Promise<Turn> {
    const { view, usage, signal } = args;
    const { summarizer, profile, temperature } = this.options;
    if (summarizer !== undefined && view.observations.length > 0) {
      try {
        const request = buildSummarizerRequest({
          query: view.query,
          observations: view.observations,
          systemPrompt: profile.renderSystemPrompt(),
          temperature,
        });
        const response = await summarizer.generate(request, signal === undefined ? undefined : { signal });
        addUsage(usage, response.usage);
        if (response.text.trim() !== "")
          return { text: response.text, toolCalls: [], model: summarizer.modelId };
        this.warn("SummarizerError", "the summarizer answered with no text; the step report is the answer");
      } catch (error) {
        if (signal?.aborted) throw error;
        const { name, message } = describeError(error);
        this.warn(
          "SummarizerError",
          `the summarizer failed (${name}: ${message}); the step report is the answer`,
        );
      }
    }
    return {
      text: formatObservationReport({ observations: view.observations, language: profile.language }),
      toolCalls: [],
    };
  }

  /** Steps naming tools that were not offered are dropped, each with a non-fatal error event. */
  private dropUnknown(steps: PlanStep[]): PlanStep[] {
    const offered = new Set(this.options.offered.map((tool) => tool.name));
    return steps.filter((step, index) => {
      if (step.type === "reply" || offered.has(step.name)) return true;
      const why = this.options.known.has(step.name) ? "was not offered for this query" : "does not exist";
      const message = `plan step ${index + 1} names tool "${step.name}", which ${why}; the step is dropped`;
      this.options.emit(createEvent("error", 0, { name: "UnknownTool", message, fatal: false }));
      return false;
    });
  }

  private warn(name: string, message: string): void {
    this.options.emit(createEvent("error", 0, { name, message, fatal: false }));
  }
}
