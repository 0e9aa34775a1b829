import { validateHistory } from "../../context/validate-history.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { StepControlError } from "../../errors/step-control-error.js";
import type { Message } from "../../models/message.js";
import type { Model, ToolChoice } from "../../models/model.js";
import type { Usage } from "../../models/usage.js";
import type { ToolRegistry } from "../../tools/tool-registry.js";
import { isPlainObject, showValue } from "../../util/check-option.js";
import { describeFailure } from "../../util/to-error.js";
import type { LoopState } from "../loop-state.js";
import { checkToolChoice, type ToolSubset, toolSubset } from "./tool-subset.js";

/** What `prepareStep` is told before each model call. */
export interface StepInfo {
  /** The turn about to be made (1 for the first model call). */
  turn: number;
  /** The run's history so far (a frozen copy; the system prompt first when the agent has one). */
  messages: readonly Message[];
  /** The run's usage so far (a copy). */
  usage: Readonly<Usage>;
  /** `provider:modelId` of the model the call goes to unless the step chooses another. */
  model: string;
  /** The run's signal (aborted when the run is). */
  signal: AbortSignal;
}

/** What `prepareStep` may change, for the next model call only. Every key is optional. */
export interface StepOverrides {
  /** Another model for this call: a {@link Model}, or a model string (`"openai:gpt-4o"`, resolved once per run). */
  model?: Model | string;
  /** The tools offered (names; a subset of the run's tools). A call of any other tool is answered as unknown. */
  tools?: readonly string[];
  /** `"auto"`, `"none"`, `"required"` or `{ type: "tool", name }` (a tool offered in this call). */
  toolChoice?: ToolChoice;
  /** The system prompt SENT with this call (replaces the history's system message there; the history keeps it). */
  system?: string;
  /** The messages SENT instead of the history (the history itself is unchanged). */
  messages?: readonly Message[];
}

/**
 * Called (and awaited) before each model call of a run with the step's {@link StepInfo}; returns the
 * {@link StepOverrides} of that call, or nothing. Runs again when a durable run replays its log, so it must
 * decide from its arguments alone (no clock, no randomness) for the replay to take the same path.
 */
export type PrepareStep = (
  step: StepInfo,
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing (an async one too) changes nothing
) => StepOverrides | undefined | void | Promise<StepOverrides | undefined | void>;

/** A step's overrides as the model turn applies them (checked; model strings resolved; the tool subset made). */
export interface StepPlan {
  model?: Model;
  /** `provider:modelId` of `model`. */
  modelName?: string;
  /** The tools offered, when the step chose some: the turn's tool calls run against this registry. */
  tools?: ToolSubset;
  toolChoice?: ToolChoice;
  system?: string;
  messages?: Message[];
}

/** Options of {@link StepPreparer}. */
export interface StepPreparerOptions {
  prepareStep: PrepareStep;
  state: LoopState;
  /** The run's tools. */
  registry: ToolRegistry;
  /** Resolves a model string (the Agent's resolver, which caches). */
  resolveModel: (name: string) => Model;
  signal: AbortSignal;
  /** Names of tools offered besides the run's (the typed answer's `final_answer`), valid in `toolChoice`. */
  extraTools?: readonly string[] | undefined;
}

const OVERRIDE_KEYS: ReadonlySet<string> = new Set(["model", "tools", "toolChoice", "system", "messages"]);
const ROLES: ReadonlySet<unknown> = new Set(["system", "user", "assistant", "tool"]);

/**
 * The `prepareStep` policy: before each model call it awaits the hook and checks what it returns, so a bad
 * override fails the run with a {@link StepControlError} naming it (stop reason `error`) rather than reaching a
 * provider. Model strings and tool subsets are made once per distinct value and cached for the run.
 */
export class StepPreparer {
  private readonly subsets = new Map<string, ToolSubset>();
  private readonly models = new Map<string, Model>();

  constructor(private readonly options: StepPreparerOptions) {}

