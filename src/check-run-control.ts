import type { AgentOptions, RunOptions } from "./agent-options.js";
import { InvalidArgumentError } from "./errors/invalid-argument-error.js";
import { stopConditionsOf } from "./loop/policies/stop-conditions.js";
import { checkToolChoice, toolSubset } from "./loop/policies/tool-subset.js";
import { attachSteeringInbox, SteeringInbox } from "./loop/steering-inbox.js";
import type { ToolRegistry } from "./tools/tool-registry.js";

/** Options of {@link checkRunControl}. */
export interface CheckRunControlOptions {
  options: RunOptions;
  /** The agent's tools. */
  tools: ToolRegistry;
  /** The name of a tool offered besides the agent's (the typed answer's `final_answer`), if any. */
  outputTool: string | undefined;
}

/**
 * Checks the step-control options of one `run`/`stream` call before anything starts, throwing
 * {@link InvalidArgumentError}: `tools` names the agent's tools, `toolChoice` is valid and names an offered
 * tool, `prepareStep` is a function, `stopWhen` one or a list of them, `steering` a {@link SteeringInbox} that
 * serves no other run (it is attached to this one).
 */
export function checkRunControl({ options, tools, outputTool }: CheckRunControlOptions): void {
  const subset =
    options.tools === undefined
      ? undefined
      : toolSubset({ registry: tools, names: options.tools, argument: "tools" });
  if (options.toolChoice !== undefined) {
    checkToolChoice({
      toolChoice: options.toolChoice,
      argument: "toolChoice",
      offered: (name) =>
        name === outputTool || (subset === undefined ? tools.has(name) : subset.allowed.has(name)),
    });
  }
  const prepareStep: unknown = options.prepareStep;
  if (prepareStep !== undefined && typeof prepareStep !== "function") {
    throw new InvalidArgumentError({ argument: "prepareStep", message: "expected a function" });
  }
  if (options.stopWhen !== undefined) stopConditionsOf("stopWhen", options.stopWhen);
  if (options.steering !== undefined) {
    if (!(options.steering instanceof SteeringInbox)) {
      throw new InvalidArgumentError({ argument: "steering", message: "expected a SteeringInbox" });
    }
    attachSteeringInbox(options.steering);
  }
}

/** The `stopWhen` of a run: its own, else the agent's (as a list; undefined when neither has one). */
export function runStopConditions(options: RunOptions, agent: Readonly<AgentOptions>) {
  const stopWhen = options.stopWhen ?? agent.stopWhen;
  return stopWhen === undefined ? undefined : stopConditionsOf("stopWhen", stopWhen);
}
