import { Agent } from "../agent.js";
import type { PausedRun, ResumeOptions, RunOptions } from "../agent-options.js";
import type { Budget } from "../cost/budget.js";
import type { RunJournal } from "../durable/run-journal.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { AgentLimits } from "../loop/agent-limits.js";
import type { AgentResult } from "../loop/agent-result.js";
import type { Model } from "../models/model.js";
import { Profile, type ProfileOptions } from "../profiles/profile.js";
import { resolveModel } from "../providers/resolve-model.js";
import type { SessionStore } from "../stores/session-store.js";
import { checkToolsOption } from "../tools/check-tools-option.js";
import type { Tool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { checkObjectOption, checkTemperatureOption, optionKeys } from "../util/check-option.js";
import { PlanEvents } from "./plan-events.js";
import { PlanModel } from "./plan-model.js";
import type { PlanResult } from "./plan-result.js";
import type { PlanStep } from "./plan-step.js";
import { rankTools } from "./rank-tools.js";
import { readPlanRun, type StepDetails } from "./read-plan-run.js";

export type { PlanEventHook } from "./plan-events.js";

import type { PlanEventHook } from "./plan-events.js";

/** Options of {@link PlanAgent}. Only `model` is required. */
export interface PlanAgentOptions {
  /** The planner: a {@link Model}, or a model string such as `"openai:gpt-4o-mini"`. */
  model: Model | string;
  /** The tools plans may call (or a registry, read at each run). */
  tools?: readonly Tool[] | ToolRegistry;
  /** Who the agent is (language, tone, ...): a {@link Profile} or its options. Default `new Profile()`. */
  profile?: Profile | ProfileOptions;
  /** At most this many plan steps are taken per run, all re-planning rounds together. Default 6. */
  maxSteps?: number;
  /** Turns the observations into the answer when no reply step ended the run. Default: a template. */
  summarizer?: Model | string;
  /** Extra planning rounds that see the observations so far. Default 0. */
  replan?: number;
  /** Only the this many tools most relevant to the query are offered (and callable). Default 8. */
  maxToolsInPrompt?: number;
  /** Sampling temperature of the planning and summary calls. Default: not sent (the provider's default). */
  temperature?: number;
  /** Timeout of tools that set none. Default 30 000 ms. */
  toolTimeoutMs?: number;
  /** Tool results longer than this are truncated. Default: the executor's (20 000 characters). */
  maxToolResultChars?: number;
  /** Receives every event, in order. A throw or rejection becomes a non-fatal "HookError" `error` event. */
  onEvent?: PlanEventHook;
  /** Limits of the run on the agent loop (`timeoutMs`, `maxCostUsd`, ...); `maxTurns` defaults to `replan + 3`. */
  limits?: Partial<AgentLimits>;
  /** Where sessions persist (`run(input, { sessionId })`), as for `Agent`. */
  store?: SessionStore;
  /** Where durable runs are journaled (`run(input, { runId })`), as for `Agent`. */
  journal?: RunJournal;
  /** A spending cap shared with other runs, as for `Agent`. */
  budget?: Budget;
}

/** What one run of a {@link PlanAgent} is made with. */
interface PlanRunArgs {
  query: string;
  maxSteps: number;
  profile: Profile;
  replan: number;
}

/** One request to {@link PlanAgent.execute} / {@link PlanAgent.run}. */
export interface PlanAgentRequest {
  /** What the user asked. */
  userQuery: string;
  /** Overrides the agent's `maxSteps` for this call. */
  maxSteps?: number;
  /** Profile fields for this call only (the agent's profile is not changed). */
  profileOverrides?: ProfileOptions;
}

/** The input of {@link PlanAgent.execute} / {@link PlanAgent.run}: the query, or a {@link PlanAgentRequest}. */
export type PlanAgentInput = string | PlanAgentRequest;

function checkInteger(argument: string, value: number | undefined, min: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError({
      argument,
      message: `expected an integer >= ${min}, got ${String(value)}`,
    });
  }
}

function checkPositive(argument: string, value: number | undefined): void {
  if (value === undefined) return;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    throw new InvalidArgumentError({ argument, message: `expected a positive number, got ${String(value)}` });
  }
}

// Checked against the option type: adding an option there without adding it here fails to compile.
const OPTION_KEYS = optionKeys<PlanAgentOptions>({
  model: true,
  tools: true,
  profile: true,
  maxSteps: true,
  summarizer: true,
  replan: true,
  maxToolsInPrompt: true,
  temperature: true,
  toolTimeoutMs: true,
  maxToolResultChars: true,
  onEvent: true,
  limits: true,
  store: true,
  journal: true,
  budget: true,
});

function inputError(message: string, cause?: unknown): TypeError {
  return new TypeError(
    `PlanAgent input: ${message}; expected a non-empty string or { userQuery: string, maxSteps?: number, ` +
      "profileOverrides?: object }",
    cause === undefined ? undefined : { cause },
  );
}

