import type { BudgetReservation } from "../cost/budget.js";
import { unpricedModelMessage } from "../cost/cost-meter.js";
import { isContextLengthError } from "../errors/is-context-length-error.js";
import type { RetryPolicy } from "../http/retry-policy.js";
import type { FallbackModel } from "../models/fallback-model.js";
import type { Message } from "../models/message.js";
import type { Model, ModelRequest, ModelResponse, ToolChoice } from "../models/model.js";
import { addUsage } from "../models/usage.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { AgentEvent } from "./agent-event.js";
import { type CallModelOptions, callModel } from "./call-model.js";
import type { ContextManager } from "./context-manager.js";
import type { CostGuard } from "./cost-guard.js";
import { createEvent, describeError } from "./create-event.js";
import { assistantMessage } from "./history-helpers.js";
import type { LoopState } from "./loop-state.js";
import type { Checkpoint } from "./policies/checkpoint.js";
import type { StepPlan, StepPreparer } from "./policies/prepare-step.js";
import type { ResponseChecks } from "./policies/response-checks.js";
import type { StepModel } from "./policies/step-model.js";
import { offeredSpecs } from "./policies/tool-subset.js";

/** Options of {@link ModelTurn}: the run's model settings and the policies around its calls. */
export interface ModelTurnOptions {
  state: LoopState;
  model: Model;
  /** `provider:modelId`, for the `model_call` event. */
  modelName: string;
  tools: ToolRegistry;
  signal: AbortSignal;
  /** Stream the answer (`text_delta` events) or call `generate`. */
  stream: boolean;
  retry: RetryPolicy;
  parallelToolCalls: boolean;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
  /** Context budget and compaction. */
  context: Pick<ContextManager, "prepare" | "recover" | "measure" | "calibrate">;
  /** Whether a `context` option was given: without one, nothing is measured before a call. */
  compactBeforeCalls: boolean;
  cost: Pick<CostGuard, "active" | "admit" | "price" | "settle">;
  checkpoint: Pick<Checkpoint, "compacted">;
  checks: Pick<ResponseChecks, "accept">;
  /** The run's models in order of preference, when the agent has fallbacks (`model` is, or wraps, this). */
  fallback?: FallbackModel | undefined;
  /** Runs with a `prepareStep` hook: the hook's policy, and the run's step model (`model` is, or wraps, it). */
  prepare?: { preparer: StepPreparer; model: StepModel } | undefined;
  /** The run's `toolChoice`: every call's, unless its step or the loop's own request sets another. */
  toolChoice?: ToolChoice | undefined;
}

/**
 * One model turn, with the policies at its seams. Before the call: compaction past the context threshold
 * (persisted through the checkpoint) and the cost policy's admission. The call itself (`callModel`, which owns
 * the retries), compacting harder and retrying once after a context-length error. After it: pricing and the
 * budget settlement, the turn count, calibration and usage, the `model_call` event (and a warning for an
 * unpriced model), the response checks, and the assistant message appended to the history.
 */
export class ModelTurn {
  /** The tools the last turn offered: its tool calls run against these (the run's, unless its step chose). */
  registry: ToolRegistry;
  /** The current turn's step plan (runs with `prepareStep`). */
  private plan: StepPlan | undefined;

  constructor(private readonly options: ModelTurnOptions) {
    this.registry = options.tools;
  }

  /** Runs one turn; returns the kept response, or undefined when the cost policy refused the call. */
  async *run(overrides?: Partial<ModelRequest>): AsyncGenerator<AgentEvent, ModelResponse | undefined> {
    const { state, context, cost, checkpoint, signal, model } = this.options;
    const turn = state.turns + 1;
    // Without a prepareStep hook there is no plan: no await, nothing allocated.
    const plan = this.options.prepare === undefined ? undefined : await this.prepare(turn);
    this.plan = plan;
    this.registry = plan?.tools?.registry ?? this.options.tools;
    yield createEvent("turn_start", turn, { model: plan?.modelName ?? this.modelName() });
    const req = this.request(overrides, plan);
    state.modelCalled = true;
    const t0 = performance.now();
    // Without a context option there is nothing to measure: no generator, no counting on the hot path.
    if (this.options.compactBeforeCalls) {
      const args = { messages: state.messages, tools: req.tools, signal, turn };
      if (yield* context.prepare(args)) await checkpoint.compacted();
    }
    if (plan !== undefined) req.messages = this.sentMessages(plan);
    // Without a cap or a budget there is nothing to estimate: no await.
    const reservation = cost.active ? await this.admit(req, plan?.model) : undefined;
    if (reservation === false) return undefined;
    const call = {
      model,
      request: req,
      stream: this.options.stream,
      retry: this.options.retry,
      signal,
      turn,
    };
    let response: ModelResponse;
    // A step's model answers this call alone (through the step model, so journals and traces see it).
    this.options.prepare?.model.use(plan?.model);
    try {
      // The agent's fallbacks are for its own models: a step's model is called without them.
      if (this.options.fallback !== undefined && plan?.model === undefined) {
        response = yield* this.callWithFallback(call);
      } else {
        // callRecovering, inlined: one async-generator layer less for every event of the call.
        try {
          response = yield* callModel(call);
        } catch (error) {
          response = yield* this.recover(call, error);
        }
      }
    } catch (error) {
      if (reservation !== undefined) await cost.settle(reservation, 0);
      throw error;
    } finally {
      this.options.prepare?.model.use(undefined);
    }
    const answering = plan?.model ?? this.options.fallback?.current ?? model;
    const { costUsd, priced, firstUnpriced } = cost.price(response, answering.modelId);
    // Only a budget reservation has something to settle: no promise hop per turn without one.
    if (reservation !== undefined) await cost.settle(reservation, costUsd);
    state.turns = turn;
    context.calibrate(response.usage.inputTokens);
    addUsage(state.usage, response.usage);
    const latencyMs = Math.round(performance.now() - t0);
    const { finishReason, usage } = response;
    yield createEvent("model_call", turn, {
      model: answering === model ? this.options.modelName : `${answering.provider}:${answering.modelId}`,
      finishReason,
      usage,
      latencyMs,
      costUsd,
      priced,
    });
    if (firstUnpriced) {
      // Once per run and model: its cost is not known (a warning, the run goes on).
      const message = unpricedModelMessage(answering.modelId);
      yield createEvent("error", turn, { name: "UnpricedModel", message, fatal: false });
    }
    const answer = this.options.checks.accept(response);
    state.messages.push(assistantMessage(answer));
    if (answer.text !== "") state.text = answer.text;
    return answer;
  }

