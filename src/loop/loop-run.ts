import { CostMeter } from "../cost/cost-meter.js";
import { isSubAgentTool } from "../tools/caller-run-key.js";
import type { AgentLoopConfig } from "./agent-loop.js";
import { ContextManager } from "./context-manager.js";
import { CostGuard } from "./cost-guard.js";
import { createLoopState, type LoopState } from "./loop-state.js";
import { ModelTurn, type ModelTurnOptions } from "./model-turn.js";
import { AfterTools } from "./policies/after-tools.js";
import { Approvals } from "./policies/approvals.js";
import { Checkpoint } from "./policies/checkpoint.js";
import { FinalOutput } from "./policies/final-output.js";
import { Guardrails } from "./policies/guardrails.js";
import { StepPreparer } from "./policies/prepare-step.js";
import { ResponseChecks } from "./policies/response-checks.js";
import { RunSignal } from "./policies/run-signal.js";
import { SoftCheckpoints } from "./policies/soft-checkpoints.js";
import { Steering } from "./policies/steering.js";
import { StopConditions } from "./policies/stop-conditions.js";
import { SubAgents } from "./policies/sub-agents.js";
import { TerminalTools } from "./policies/terminal-tools.js";
import { ToolCallGuards } from "./policies/tool-call-guards.js";
import { TurnLimits } from "./policies/turn-limits.js";
import type { ToolStepOptions } from "./tool-step.js";

/** One run's state and policies, made once from its config (nothing here is made again per turn). */
export interface LoopRun {
  /** The run's mutable state, shared by the policies. */
  state: LoopState;
  /** `provider:modelId`. */
  modelName: string;
  /** Abort and timeout. */
  signal: RunSignal;
  /** maxTotalTokens, maxTurns and the wrap-up. */
  limits: TurnLimits;
  /** Soft checkpoints (steps and time). */
  soft: SoftCheckpoints;
  /** One model turn with context, cost and the response checks around it. */
  turn: ModelTurn;
  /** Between the response and its tools: too many calls, loop detection, the token limit. */
  guards: ToolCallGuards;
  /** Decisions by turn, pausing and resuming. */
  approvals: Approvals;
  /** The one seam to persistence. */
  checkpoint: Checkpoint;
  /** The cost cap and the shared budget; the run's totals. */
  cost: CostGuard;
  /** The tool step's options, except the turn's calls, turn and decisions. */
  tools: Omit<ToolStepOptions, "calls" | "turn" | "decisions">;
  /** The typed final answer, for agents with an `output` schema. */
  output: FinalOutput | undefined;
  /** Terminal tools and `stopWhen`, after a turn's tools ran (runs with either). */
  afterTools: AfterTools | undefined;
  /** Messages sent to the running agent (runs with a steering inbox, e.g. `agent.stream`). */
  steering: Steering | undefined;
  /** Input, output and tool guardrails (runs with some). */
  guardrails: Guardrails | undefined;
}

/** Builds the state and the policies of one run from its config (starts the run's timeout). */
export function createLoopRun(config: AgentLoopConfig): LoopRun {
  const started = Date.now();
  const { model, limits, prompts } = config;
  const state = createLoopState({ messages: config.messages, resumed: config.resume !== undefined });
  const modelName = `${model.provider}:${model.modelId}`;
  const signal = new RunSignal({ signal: config.signal, timeoutMs: limits.timeoutMs });
  const meter = config.costMeter ?? new CostMeter();
  const cost = new CostGuard({
    meter,
    modelId: model.modelId,
    maxCostUsd: limits.maxCostUsd,
    budget: config.budget,
  });
  const checkpoint = new Checkpoint({ state, persistence: config.persistence });
  const turnLimits = new TurnLimits({ state, limits, prompts });
  const guardrails = createGuardrails({ config, state, signal });
  return {
    state,
    modelName,
    signal,
    limits: turnLimits,
    soft: new SoftCheckpoints({ state, limits, prompts, started }),
    turn: createModelTurn({ config, state, signal: signal.signal, cost, checkpoint, modelName }),
    guards: new ToolCallGuards({
      state,
      maxToolCallsPerTurn: limits.maxToolCallsPerTurn,
      loopDetection: config.loopDetection,
      limits: turnLimits,
    }),
    approvals: new Approvals({ state, runState: config.state, decided: config.approvals }),
    checkpoint,
    cost,
    output:
      config.output === undefined
        ? undefined
        : new FinalOutput({
            state,
            output: config.output.schema,
            native: model.capabilities?.structuredOutput === true,
            maxRetries: config.output.maxRetries,
            modelName,
            toolSpecs: config.tools.schemas(),
            stream: config.stream,
          }),
    afterTools: AfterTools.of({
      terminal: TerminalTools.of({ state, registry: config.tools, output: config.output?.schema }),
      stop:
        config.stopWhen === undefined || config.stopWhen.length === 0
          ? undefined
          : new StopConditions({ state, conditions: config.stopWhen }),
    }),
    steering: config.steering === undefined ? undefined : new Steering({ state, feed: config.steering }),
    tools: {
      registry: config.tools,
      signal: signal.signal,
      parallel: config.parallelToolCalls,
      concurrency: config.toolConcurrency,
      timeoutMs: config.toolTimeoutMs,
      maxResultChars: config.maxToolResultChars,
      sessionId: config.sessionId,
      state: config.state,
      guardrails: guardrails?.tools,
      subAgents: createSubAgents({ config, state, meter }),
    },
    guardrails,
  };
}