const REQUEST_KEYS = new Set(["userQuery", "maxSteps", "profileOverrides"]);

/**
 * A plan-and-execute agent: the model writes the whole plan (a JSON array of tool and reply steps) up front,
 * the steps run in order, and the answer is a reply step's text, the summarizer's summary of the observations,
 * or a localised step report. Optionally re-plans with the observations (`replan`). It runs on the one agent
 * loop (a {@link PlanModel} answers its turns), so limits, abort, approvals (a gated step pauses the run;
 * `resume` continues it), budgets, sessions, durable runs and traces work as for {@link Agent}, and it emits
 * the same events (`plan` after the model call that planned). Only the `maxToolsInPrompt` tools most relevant
 * to the query are offered to the planner, and only those may be called. Options are validated here
 * ({@link InvalidArgumentError}).
 *
 * @example
 * const agent = new PlanAgent({ model, tools: [calculator], profile: new Profile({ language: "en" }) });
 * const answer = await agent.execute("What is 40 + 7?");
 */
export class PlanAgent {
  /** The planner model. */
  readonly model: Model;
  /** The summarizer model, if any. */
  readonly summarizer: Model | undefined;
  /** The tools plans may call. */
  readonly tools: ToolRegistry;
  /** The agent's profile (never changed by per-call overrides). */
  readonly profile: Profile;
  /** Plan steps taken per run at most. */
  readonly maxSteps: number;
  /** Extra planning rounds. */
  readonly replan: number;
  /** Tools offered to the planner at most. */
  readonly maxToolsInPrompt: number;
  private readonly options: PlanAgentOptions;

  constructor(options: PlanAgentOptions) {
    if (options === null || typeof options !== "object") {
      throw new InvalidArgumentError({ argument: "options", message: "expected an options object" });
    }
    checkObjectOption("options", options, OPTION_KEYS);
    checkToolsOption(options.tools);
    checkTemperatureOption(options.temperature);
    this.options = options;
    this.model = resolveModel(options.model);
    this.summarizer = options.summarizer === undefined ? undefined : resolveModel(options.summarizer);
    this.tools = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry();
    if (Array.isArray(options.tools)) this.tools.registerMany(options.tools);
    this.profile = options.profile instanceof Profile ? options.profile : new Profile(options.profile ?? {});
    checkInteger("maxSteps", options.maxSteps, 1);
    checkInteger("replan", options.replan, 0);
    checkInteger("maxToolsInPrompt", options.maxToolsInPrompt, 1);
    checkPositive("toolTimeoutMs", options.toolTimeoutMs);
    checkPositive("maxToolResultChars", options.maxToolResultChars);
    if (options.onEvent !== undefined && typeof options.onEvent !== "function") {
      throw new InvalidArgumentError({ argument: "onEvent", message: "expected a function" });
    }
    this.maxSteps = options.maxSteps ?? 6;
    this.replan = options.replan ?? 0;
    this.maxToolsInPrompt = options.maxToolsInPrompt ?? 8;
  }

  /** A new agent with the same options except `overrides`. The original is unchanged. */
  with(overrides: Partial<PlanAgentOptions>): PlanAgent {
    return new PlanAgent({ ...this.options, ...overrides });
  }

  /**
   * Plans and executes once — one planning round, no re-planning — with the agent's own profile and
   * `maxSteps`, and resolves with the answer. Rejects with a `TypeError` when `query` is not a non-empty string,
   * and with the model's error when a model call fails.
   */
  async step(query: string, options: RunOptions = {}): Promise<string> {
    if (typeof query !== "string" || query.trim() === "")
      throw inputError("the query is not a non-empty string");
    return this.answer(
      await this.runWith({ query, maxSteps: this.maxSteps, profile: this.profile, replan: 0, options }),
    );
  }

  /**
   * Runs the agent (with `replan` re-planning rounds) and resolves with the answer. `input` is the query or
   * `{ userQuery, maxSteps?, profileOverrides? }`; the overrides apply to this call only — the agent is never
   * changed, so they are gone afterwards even when the call fails. Rejects with a `TypeError` for any other
   * input, and with the model's error when a model call fails (use {@link PlanAgent.run} for a result instead).
   */
  async execute(input: PlanAgentInput, options: RunOptions = {}): Promise<string> {
    return this.answer(await this.run(input, options));
  }

  /**
   * Like {@link PlanAgent.execute}, but resolves with the whole {@link PlanResult} (plans, observations,
   * events, usage); `text` is what `execute` resolves with. Model failures do not reject: the result has
   * stop reason "error" and `error`. Invalid input rejects with a `TypeError`.
   */
  async run(input: PlanAgentInput, options: RunOptions = {}): Promise<PlanResult> {
    const { query, maxSteps, profile } = this.resolveInput(input);
    return this.runWith({ query, maxSteps, profile, replan: this.replan, options });
  }