  /**
   * The call, compacting harder and calling once more after a context-length error, then (with fallbacks) on
   * the next model after a failure that remains: a `retry` event (source "stream" when streaming: the turn's
   * streamed text is void) and a `model_fallback` event, then the same request on the next model.
   */
  private async *callWithFallback(call: CallModelOptions): AsyncGenerator<AgentEvent, ModelResponse> {
    const { signal, fallback } = this.options;
    for (;;) {
      try {
        return yield* this.callRecovering(call);
      } catch (error) {
        const next = signal.aborted ? undefined : fallback?.fallBack();
        if (next === undefined) throw error;
        const message = describeError(error).message;
        const source = call.stream ? "stream" : "request";
        yield createEvent("retry", call.turn, { attempt: 1, delayMs: 0, error: message, source });
        yield createEvent("model_fallback", call.turn, {
          from: `${next.from.provider}:${next.from.modelId}`,
          to: `${next.to.provider}:${next.to.modelId}`,
          error: message,
        });
      }
    }
  }

  /** The call, and once more after compacting harder when it failed for the context length. */
  private async *callRecovering(call: CallModelOptions): AsyncGenerator<AgentEvent, ModelResponse> {
    try {
      return yield* callModel(call);
    } catch (error) {
      return yield* this.recover(call, error);
    }
  }

  /** After a failed call: a context-length error compacts harder and calls once more; others are thrown. */
  private async *recover(call: CallModelOptions, error: unknown): AsyncGenerator<AgentEvent, ModelResponse> {
    const { state, context, checkpoint, signal } = this.options;
    if (signal.aborted || !isContextLengthError(error)) throw error;
    const tools = call.request.tools;
    const recovered = yield* context.recover({
      messages: state.messages,
      tools,
      signal,
      turn: call.turn,
      error,
    });
    if (!recovered) throw error;
    await checkpoint.compacted();
    const { plan } = this;
    if (plan === undefined) return yield* callModel(call);
    // The step sends its own messages: compacting the history does not shorten them.
    if (plan.messages !== undefined) throw error;
    return yield* callModel({ ...call, request: { ...call.request, messages: this.sentMessages(plan) } });
  }

  /** The cost policy's admission of a call: its reservation, or `false` when it could exceed a cap. */
  private async admit(req: ModelRequest, stepModel?: Model): Promise<BudgetReservation | undefined | false> {
    const inputTokens = await this.options.context.measure(req.messages, req.tools);
    const { maxOutputTokens } = req;
    return this.options.cost.admit({ inputTokens, maxOutputTokens, modelId: stepModel?.modelId });
  }

  /** The plan of turn `turn` from the `prepareStep` hook. */
  private prepare(turn: number): Promise<StepPlan | undefined> {
    const preparer = (this.options.prepare as { preparer: StepPreparer }).preparer;
    return preparer.plan({ turn, model: this.modelName() });
  }

  /** `provider:modelId` of the model the next call goes to (the current fallback, when the agent has some). */
  private modelName(): string {
    const current = this.options.fallback?.current;
    return current === undefined ? this.options.modelName : `${current.provider}:${current.modelId}`;
  }

  /** The messages a step sends: its own or the history, with its system prompt in place of the history's. */
  private sentMessages(plan: StepPlan): readonly Message[] {
    const base = plan.messages ?? this.options.state.messages;
    if (plan.system === undefined) return base;
    const system: Message = { role: "system", content: plan.system };
    return base[0]?.role === "system" ? [system, ...base.slice(1)] : [system, ...base];
  }

  /**
   * The request of a turn: the run's messages (not copied), the registry's tool specs and settings; the run's
   * tool choice, then the step's, then the loop's own `overrides` (the wrap-up's, the typed answer's) win. A
   * step's tool subset filters the tools last (tools that are not the run's, such as `final_answer`, stay).
   */
  private request(overrides: Partial<ModelRequest> | undefined, plan: StepPlan | undefined): ModelRequest {
    const { state, tools, parallelToolCalls, temperature, maxOutputTokens } = this.options;
    const req: ModelRequest = { messages: state.messages, parallelToolCalls };
    const specs = tools.schemas();
    if (specs.length > 0) req.tools = specs;
    if (temperature !== undefined) req.temperature = temperature;
    if (maxOutputTokens !== undefined) req.maxOutputTokens = maxOutputTokens;
    const toolChoice = plan?.toolChoice ?? this.options.toolChoice;
    if (toolChoice !== undefined) req.toolChoice = toolChoice;
    const merged = overrides === undefined ? req : { ...req, ...overrides };
    if (plan?.tools !== undefined) {
      const offered = offeredSpecs({ specs: merged.tools, registry: tools, allowed: plan.tools.allowed });
      if (offered === undefined) delete merged.tools;
      else merged.tools = offered;
    }
    return merged;
  }
}
