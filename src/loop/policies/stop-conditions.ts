import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { StepControlError } from "../../errors/step-control-error.js";
import type { Message, ToolCall, ToolMessage } from "../../models/message.js";
import type { Usage } from "../../models/usage.js";
import { describeFailure } from "../../util/to-error.js";
import type { LoopState } from "../loop-state.js";

/** What a stop condition is told after a turn's tools ran. */
export interface StopConditionRun {
  /** Model turns made so far (the turn just finished). */
  turn: number;
  /** The tool calls of the turn just finished. */
  toolCalls: readonly ToolCall[];
  /** Their results, in call order (`isError: true` for a call that failed or did not run). */
  toolResults: readonly ToolMessage[];
  /** The run's history so far (a frozen copy). */
  messages: readonly Message[];
  /** The run's usage so far (a copy). */
  usage: Readonly<Usage>;
  /** The latest text the model wrote ("" when none). */
  text: string;
}

/**
 * Decides, after a turn's tools ran, whether the run stops now (stop reason `stop_condition`). May be async.
 * Runs again when a durable run replays its log: decide from the arguments alone.
 */
export type StopCondition = (run: StopConditionRun) => boolean | Promise<boolean>;

/**
 * A stop condition that holds when the turn just finished called one of the tools `names` and that call
 * succeeded (a call that failed — invalid arguments, a throw, a timeout — does not count: the model may try
 * again).
 *
 * @example
 * new Agent({ model, tools: [search, submit], stopWhen: hasToolCall("submit") });
 */
export function hasToolCall(...names: string[]): StopCondition {
  if (names.length === 0 || names.some((name) => typeof name !== "string" || name === "")) {
    throw new InvalidArgumentError({ argument: "names", message: "expected one or more tool names" });
  }
  const wanted = new Set(names);
  return ({ toolResults }) =>
    toolResults.some((result) => wanted.has(result.toolName) && result.isError !== true);
}

/**
 * A stop condition that holds once `count` model turns were made (checked after a turn with tool calls; unlike
 * `limits.maxTurns`, the stop reason is `stop_condition` and there is no wrap-up call).
 */
export function turnCount(count: number): StopCondition {
  if (!Number.isInteger(count) || count <= 0) {
    throw new InvalidArgumentError({
      argument: "count",
      message: `expected a positive integer, got ${String(count)}`,
    });
  }
  return ({ turn }) => turn >= count;
}

/** Options of {@link StopConditions}. */
export interface StopConditionsOptions {
  state: LoopState;
  conditions: readonly StopCondition[];
}

/**
 * The `stopWhen` policy: after each turn whose tool calls were answered, the conditions are awaited in order;
 * the first that holds stops the run. A condition that throws (anything) ends the run with stop reason `error`
 * and a {@link StepControlError}.
 */
export class StopConditions {
  constructor(private readonly options: StopConditionsOptions) {}

  /** Whether the run stops after the turn whose `calls` were answered with `results`. */
  async holds({
    calls,
    results,
  }: {
    calls: readonly ToolCall[];
    results: readonly ToolMessage[];
  }): Promise<boolean> {
    const { state, conditions } = this.options;
    const run: StopConditionRun = {
      turn: state.turns,
      toolCalls: calls,
      toolResults: results,
      messages: Object.freeze(state.messages.slice()),
      usage: { ...state.usage },
      text: state.text,
    };
    for (const condition of conditions) {
      let held: unknown;
      try {
        held = await condition(run);
      } catch (error) {
        const { name, message } = describeFailure(error);
        const problem = `a condition threw ${name}: ${message}`;
        throw new StepControlError({ hook: "stopWhen", turn: state.turns, problem, cause: error });
      }
      if (held === true) return true;
    }
    return false;
  }
}

/** The conditions of a `stopWhen` option (one or a list), checked: each must be a function. */
export function stopConditionsOf(argument: string, value: unknown): readonly StopCondition[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  for (const condition of list) {
    if (typeof condition !== "function") {
      throw new InvalidArgumentError({
        argument,
        message: 'expected a stop condition (a function such as hasToolCall("submit")) or a list of them',
      });
    }
  }
  return list as StopCondition[];
}