  /**
   * Continues a run that stopped with `awaiting_approval` (a plan step calls a tool that needs approval), as
   * `Agent.resume` does: `paused` is the paused result, `{ sessionId }` or a durable run's id. Resumed with the
   * agent's own profile and `maxSteps`; every tool is offered to later rounds.
   */
  async resume(paused: PausedRun, decisions: ResumeOptions = {}): Promise<PlanResult> {
    const setup = this.setup({
      query: "",
      maxSteps: this.maxSteps,
      profile: this.profile,
      replan: this.replan,
    });
    return setup.finish(await setup.agent.resume(paused, decisions));
  }

  private answer(result: PlanResult): string {
    if (result.error !== undefined) throw result.error;
    return result.text;
  }

  private async runWith(args: PlanRunArgs & { options: RunOptions }): Promise<PlanResult> {
    const setup = this.setup(args);
    return setup.finish(await setup.agent.run(args.query, args.options));
  }

  /** One run's planning model and agent, and how its result becomes a {@link PlanResult}. */
  private setup(args: PlanRunArgs): { agent: Agent; finish: (result: AgentResult) => PlanResult } {
    const o = this.options;
    const all = this.tools.list();
    // Resuming (no query): every tool stays callable, as the paused plan may name any of them.
    const offered =
      args.query === "" ? all : rankTools({ query: args.query, tools: all, limit: this.maxToolsInPrompt });
    const plans: PlanStep[][] = [];
    const details = new Map<string, StepDetails>();
    const events = new PlanEvents(o.onEvent);
    const model = new PlanModel({
      planner: this.model,
      summarizer: this.summarizer,
      offered,
      known: new Set(all.map((tool) => tool.name)),
      profile: args.profile,
      maxSteps: args.maxSteps,
      replan: args.replan,
      temperature: o.temperature,
      emit: (event) => events.planned(event),
      details,
      plans,
    });
    const agent = new Agent({
      model,
      tools: offered,
      parallelToolCalls: false,
      loopDetection: false,
      limits: { maxTurns: args.replan + 3, ...o.limits },
      onEvent: (event) => events.seen(event, details),
      ...(o.toolTimeoutMs !== undefined && { toolTimeoutMs: o.toolTimeoutMs }),
      ...(o.maxToolResultChars !== undefined && { maxToolResultChars: o.maxToolResultChars }),
      ...(o.store !== undefined && { store: o.store }),
      ...(o.journal !== undefined && { journal: o.journal }),
      ...(o.budget !== undefined && { budget: o.budget }),
    });
    const finish = (result: AgentResult): PlanResult => {
      const planResult: PlanResult = {
        text: result.text,
        stopReason: result.stopReason,
        steps: plans.flat(),
        plans,
        observations: readPlanRun({ messages: result.messages, details }).observations,
        offeredTools: offered.map((tool) => tool.name),
        events: events.merge(result.events),
        usage: result.usage,
        turns: result.turns,
        costUsd: result.costUsd,
        messages: result.messages,
      };
      if (result.error !== undefined) planResult.error = result.error;
      if (result.pendingApprovals !== undefined) planResult.pendingApprovals = result.pendingApprovals;
      if (result.pausedTurn !== undefined) planResult.pausedTurn = result.pausedTurn;
      if (result.trace !== undefined) planResult.trace = result.trace;
      return planResult;
    };
    return { agent, finish };
  }

  private resolveInput(input: unknown): { query: string; maxSteps: number; profile: Profile } {
    if (typeof input === "string") {
      if (input.trim() === "") throw inputError("the query is empty");
      return { query: input, maxSteps: this.maxSteps, profile: this.profile };
    }
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      throw inputError(`got ${input === null ? "null" : Array.isArray(input) ? "an array" : typeof input}`);
    }
    const request = input as Record<string, unknown>;
    const unknownKey = Object.keys(request).find((key) => !REQUEST_KEYS.has(key));
    if (unknownKey !== undefined) throw inputError(`unknown field "${unknownKey}"`);
    const { userQuery, maxSteps, profileOverrides } = request;
    if (typeof userQuery !== "string" || userQuery.trim() === "") {
      throw inputError("userQuery is not a non-empty string");
    }
    if (
      maxSteps !== undefined &&
      (typeof maxSteps !== "number" || !Number.isInteger(maxSteps) || maxSteps < 1)
    ) {
      throw inputError(`maxSteps is not a positive integer (got ${String(maxSteps)})`);
    }
    let profile = this.profile;
    if (profileOverrides !== undefined) {
      if (
        profileOverrides === null ||
        typeof profileOverrides !== "object" ||
        Array.isArray(profileOverrides)
      ) {
        throw inputError("profileOverrides is not an object");
      }
      try {
        profile = this.profile.merged(profileOverrides as ProfileOptions);
      } catch (error) {
        throw inputError(
          `profileOverrides: ${error instanceof Error ? error.message : String(error)}`,
          error,
        );
      }
    }
    return { query: userQuery, maxSteps: (maxSteps as number | undefined) ?? this.maxSteps, profile };
  }
}