  /** The plan of turn `turn` (whose call goes to `model` by default); undefined when the hook changes nothing. */
  async plan({ turn, model }: { turn: number; model: string }): Promise<StepPlan | undefined> {
    const { state, signal } = this.options;
    const info: StepInfo = {
      turn,
      messages: Object.freeze(state.messages.slice()),
      usage: { ...state.usage },
      model,
      signal,
    };
    let overrides: unknown;
    try {
      overrides = await this.options.prepareStep(info);
    } catch (error) {
      const { name, message } = describeFailure(error);
      throw new StepControlError({
        hook: "prepareStep",
        turn,
        problem: `it threw ${name}: ${message}`,
        cause: error,
      });
    }
    if (overrides === undefined || overrides === null) return undefined;
    try {
      return this.check(overrides);
    } catch (error) {
      const { message } = describeFailure(error);
      const problem = InvalidArgumentError.isInstance(error)
        ? message.replace(/^Invalid /, "invalid ")
        : `it returned ${message}`;
      throw new StepControlError({ hook: "prepareStep", turn, problem });
    }
  }

  /** The plan of a returned value; throws (an `InvalidArgumentError` or an Error) for anything invalid. */
  private check(overrides: unknown): StepPlan | undefined {
    if (!isPlainObject(overrides)) throw new Error(`${showValue(overrides)}, not an object of overrides`);
    for (const key of Object.keys(overrides)) {
      if (!OVERRIDE_KEYS.has(key)) {
        throw new Error(`an unknown key "${key}" (expected: ${[...OVERRIDE_KEYS].join(", ")})`);
      }
    }
    const plan: StepPlan = {};
    let changed = false;
    if (overrides.model !== undefined) {
      plan.model = this.model(overrides.model);
      plan.modelName = `${plan.model.provider}:${plan.model.modelId}`;
      changed = true;
    }
    if (overrides.tools !== undefined) {
      plan.tools = this.subset(overrides.tools);
      changed = true;
    }
    if (overrides.toolChoice !== undefined) {
      plan.toolChoice = checkToolChoice({
        toolChoice: overrides.toolChoice,
        argument: "toolChoice",
        offered: (name) => this.offered(name, plan.tools),
      });
      changed = true;
    }
    if (overrides.system !== undefined) {
      if (typeof overrides.system !== "string")
        throw new Error(`a system prompt that is ${showValue(overrides.system)}`);
      plan.system = overrides.system;
      changed = true;
    }
    if (overrides.messages !== undefined) {
      plan.messages = checkMessages(overrides.messages);
      changed = true;
    }
    return changed ? plan : undefined;
  }

  private model(value: unknown): Model {
    if (typeof value === "string") {
      let model = this.models.get(value);
      if (model === undefined) {
        model = this.options.resolveModel(value);
        this.models.set(value, model);
      }
      return model;
    }
    const candidate = value as Partial<Model> | null;
    if (
      typeof candidate === "object" &&
      candidate !== null &&
      typeof candidate.generate === "function" &&
      typeof candidate.stream === "function"
    ) {
      return candidate as Model;
    }
    throw new Error(`a model that is ${showValue(value)} (expected a Model or a model string)`);
  }

  private subset(names: unknown): ToolSubset {
    const key = Array.isArray(names) ? names.join("\n") : undefined;
    const cached = key === undefined ? undefined : this.subsets.get(key);
    if (cached !== undefined) return cached;
    const subset = toolSubset({ registry: this.options.registry, names, argument: "tools" });
    if (key !== undefined) this.subsets.set(key, subset);
    return subset;
  }

  /** Whether tool `name` is offered in a call with `tools` chosen (the run's tools when none were). */
  private offered(name: string, tools: ToolSubset | undefined): boolean {
    if (this.options.extraTools?.includes(name)) return true;
    return tools === undefined ? this.options.registry.has(name) : tools.allowed.has(name);
  }
}

/** A step's `messages`: a non-empty array of messages a provider would take (a copy). */
function checkMessages(value: unknown): Message[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new Error(`messages that are ${showValue(value)} (expected a non-empty array of messages)`);
  }
  for (const message of value as unknown[]) {
    if (!isPlainObject(message) || !ROLES.has(message.role)) {
      throw new Error(`a message that is not one (expected a role of system, user, assistant or tool)`);
    }
  }
  const messages = [...(value as Message[])];
  const problem = validateHistory(messages)[0];
  if (problem !== undefined) throw new Error(`messages a provider would refuse: ${problem.message}`);
  return messages;
}
