import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Model } from "../models/model.js";
import { Profile, type ProfileOptions } from "../profiles/profile.js";
import { resolveModel } from "../providers/resolve-model.js";
import { checkToolsOption } from "../tools/check-tools-option.js";
import type { Tool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { checkObjectOption, checkTemperatureOption, optionKeys } from "../util/check-option.js";
import type { PlanEventHook } from "./event-recorder.js";
import { type PlanResult, runPlan } from "./run-plan.js";

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
 * A plan runs to its end without stopping, so nobody could decide on a call that needs approval: tools that
 * may need it (`needsApproval` true or a per-call check) are refused up front, by name. A tool registered
 * later in a shared registry is still never run without a decision: the executor fails such a step with
 * `ApprovalRequiredError`.
 */
function refuseGatedTools(registry: ToolRegistry): void {
  const gated = registry
    .list()
    .filter((entry) => entry.needsApproval !== false)
    .map((entry) => JSON.stringify(entry.name));
  if (gated.length === 0) return;
  throw new InvalidArgumentError({
    argument: "tools",
    message:
      `PlanAgent cannot ask for approval, so it cannot use tools that need it: ${gated.join(", ")} ` +
      "(use Agent, which pauses for approval, or leave these tools out)",
  });
}

/**
 * A plan-and-execute agent: the model writes the whole plan (a JSON array of tool and reply steps) up front,
 * the steps run in order, and the answer is a reply step's text, the summarizer's summary of the observations,
 * or a localised step report. Optionally re-plans with the observations (`replan`). Emits the same event types
 * as {@link Agent} (`loop_start`, `model_call`, `plan`, `action`, `observation`, `error`, `loop_end`), so
 * renderers and traces work unchanged. Only the `maxToolsInPrompt` tools most relevant to the query are offered
 * to the planner, and only those may be called. Options are validated here ({@link InvalidArgumentError});
 * tools that need approval are refused (a plan cannot pause for a decision; use {@link Agent} for those).
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
    refuseGatedTools(this.tools);
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
  async step(query: string): Promise<string> {
    if (typeof query !== "string" || query.trim() === "")
      throw inputError("the query is not a non-empty string");
    return this.answer(
      await this.runWith({ query, maxSteps: this.maxSteps, profile: this.profile, replan: 0 }),
    );
  }

  /**
   * Runs the agent (with `replan` re-planning rounds) and resolves with the answer. `input` is the query or
   * `{ userQuery, maxSteps?, profileOverrides? }`; the overrides apply to this call only — the agent is never
   * changed, so they are gone afterwards even when the call fails. Rejects with a `TypeError` for any other
   * input, and with the model's error when a model call fails (use {@link PlanAgent.run} for a result instead).
   */
  async execute(input: PlanAgentInput): Promise<string> {
    return this.answer(await this.run(input));
  }

  /**
   * Like {@link PlanAgent.execute}, but resolves with the whole {@link PlanResult} (plans, observations,
   * events, usage); `text` is what `execute` resolves with. Model failures do not reject: the result has
   * stop reason "error" and `error`. Invalid input rejects with a `TypeError`.
   */
  async run(input: PlanAgentInput): Promise<PlanResult> {
    const { query, maxSteps, profile } = this.resolveInput(input);
    return this.runWith({ query, maxSteps, profile, replan: this.replan });
  }

  private answer(result: PlanResult): string {
    if (result.error !== undefined) throw result.error;
    return result.text;
  }

  private runWith(args: {
    query: string;
    maxSteps: number;
    profile: Profile;
    replan: number;
  }): Promise<PlanResult> {
    const o = this.options;
    return runPlan({
      ...args,
      model: this.model,
      summarizer: this.summarizer,
      tools: this.tools.list(),
      maxToolsInPrompt: this.maxToolsInPrompt,
      temperature: o.temperature,
      toolTimeoutMs: o.toolTimeoutMs,
      maxToolResultChars: o.maxToolResultChars,
      onEvent: o.onEvent,
    });
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