/** The run's side of its sub-agent tools, for a run whose tools include one (`agent.asTool`). */
function createSubAgents(args: { config: AgentLoopConfig; state: LoopState; meter: CostMeter }) {
  const { config, state, meter } = args;
  if (!config.tools.list().some(isSubAgentTool)) return undefined;
  return new SubAgents({
    path: config.agentPath ?? "agent",
    stream: config.stream,
    durable: config.durable,
    state,
    meter,
    maxCostUsd: config.limits.maxCostUsd,
    budget: config.budget,
  });
}

/** The guardrails policy, for a run with guardrails. */
function createGuardrails({
  config,
  state,
  signal,
}: {
  config: AgentLoopConfig;
  state: LoopState;
  signal: RunSignal;
}): Guardrails | undefined {
  if (config.guardrails === undefined) return undefined;
  const native = config.model.capabilities?.structuredOutput === true;
  return Guardrails.of({
    state,
    guardrails: config.guardrails,
    signal: signal.signal,
    abortRun: (reason) => signal.abort(reason),
    resumed: config.resume !== undefined,
    wrapUp: config.limits.wrapUp,
    answerTool: config.output === undefined || native ? undefined : config.output.schema.format.name,
  });
}

/** The run's model turn, with its context manager (summary calls are charged through the cost policy). */
function createModelTurn({
  config,
  state,
  signal,
  cost,
  checkpoint,
  modelName,
}: {
  config: AgentLoopConfig;
  state: LoopState;
  signal: AbortSignal;
  cost: CostGuard;
  checkpoint: Checkpoint;
  modelName: string;
}): ModelTurn {
  const { model } = config;
  const context = new ContextManager({
    options: config.context,
    model,
    usage: state.usage,
    // A summary call is not reserved in advance: it counts for the run's cap and is charged as it happens.
    onModelUsage: (info) => cost.chargeSummary(info),
  });
  return new ModelTurn({
    state,
    model,
    modelName,
    tools: config.tools,
    signal,
    stream: config.stream,
    retry: config.retry,
    parallelToolCalls: config.parallelToolCalls,
    temperature: config.temperature,
    maxOutputTokens: config.maxOutputTokens,
    context,
    compactBeforeCalls: config.context !== undefined,
    cost,
    checkpoint,
    checks: new ResponseChecks({ modelName }),
    fallback: config.fallback,
    toolChoice: config.toolChoice,
    prepare: stepPreparer({ config, state, signal }),
  });
}

/** The `prepareStep` policy and the step model, for a run with the hook. */
function stepPreparer({
  config,
  state,
  signal,
}: {
  config: AgentLoopConfig;
  state: LoopState;
  signal: AbortSignal;
}): ModelTurnOptions["prepare"] {
  const { prepareStep, output, model } = config;
  if (prepareStep === undefined) return undefined;
  const finalTool = output !== undefined && model.capabilities?.structuredOutput !== true;
  const preparer = new StepPreparer({
    prepareStep: prepareStep.hook,
    state,
    registry: config.tools,
    resolveModel: prepareStep.resolveModel,
    signal,
    extraTools: finalTool ? [output.schema.format.name] : undefined,
  });
  return { preparer, model: prepareStep.model };
}
