import type { BudgetCharges } from "../cost/budget.js";
import type { CostMeter } from "../cost/cost-meter.js";
import type { GuardrailsOptions } from "../guardrails/guardrail.js";
import type { RetryPolicy } from "../http/retry-policy.js";
import type { FallbackModel } from "../models/fallback-model.js";
import type { Message } from "../models/message.js";
import type { Model, ToolChoice } from "../models/model.js";
import type { Usage } from "../models/usage.js";
import type { ResolvedOutput } from "../output/resolve-output.js";
import { PENDING_APPROVALS_KEY } from "../sessions/close-pending-calls.js";
import type { RunPersistence } from "../sessions/run-persistence.js";
import type { RunState } from "../sessions/run-state.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { Trace } from "../trace/trace-types.js";
import { toError } from "../util/to-error.js";
import type { AgentEvent, StopReason } from "./agent-event.js";
import type { AgentLimits, LimitPrompts } from "./agent-limits.js";
import type { ResolvedContextOptions } from "./context-options.js";
import { createEvent, describeError } from "./create-event.js";
import { endRun } from "./end-run.js";
import type { LoopDetectionOptions } from "./loop-detector.js";
import { createLoopRun, type LoopRun } from "./loop-run.js";
import type { PrepareStep } from "./policies/prepare-step.js";
import type { SteeringFeed } from "./policies/steering.js";
import type { StepModel } from "./policies/step-model.js";
import type { StopCondition } from "./policies/stop-conditions.js";
import type { PausedTurn } from "./policies/sub-agents.js";
import { type ApprovalDecisions, type PendingApproval, type ToolStepOptions, toolStep } from "./tool-step.js";

/** Everything one run needs. Plain data plus a model: the loop owns no other state. */
export interface AgentLoopConfig {
  model: Model;
  tools: ToolRegistry;
  /** The history to continue, ending with the new user message. The loop appends to this array. */
  messages: Message[];
  /** The user's task (for `loop_start`). */
  task: string;
  limits: AgentLimits;
  prompts: LimitPrompts;
  retry: RetryPolicy;
  /** Stream model answers (`text_delta` events) or call `generate`. */
  stream: boolean;
  parallelToolCalls: boolean;
  toolTimeoutMs: number;
  toolConcurrency?: number | undefined;
  maxToolResultChars?: number | undefined;
  loopDetection: LoopDetectionOptions | false;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Context budget and compaction; undefined: compaction only after a provider's context-length error. */
  context?: ResolvedContextOptions | undefined;
  /** Persists the run's messages and state at each completed step (sessions). */
  persistence?: RunPersistence | undefined;
  /** The run's key-value state, passed to tools as `ctx.state`. */
  state?: RunState | undefined;
  /** The session id, passed to tools as `ctx.sessionId`. */
  sessionId?: string | undefined;
  /** Prices the run's calls (a new default meter when not given). */
  costMeter?: CostMeter | undefined;
  /** A spending cap shared with other runs. */
  budget?: BudgetCharges | undefined;
  /** Resume a run paused for approval: the last message's tool calls run first, with these decisions. */
  resume?: ApprovalDecisions | undefined;
  /**
   * Decisions already taken for gated calls, by the turn that requested them (a durable run replaying its
   * journal): that turn's gated calls run or are refused as decided instead of pausing the run.
   */
  approvals?: ReadonlyMap<number, ApprovalDecisions> | undefined;
  /** The run's models in order of preference, when the agent has fallbacks (`model` is, or wraps, it). */
  fallback?: FallbackModel | undefined;
  /** The typed final answer's schema (`Agent({ output })`) and how often an invalid answer is sent back. */
  output?: { schema: ResolvedOutput; maxRetries: number } | undefined;
  /**
   * The `prepareStep` hook, the resolver of the model strings it returns, and the run's step model (`model`
   * is, or wraps, it: calls go to the model a step chose).
   */
  prepareStep?: { hook: PrepareStep; resolveModel: (name: string) => Model; model: StepModel } | undefined;
  /** Conditions checked after each turn's tool calls ran (`stop_condition`). */
  stopWhen?: readonly StopCondition[] | undefined;
  /** The run's tool choice for every model call (a step's, the wrap-up's and the typed answer's win). */
  toolChoice?: ToolChoice | undefined;
  /** Messages sent to the running agent, added between turns. */
  steering?: SteeringFeed | undefined;
  /** Input, output and tool guardrails (`Agent({ guardrails })`; docs/guardrails.md). */
  guardrails?: GuardrailsOptions | undefined;
  /** The agent's path (`"lead"`, `"lead/researcher"` for a sub-agent): its sub-agents' events are tagged under it. */
  agentPath?: string | undefined;
  /** The run's log, when it is durable (a `RunJournal`): its sub-agents run durably in it. */
  durable?: { runId: string; journal: unknown } | undefined;
  /** With `resume`: what the paused turn had done when it paused inside a sub-agent (non-durable runs). */
  pausedTurn?: PausedTurn | undefined;
}

