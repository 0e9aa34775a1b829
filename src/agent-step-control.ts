import type { AgentOptions, RunOptions } from "./agent-options.js";
import type { HandoffRouting } from "./agents/handoff-routing.js";
import { runStopConditions } from "./check-run-control.js";
import type { AgentLoopConfig } from "./loop/agent-loop.js";
import type { PrepareStep } from "./loop/policies/prepare-step.js";
import { inboxFeed, type SteeringFeed } from "./loop/policies/steering.js";
import type { StepModel } from "./loop/policies/step-model.js";
import type { Model } from "./models/model.js";
import { resolveModel } from "./providers/resolve-model.js";

/**
 * The step control of an agent's runs: the `prepareStep` hook a run gets (its own or the agent's, under the
 * handoff routing when the agent has handoffs), the model strings it names (resolved once per agent), and
 * `stopWhen`, `toolChoice` and steering. Internal to the `AgentRunner`.
 */
export class AgentStepControl {
  /** The agent's handoffs, resolved at its first run (agents with `handoffs`). */
  handoffs: HandoffRouting | undefined;
  /** Models named by `prepareStep` overrides, resolved once per agent. */
  private readonly stepModels = new Map<string, Model>();
  /** The agent's own `prepareStep` under the handoff routing, made once. */
  private routedHook: PrepareStep | undefined;

  constructor(private readonly agent: Readonly<AgentOptions>) {}

  /** The run's `prepareStep`: its own or the agent's, under the handoff routing when there are handoffs. */
  hook(options: RunOptions): PrepareStep | undefined {
    const { handoffs } = this;
    if (handoffs === undefined) return options.prepareStep ?? this.agent.prepareStep;
    if (options.prepareStep !== undefined) return handoffs.prepareStep(options.prepareStep);
    this.routedHook ??= handoffs.prepareStep(this.agent.prepareStep);
    return this.routedHook;
  }

  /** The step-control part of a run's loop config: prepareStep, stopWhen, toolChoice, steering. */
  forRun(args: {
    options: RunOptions;
    stepModel: StepModel | undefined;
    /** A durable attempt: its steering feed (journaled) replaces the run's inbox. */
    durable: boolean;
    steering: SteeringFeed | undefined;
  }): Pick<AgentLoopConfig, "prepareStep" | "stopWhen" | "toolChoice" | "steering"> {
    const { options, stepModel } = args;
    const hook = this.hook(options);
    return {
      prepareStep:
        hook === undefined || stepModel === undefined
          ? undefined
          : { hook, model: stepModel, resolveModel: (name) => this.stepModel(name) },
      stopWhen: runStopConditions(options, this.agent),
      toolChoice: options.toolChoice,
      steering: args.durable
        ? args.steering
        : options.steering === undefined
          ? undefined
          : inboxFeed(options.steering),
    };
  }

  /** A model string of a `prepareStep` override, resolved once per agent. */
  private stepModel(name: string): Model {
    let model = this.stepModels.get(name);
    if (model === undefined) {
      model = resolveModel(name);
      this.stepModels.set(name, model);
    }
    return model;
  }
}
