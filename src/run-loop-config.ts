import type { RunOptions } from "./agent-options.js";
import type { AgentRunnerOptions, Overrides, RunRequest } from "./agent-runner.js";
import type { AgentStepControl } from "./agent-step-control.js";
import { CostMeter } from "./cost/cost-meter.js";
import type { AgentLoopConfig } from "./loop/agent-loop.js";
import { toolSubset } from "./loop/policies/tool-subset.js";
import { contentText } from "./models/content-part.js";
import type { Message } from "./models/message.js";
import type { Model } from "./models/model.js";
import type { RunPersistence } from "./sessions/run-persistence.js";
import { RunState } from "./sessions/run-state.js";

/** What a run's loop config is made of. */
export interface LoopConfigArgs {
  /** The call: task, stream, resume decisions, fallbacks, step model, path, budget, durable log. */
  call: RunRequest;
  /** The run options in effect (the call's, or with the session's or attempt's signal). */
  options: RunOptions;
  messages: Message[];
  /** The model to call (wrapped for a trace), default the agent's. */
  model?: Model | undefined;
  /** A durable attempt's journaled model and tools, decisions, budget and signal. */
  overrides?: Overrides | undefined;
  /** A session run's persistence, state and id. */
  persistence?: RunPersistence | undefined;
  state?: RunState | undefined;
  sessionId?: string | undefined;
}

/** Options of {@link runLoopConfig}. */
export interface RunLoopConfigOptions {
  /** The agent's resolved options. */
  agent: AgentRunnerOptions;
  /** The agent's step control (prepareStep, stopWhen, toolChoice, steering per run). */
  control: AgentStepControl;
  run: LoopConfigArgs;
}

/**
 * The loop's config, as one object literal listed key by key. No spread: in V8, `{ ...a, b }` where `a` has
 * no key `b` gives every copy a hidden class of its own (made, and collected again, for every run; a 2 µs
 * copy instead of 40 ns), and the loop's reads of the config stop being monomorphic.
 */
export function runLoopConfig({
  agent,
  control: stepControl,
  run: args,
}: RunLoopConfigOptions): AgentLoopConfig {
  const o = agent.options;
  const { overrides, options, call } = args;
  const tools = overrides?.tools ?? agent.tools;
  const control = stepControl.forRun({
    options,
    stepModel: call.stepModel,
    steering: overrides?.steering,
    durable: overrides !== undefined,
  });
  // Listed key by key (no spread): the config keeps one fast shape whatever the run's options.
  return {
    model: args.model ?? agent.model,
    tools:
      options.tools === undefined
        ? tools
        : toolSubset({ registry: tools, names: options.tools, argument: "tools" }).registry,
    messages: args.messages,
    task: contentText(call.input),
    limits: agent.limits,
    prompts: agent.prompts,
    retry: agent.retry,
    stream: call.stream,
    parallelToolCalls: o.parallelToolCalls ?? true,
    toolTimeoutMs: o.toolTimeoutMs ?? 30_000,
    toolConcurrency: o.toolConcurrency,
    maxToolResultChars: o.maxToolResultChars,
    loopDetection: agent.loopDetection,
    temperature: o.temperature,
    maxOutputTokens: o.maxOutputTokens,
    signal: options.signal,
    context: agent.context,
    persistence: args.persistence,
    state: args.state ?? new RunState(),
    sessionId: args.sessionId,
    costMeter: new CostMeter({ pricing: o.pricing, fallback: o.pricingFallback }),
    budget:
      overrides !== undefined ? overrides.budget : (call.budget ?? options.budget ?? agent.options.budget),
    resume: call.resume,
    approvals: overrides?.approvals,
    output: agent.output,
    fallback: call.fallback,
    prepareStep: control.prepareStep,
    stopWhen: control.stopWhen,
    toolChoice: control.toolChoice,
    steering: control.steering,
    guardrails: o.guardrails,
    agentPath: call.path ?? o.name ?? "agent",
    durable: call.durable,
    pausedTurn: call.pausedTurn,
  };
}