export { PENDING_APPROVALS_KEY };

/** What the loop returns besides its events. */
export interface AgentLoopOutcome {
  stopReason: StopReason;
  text: string;
  turns: number;
  usage: Usage;
  messages: Message[];
  /** USD spent by the run's model calls (summary calls included). */
  costUsd: number;
  /** Models that had no known price (their calls were costed at the fallback price). */
  costUnknownModels: string[];
  /** With stop reason `awaiting_approval`: the calls waiting for a decision. */
  pendingApprovals?: PendingApproval[];
  /** With stop reason `awaiting_approval`, when the turn paused inside a sub-agent: what resuming needs. */
  pausedTurn?: PausedTurn;
  /** The trace, when the run was recorded (added by the Agent's trace wrapper). */
  trace?: Trace;
  error?: Error;
  /** The typed final answer (agents with an `output` schema), when a valid one was given. */
  output?: unknown;
  /** The agent that answered, for an agent with handoffs (added by the Agent's handoff routing). */
  agent?: string;
}

/**
 * The agent loop: call the model, run the tool calls it returns, feed the results back, repeat until it
 * answers or a limit stops it. An async generator of {@link AgentEvent}s that returns an
 * {@link AgentLoopOutcome}. It never throws for model, tool or limit failures: they end the run with a stop
 * reason, and the last event is always `loop_end`.
 *
 * The loop only sequences its seams; each concern is a policy made once per run (`createLoopRun`): before a
 * turn the signal, the limits, the soft checkpoints and the steering messages; the model turn (`prepareStep`,
 * context, cost, the call, the response checks); after it the tool-call guards; the tool step with approvals;
 * the checkpoint after each completed step, then terminal tools and `stopWhen`; and `endRun` at the end
 * (docs/loop.md, "The loop and its policies").
 */
