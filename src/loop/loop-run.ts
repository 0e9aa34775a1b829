import { CostMeter } from "../cost/cost-meter.js";
import type { AgentLoopConfig } from "./agent-loop.js";
import { ContextManager } from "./context-manager.js";
import { CostGuard } from "./cost-guard.js";
import { createLoopState, type LoopState } from "./loop-state.js";
import { ModelTurn } from "./model-turn.js";
import { Approvals } from "./policies/approvals.js";
import { Checkpoint } from "./policies/checkpoint.js";
import { FinalOutput } from "./policies/final-output.js";
import { ResponseChecks } from "./policies/response-checks.js";
import { RunSignal } from "./policies/run-signal.js";
import { SoftCheckpoints } from "./policies/soft-checkpoints.js";
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
    tools: {
      registry: config.tools,
      signal: signal.signal,
      parallel: config.parallelToolCalls,
      concurrency: config.toolConcurrency,
      timeoutMs: config.toolTimeoutMs,
      maxResultChars: config.maxToolResultChars,
      sessionId: config.sessionId,
      state: config.state,
    },
  };
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
  });
}
