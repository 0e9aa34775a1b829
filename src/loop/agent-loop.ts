import type { BudgetCharges, BudgetReservation } from "../cost/budget.js";
import { CostMeter, unpricedModelMessage } from "../cost/cost-meter.js";
import { EmptyResponseError } from "../errors/empty-response-error.js";
import { isContextLengthError } from "../errors/is-context-length-error.js";
import type { RetryPolicy } from "../http/retry-policy.js";
import type { Message } from "../models/message.js";
import type { Model, ModelRequest, ModelResponse } from "../models/model.js";
import { addUsage, emptyUsage, type Usage } from "../models/usage.js";
import { PENDING_APPROVALS_KEY } from "../sessions/close-pending-calls.js";
import type { RunPersistence } from "../sessions/run-persistence.js";
import type { RunState } from "../sessions/run-state.js";
import type { JsonValue } from "../stores/session-store.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { Trace } from "../trace/trace-types.js";
import { toError } from "../util/to-error.js";
import type { AgentEvent, StopReason } from "./agent-event.js";
import type { AgentLimits, LimitPrompts } from "./agent-limits.js";
import { callModel } from "./call-model.js";
import { ContextManager } from "./context-manager.js";
import type { ResolvedContextOptions } from "./context-options.js";
import { CostGuard } from "./cost-guard.js";
import { createEvent, describeError } from "./create-event.js";
import {
  assistantMessage,
  closeOpenToolCalls,
  detectLoop,
  refuseDeepArguments,
  tooManyToolCalls,
} from "./history-helpers.js";
import { type LoopDetectionOptions, LoopDetector } from "./loop-detector.js";
import { type ApprovalDecisions, type PendingApproval, toolStep } from "./tool-step.js";

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
  /** The step trace, when the run was recorded (added by the Agent's trace wrapper). */
  trace?: Trace;
  error?: Error;
}

const TIMEOUT = Symbol("agentloop.timeout");

/** No text at all, or only whitespace: not an answer. */
const isBlank = (text: string | undefined): boolean => text === undefined || text.trim() === "";

/**
 * The agent loop: call the model, run the tool calls it returns, feed the results back, repeat until it
 * answers or a limit stops it. An async generator of {@link AgentEvent}s that returns an
 * {@link AgentLoopOutcome}. It never throws for model, tool or limit failures: they end the run with a stop
 * reason, and the last event is always `loop_end`.
 */