export async function* agentLoop(config: AgentLoopConfig): AsyncGenerator<AgentEvent, AgentLoopOutcome> {
  const run = createLoopRun(config);
  const { state, signal, limits, soft, turn, guards, approvals, checkpoint, output, afterTools, steering } =
    run;
  const { guardrails } = run;
  let stopReason: StopReason | undefined;
  let failure: Error | undefined;
  yield createEvent("loop_start", 0, { task: config.task, model: run.modelName });
  try {
    if (guardrails !== undefined && (yield* guardrails.beforeRun())) stopReason = "guardrail";
    if (config.resume !== undefined) {
      // A paused turn: its calls (the last assistant message's) run now, with the human's decisions.
      const calls = approvals.pausedCalls();
      const decisions = config.resume;
      const paused = approvals.pausedTurn(config.pausedTurn);
      const step = { calls, turn: 0, decisions, registry: run.tools.registry, resumed: paused };
      const resumed = yield* toolStep(toolStepOptions(run.tools, step));
      if (resumed.kind === "paused") {
        stopReason = approvals.pause(resumed.pending, resumed.pausedTurn); // paused again, in a sub-agent
      } else {
        for (const message of resumed.messages) state.messages.push(message);
        if (resumed.kind === "blocked") stopReason = "guardrail";
        approvals.resumed();
        await checkpoint.turnDone();
        if (afterTools !== undefined && resumed.kind === "done") {
          stopReason = await afterTools.check({ calls, results: resumed.messages });
        }
      }
    }
    while (stopReason === undefined) {
      const limit = signal.stopReason() ?? limits.beforeTurn();
      if (limit !== undefined) {
        if (limit === "max_turns") stopReason = yield* limits.atMaxTurns(output?.wrapUp(turn) ?? turn);
        else stopReason = limit;
        break;
      }
      const softLimit = soft.beforeTurn();
      if (softLimit !== undefined) yield softLimit;
      if (steering?.waiting() === true) yield* steering.apply();
      const events = output === undefined ? turn.run() : output.run(turn);
      const response = yield* guardrails === undefined ? events : guardrails.turn(events);
      if (guardrails?.error !== undefined) {
        stopReason = "guardrail"; // a parallel input guardrail blocked: the turn's answer was discarded
        break;
      }
      if (response === undefined) {
        stopReason = "cost_limit";
        break;
      }
      const final = output === undefined ? undefined : yield* output.afterResponse(response);
      if (final !== undefined && final.kind !== "not_final") {
        if (final.kind === "retry") {
          await checkpoint.turnDone();
          continue;
        }
        stopReason = final.kind === "done" ? "completed" : final.stopReason;
        break;
      }
      const calls = response.toolCalls;
      if (calls.length === 0) {
        state.text = response.text;
        // Messages sent while the model answered: it answers again, with them (docs/loop.md, "Steering").
        if (steering?.waiting() === true && response.finishReason.unified !== "length") {
          await checkpoint.turnDone();
          continue;
        }
        // An answer cut off by the output limit is not a completed answer: say so (docs/loop.md).
        stopReason = response.finishReason.unified === "length" ? "max_output_tokens" : "completed";
        break;
      }
      if (response.text !== "") yield createEvent("thought", state.turns, { content: response.text });
      const verdict = guards.check(calls);
      if (verdict !== undefined) {
        if (verdict.event !== undefined) yield verdict.event;
        if (verdict.kind === "stop") {
          stopReason = verdict.stopReason;
          break;
        }
        await checkpoint.turnDone(); // refused: every call was answered, the run goes on
        continue;
      }
      const decisions = approvals.decisionsFor(state.turns);
      const step = { calls, turn: state.turns, decisions, registry: turn.registry, resumed: undefined };
      const result = yield* toolStep(toolStepOptions(run.tools, step));
      if (result.kind === "paused") {
        stopReason = approvals.pause(result.pending, result.pausedTurn);
        break;
      }
      for (const message of result.messages) state.messages.push(message);
      if (result.kind === "blocked") {
        stopReason = "guardrail";
        break;
      }
      await checkpoint.turnDone();
      if (afterTools !== undefined) stopReason = await afterTools.check({ calls, results: result.messages });
    }
    if (guardrails !== undefined) stopReason = yield* guardrails.afterRun(stopReason);
  } catch (error) {
    if (signal.aborted) {
      stopReason = signal.abortReason();
    } else {
      stopReason = "error";
      failure = toError(error);
      yield createEvent("error", state.turns, { ...describeError(failure), fatal: true });
    }
  } finally {
    // Ended early (the consumer stopped iterating) or by an unexpected throw: stop whatever is in flight.
    signal.dispose({ finished: stopReason !== undefined });
    steering?.close();
  }
  const ended = stopReason ?? "error";
  // A run with an output schema that ends without a valid answer says why (its stop reason stays).
  const outputError = output?.missing(ended);
  const { cost } = run;
  return yield* endRun({
    state,
    stopReason: ended,
    failure,
    outputError,
    guardrails,
    checkpoint,
    cost,
    approvals,
  });
}

/** A tool step's own options: what changes per step. */
type StepPart = Pick<ToolStepOptions, "calls" | "turn" | "decisions" | "registry" | "resumed">;

/**
 * A tool step's options, key by key: `{ ...run.tools, calls, … }` would make an object of a new hidden class
 * every turn (V8), and this is once per tool turn of every run. Every key is listed (the type says so), so
 * none is lost when {@link ToolStepOptions} grows.
 */
function toolStepOptions(tools: LoopRun["tools"], step: StepPart): ToolStepOptions {
  const options: { [K in keyof Required<ToolStepOptions>]: ToolStepOptions[K] } = {
    calls: step.calls,
    registry: step.registry,
    turn: step.turn,
    signal: tools.signal,
    parallel: tools.parallel,
    concurrency: tools.concurrency,
    timeoutMs: tools.timeoutMs,
    maxResultChars: tools.maxResultChars,
    sessionId: tools.sessionId,
    state: tools.state,
    decisions: step.decisions,
    guardrails: tools.guardrails,
    subAgents: tools.subAgents,
    resumed: step.resumed,
  };
  return options;
}