export async function* agentLoop(config: AgentLoopConfig): AsyncGenerator<AgentEvent, AgentLoopOutcome> {
  const { model, tools, messages, limits, prompts } = config;
  const started = Date.now();
  const controller = new AbortController();
  const onAbort = () => controller.abort(config.signal?.reason);
  config.signal?.addEventListener("abort", onAbort, { once: true });
  if (config.signal?.aborted) onAbort();
  // setTimeout fires at once for delays beyond 2^31-1 ms: treat those (and Infinity) as "no timeout".
  const timer =
    limits.timeoutMs <= 2_147_483_647
      ? setTimeout(() => controller.abort(TIMEOUT), limits.timeoutMs)
      : undefined;
  const signal = controller.signal;
  const detector = config.loopDetection === false ? undefined : new LoopDetector(config.loopDetection);
  const usage = emptyUsage();
  const modelName = `${model.provider}:${model.modelId}`;
  let turns = 0;
  let text = "";
  let stopReason: StopReason | undefined;
  let failure: Error | undefined;
  let stepsSinceCheckpoint = 0;
  /** Whether a model call (or a resumed turn) started: a run stopped before that leaves the session as it was. */
  let modelCalled = config.resume !== undefined;
  let lastTimeCheckpoint = started;

  const abortReason = (): StopReason => (signal.reason === TIMEOUT ? "timeout" : "aborted");
  const request = (overrides?: Partial<ModelRequest>): ModelRequest => {
    const req: ModelRequest = { messages, parallelToolCalls: config.parallelToolCalls };
    const specs = tools.schemas();
    if (specs.length > 0) req.tools = specs;
    if (config.temperature !== undefined) req.temperature = config.temperature;
    if (config.maxOutputTokens !== undefined) req.maxOutputTokens = config.maxOutputTokens;
    return overrides === undefined ? req : { ...req, ...overrides };
  };
  const meter = config.costMeter ?? new CostMeter();
  const contextManager = new ContextManager({
    options: config.context,
    model,
    usage,
    // A summary call is not reserved in advance: its cost counts for the run's cap (the meter) and is charged
    // to a shared budget as it happens.
    onModelUsage: async ({ model: summaryModel, usage: summaryUsage }) => {
      const { costUsd } = meter.add({ modelId: summaryModel.modelId, usage: summaryUsage });
      await config.budget?.record(costUsd);
    },
  });
  const costGuard = new CostGuard({
    meter,
    modelId: model.modelId,
    maxCostUsd: limits.maxCostUsd,
    budget: config.budget,
  });
  const persist = async () => {
    if (config.persistence !== undefined) await config.persistence.flush(messages);
  };
  /** One model call; undefined when a cost cap stopped it before it was made. */
  const modelTurn = async function* (
    req: ModelRequest,
  ): AsyncGenerator<AgentEvent, ModelResponse | undefined> {
    const step = turns + 1;
    modelCalled = true;
    const t0 = performance.now();
    const compactArgs = { messages, tools: req.tools, signal, step };
    // Without a context option there is nothing to measure: no generator, no counting on the hot path.
    if (config.context !== undefined && (yield* contextManager.prepare(compactArgs))) {
      await config.persistence?.replace(messages);
    }
    let reservation: BudgetReservation | undefined;
    if (costGuard.active) {
      const inputTokens = await contextManager.measure(messages, req.tools);
      const admitted = await costGuard.admit({ inputTokens, maxOutputTokens: req.maxOutputTokens });
      if (admitted === false) return undefined;
      reservation = admitted;
    }
    let response: ModelResponse;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          response = yield* callModel({
            model,
            request: req,
            stream: config.stream,
            retry: config.retry,
            signal,
            step,
          });
          break;
        } catch (error) {
          // A context-length error: compact harder and retry the call once.
          if (attempt > 0 || signal.aborted || !isContextLengthError(error)) throw error;
          if (!(yield* contextManager.recover({ ...compactArgs, error }))) throw error;
          await config.persistence?.replace(messages);
        }
      }
    } catch (error) {
      if (reservation !== undefined) await costGuard.settle(reservation, 0);
      throw error;
    }
    const { costUsd, priced, firstUnpriced } = meter.add({
      modelId: model.modelId,
      respondedModel: response.model,
      usage: response.usage,
    });
    // Only a budget reservation has something to settle: no promise hop per turn without one.
    if (reservation !== undefined) await costGuard.settle(reservation, costUsd);
    turns = step;
    contextManager.calibrate(response.usage.inputTokens);
    addUsage(usage, response.usage);
    yield createEvent("model_call", turns, {
      model: modelName,
      finishReason: response.finishReason,
      usage: response.usage,
      latencyMs: Math.round(performance.now() - t0),
      costUsd,
      priced,
    });
    if (firstUnpriced) {
      // Once per run and model: its cost is not known (a warning, the run goes on).
      const message = unpricedModelMessage(model.modelId);
      yield createEvent("error", turns, { name: "UnpricedModel", message, fatal: false });
    }
    if (isBlank(response.text) && response.toolCalls.length === 0 && isBlank(response.refusal)) {
      // Not an answer: end the run with a clear error and keep the history as it was (resumable).
      throw new EmptyResponseError({ finishReason: response.finishReason.unified, model: modelName });
    }
    const toolCalls = refuseDeepArguments(response.toolCalls);
    const answer = toolCalls === response.toolCalls ? response : { ...response, toolCalls };
    messages.push(assistantMessage(answer));
    if (answer.text !== "") text = answer.text;
    return answer;
  };

  const toolOptions = {
    registry: tools,
    signal,
    parallel: config.parallelToolCalls,
    concurrency: config.toolConcurrency,
    timeoutMs: config.toolTimeoutMs,
    maxResultChars: config.maxToolResultChars,
    sessionId: config.sessionId,
    state: config.state,
  };
  let pendingApprovals: PendingApproval[] | undefined;

  yield createEvent("loop_start", 0, { task: config.task, model: modelName });
  try {
    if (config.resume !== undefined) {
      // A paused turn: its calls (the last assistant message's) run now, with the human's decisions.
      const last = messages.at(-1);
      const calls = last?.role === "assistant" ? (last.toolCalls ?? []) : [];
      const resumed = yield* toolStep({ ...toolOptions, calls, step: 0, decisions: config.resume });
      if (resumed.kind === "done") for (const message of resumed.messages) messages.push(message);
      config.state?.delete(PENDING_APPROVALS_KEY);
      await persist();
    }
    while (stopReason === undefined) {
      if (signal.aborted) {
        stopReason = abortReason();
        break;
      }
      if (limits.maxTokens !== undefined && usage.totalTokens >= limits.maxTokens) {
        stopReason = "token_limit";
        break;
      }
      if (turns >= limits.maxTurns) {
        if (limits.wrapUp) {
          messages.push({ role: "user", content: prompts.wrapUp });
          const wrapped = yield* modelTurn(request({ toolChoice: "none" }));
          closeOpenToolCalls(messages, "the step limit was reached");
          if (wrapped === undefined) {
            stopReason = "cost_limit";
            break;
          }
        }
        stopReason = "max_turns";
        break;
      }
      const now = Date.now();
      if (limits.softMaxSteps !== undefined && stepsSinceCheckpoint >= limits.softMaxSteps) {
        const prompt = prompts.softSteps({ steps: turns });
        messages.push({ role: "user", content: prompt });
        yield createEvent("soft_limit", turns, { reason: "steps", prompt });
        stepsSinceCheckpoint = 0;
      } else if (limits.softTimeoutMs !== undefined && now - lastTimeCheckpoint >= limits.softTimeoutMs) {
        const prompt = prompts.softTime({ elapsedMs: now - started });
        messages.push({ role: "user", content: prompt });
        yield createEvent("soft_limit", turns, { reason: "time", prompt });
        lastTimeCheckpoint = now;
      }
      stepsSinceCheckpoint++;

      const response = yield* modelTurn(request());
      if (response === undefined) {
        stopReason = "cost_limit";
        break;
      }
      const calls = response.toolCalls;
      if (calls.length === 0) {
        text = response.text;
        // An answer cut off by the output limit is not a completed answer: say so (docs/loop.md).
        stopReason = response.finishReason.unified === "length" ? "max_output_tokens" : "completed";
        break;
      }
      if (response.text !== "") yield createEvent("thought", turns, { content: response.text });
      if (calls.length > limits.maxToolCallsPerTurn) {
        const reason = tooManyToolCalls({ calls: calls.length, limit: limits.maxToolCallsPerTurn });
        closeOpenToolCalls(messages, reason);
        yield createEvent("error", turns, { name: "TooManyToolCalls", message: reason, fatal: false });
        await persist();
        continue;
      }
      const loop = detectLoop(detector, calls);
      if (loop !== undefined) {
        closeOpenToolCalls(messages, `agentloop stopped the run because a loop was detected (${loop})`);
        yield createEvent("error", turns, { name: "LoopDetected", message: loop, fatal: false });
        stopReason = "loop_detected";
        break;
      }
      if (limits.maxTokens !== undefined && usage.totalTokens >= limits.maxTokens) {
        closeOpenToolCalls(messages, "the run's token limit was reached");
        stopReason = "token_limit";
        break;
      }
      const decisions = config.approvals?.get(turns);
      const stepResult = yield* toolStep({ ...toolOptions, calls, step: turns, decisions });
      if (stepResult.kind === "paused") {
        pendingApprovals = stepResult.pending;
        config.state?.set(PENDING_APPROVALS_KEY, stepResult.pending as unknown as JsonValue);
        stopReason = "awaiting_approval";
        break;
      }
      for (const message of stepResult.messages) messages.push(message);
      await persist();
    }
  } catch (error) {
    if (signal.aborted) {
      stopReason = abortReason();
    } else {
      stopReason = "error";
      failure = toError(error);
      yield createEvent("error", turns, { ...describeError(failure), fatal: true });
    }
  } finally {
    clearTimeout(timer);
    config.signal?.removeEventListener("abort", onAbort);
    // Ended early (the consumer stopped iterating) or by an unexpected throw: stop whatever is in flight.
    // A normal end has nothing in flight (timed-out tools were aborted already), so it skips the cost.
    if (stopReason === undefined && !signal.aborted) controller.abort(new Error("run finished"));
  }
  const final: StopReason = stopReason ?? "error";
  if (final === "awaiting_approval") {
    // The pending calls stay open: resume answers them.
  } else if (final === "timeout" || final === "aborted") {
    closeOpenToolCalls(messages, final === "timeout" ? "the run timed out" : "the run was aborted");
  } else {
    closeOpenToolCalls(messages, "the run stopped");
  }
  try {
    // Aborted (or timed out) before anything happened, e.g. with an already-aborted signal: nothing to keep,
    // so the user's message is not saved.
    if (modelCalled || (final !== "aborted" && final !== "timeout")) await persist();
  } catch (error) {
    failure = toError(error);
    yield createEvent("error", turns, { ...describeError(failure), fatal: true });
  }
  const ended: StopReason = failure !== undefined && final !== "error" ? "error" : final;
  yield createEvent("loop_end", turns, { stopReason: ended, text });
  const outcome: AgentLoopOutcome = {
    stopReason: ended,
    text,
    turns,
    usage,
    messages,
    costUsd: meter.totalUsd,
    costUnknownModels: [...meter.unknownModels],
  };
  if (pendingApprovals !== undefined && ended === "awaiting_approval")
    outcome.pendingApprovals = pendingApprovals;
  if (failure !== undefined) outcome.error = failure;
  return outcome;
}
