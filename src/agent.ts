import type { AgentOptions, PausedRun, ResumeOptions, RunOptions } from "./agent-options.js";
import type { RunInput } from "./models/normalize-content.js";

export type { AgentOptions, PausedRun, ResumeOptions, RunOptions } from "./agent-options.js";

import { AgentRunner } from "./agent-runner.js";
import { type AgentStream, createAgentStream } from "./agent-stream.js";
import { type AgentToolOptions, agentTool } from "./agents/agent-tool.js";
import { type Handoff, handoff, isHandoff } from "./agents/handoff.js";
import { HandoffRouting } from "./agents/handoff-routing.js";
import { RUN_SUB_AGENT, type SubAgentRun } from "./agents/sub-agent-run.js";
import { checkAgentOptions } from "./check-agent-options.js";
import { checkRunCall, pausedRunOf } from "./check-run-call.js";
import { checkRunControl } from "./check-run-control.js";
import { checkCapPricing } from "./cost/check-cap-pricing.js";
import { sessionOfRun } from "./durable/session-of-run.js";
import { InvalidArgumentError } from "./errors/invalid-argument-error.js";
import type { AgentEvent } from "./loop/agent-event.js";
import { DEFAULT_LIMIT_PROMPTS, resolveLimits } from "./loop/agent-limits.js";
import type { AgentLoopOutcome } from "./loop/agent-loop.js";
import { type AgentResult, AgentResultBuilder } from "./loop/agent-result.js";
import { resolveAgentRetryPolicy } from "./loop/agent-retry-policy.js";
import { resolveContextOptions } from "./loop/context-options.js";
import { DEFAULT_LOOP_DETECTION, LoopDetector } from "./loop/loop-detector.js";
import type { PausedTurn } from "./loop/policies/sub-agents.js";
import { closeSteeringInbox, SteeringInbox } from "./loop/steering-inbox.js";
import type { ApprovalDecisions } from "./loop/tool-step.js";
import type { Message } from "./models/message.js";
import type { Model } from "./models/model.js";
import { OUTPUT_NAME, resolveOutput } from "./output/resolve-output.js";
import { systemPromptOf } from "./profiles/system-prompt-of.js";
import { resolveModel } from "./providers/resolve-model.js";
import { createRedactor } from "./stores/redactor.js";
import type { Tool } from "./tools/tool.js";
import { ToolRegistry } from "./tools/tool-registry.js";
import { followSignal } from "./util/follow-signal.js";

/**
 * An agent: a model, tools and limits. `run`, `stream` and `resume` drive the same loop, with a session
 * (`sessionId`), a durable run log (`runId`), both or neither; `run` folds the events into an
 * {@link AgentResult}. Options are validated here, at construction.
 */
export class Agent<TOutput = unknown> {
  /** The model (the first of the list when the agent has fallbacks). */
  readonly model: Model;
  /** The models tried after `model`, in order, when a call fails for good (empty without fallbacks). */
  readonly fallbackModels: readonly Model[];
  readonly tools: ToolRegistry;
  readonly system: string | undefined;
  private readonly runner: AgentRunner;
  /** The typed answer's tool, for a model without native structured output (a valid `toolChoice` name). */
  private readonly outputTool: string | undefined;
  private resolvedHandoffs: readonly Handoff[] | undefined;
  private routed = false;
  /** The options this agent was built with (read-only; use `with()` to derive an agent with others). */
  readonly options: Readonly<AgentOptions<TOutput>>;

  constructor(options: AgentOptions<TOutput>) {
    if (options === null || typeof options !== "object") {
      throw new InvalidArgumentError({ argument: "options", message: "expected an options object" });
    }
    checkAgentOptions(options);
    this.options = options;
    const [primary, ...fallbackModels] = resolveModels(options.model);
    this.model = primary;
    this.fallbackModels = fallbackModels;
    this.tools = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry();
    if (Array.isArray(options.tools)) this.tools.registerMany(options.tools);
    this.system = systemPromptOf(options.system);
    // Handoffs given as a list are checked now (a function is called at the first run: agents that hand back).
    if (Array.isArray(options.handoffs)) void this.handoffs;
    const limits = resolveLimits(options.limits);
    const output = this.resolveOutput(options);
    this.outputTool =
      output !== undefined && this.model.capabilities?.structuredOutput !== true ? OUTPUT_NAME : undefined;
    // A typed answer is asked for once more at maxTurns, unless the wrap-up is turned off explicitly.
    if (output !== undefined && options.limits?.wrapUp === undefined) limits.wrapUp = true;
    // A cost cap on a model without a price would never stop anything: refuse it now.
    checkCapPricing({
      modelId: this.model.modelId,
      pricing: options.pricing,
      fallback: options.pricingFallback,
      cap:
        limits.maxCostUsd !== undefined
          ? "limits.maxCostUsd"
          : options.budget !== undefined
            ? "budget"
            : undefined,
    });
    const loopDetection =
      options.loopDetection === false ? false : { ...DEFAULT_LOOP_DETECTION, ...options.loopDetection };
    if (loopDetection !== false) new LoopDetector(loopDetection); // validates
    this.runner = new AgentRunner({
      options,
      model: this.model,
      tools: this.tools,
      system: this.system,
      limits,
      prompts: { ...DEFAULT_LIMIT_PROMPTS, ...options.prompts },
      retry: resolveAgentRetryPolicy({ retry: options.retry, model: this.model }),
      loopDetection,
      output,
      fallbackModels,
      context: options.context === undefined ? undefined : resolveContextOptions(options.context),
      // Stored redaction only when asked for: the stored conversation is what the model sees on later runs.
      redactor:
        options.redact === undefined || options.redact === false || options.store === undefined
          ? undefined
          : options.redact === true
            ? createRedactor()
            : options.redact,
    });
  }

  /** The output schema made ready (checked now: a bad schema fails at construction). */
  private resolveOutput(options: AgentOptions<TOutput>) {
    if (options.output === undefined) return undefined;
    const schema = resolveOutput({ schema: options.output });
    if (this.model.capabilities?.structuredOutput !== true && this.tools.has(OUTPUT_NAME)) {
      throw new InvalidArgumentError({
        argument: "tools",
        message: `a tool is named "${OUTPUT_NAME}": the typed answer of a model without native structured output uses that name`,
      });
    }
    return { schema, maxRetries: options.outputRetries ?? 1 };
  }

  /**
   * A new agent with the same options except `overrides` (e.g. another model or tools). The original is
   * unchanged. Used by replay and reflection; handy for A/B runs.
   */
  with<T = TOutput>(overrides: Partial<AgentOptions<T>>): Agent<T> {
    return new Agent<T>({ ...(this.options as AgentOptions<T>), ...overrides });
  }

  /**
   * Continues a run that stopped with `awaiting_approval`: the paused turn's calls run with the decisions
   * (`approve` / `deny` by tool call id; a pending call in neither list is denied), then the loop goes on.
   * `paused` is the paused result (or its JSON: `{ messages, pendingApprovals }`), `{ sessionId }` to resume
   * a paused session from the store, or a durable run's id (`runId` or `{ runId }`): the decision is journaled
   * and the run replays its log and goes on — from any process with the same journal (and store).
   */
  async resume(run: PausedRun, decisions: ResumeOptions = {}): Promise<AgentResult<TOutput>> {
    try {
      return await this.fold(await this.resumeEvents(run, decisions));
    } finally {
      // Also when the run could not start: messages sent to it are then reported as not delivered.
      const { steering } = decisions;
      if (steering instanceof SteeringInbox) closeSteeringInbox(steering);
    }
  }

  /** The events of a `resume` call (see {@link Agent.resume}). */
  private async resumeEvents(
    run: PausedRun,
    decisions: ResumeOptions,
    stream = false,
  ): Promise<AsyncGenerator<AgentEvent, unknown>> {
    const paused = pausedRunOf(run);
    const resume = {
      approve: new Set(decisions.approve ?? []),
      deny: new Set(decisions.deny ?? []),
    };
    const options: RunOptions = {};
    if (decisions.signal !== undefined) options.signal = decisions.signal;
    if (decisions.steering !== undefined) options.steering = decisions.steering;
    if ("runId" in paused && typeof paused.runId === "string") {
      const { runId } = paused;
      // A durable run of a session continues in it: its log says which (only an agent with a store has any).
      const sessionId =
        this.options.store === undefined
          ? undefined
          : await sessionOfRun({ journal: this.options.journal, runId });
      const runOptions = { ...options, runId, ...(sessionId !== undefined && { sessionId }) };
      return this.events("", runOptions, stream, resume, decisions.decidedBy);
    }
    if ("sessionId" in paused && typeof paused.sessionId === "string") {
      return this.events("", { ...options, sessionId: paused.sessionId }, stream, resume);
    }
    const { messages } = paused as { messages?: readonly Message[] };
    const last = messages?.at(-1);
    if (messages === undefined || last?.role !== "assistant" || !last.toolCalls?.length) {
      throw new InvalidArgumentError({
        argument: "paused",
        message:
          "expected a result that stopped with awaiting_approval (its last message has the pending tool calls)",
      });
    }
    const { pausedTurn } = paused as { pausedTurn?: PausedTurn };
    return this.events("", { ...options, messages }, stream, resume, undefined, pausedTurn);
  }

  /**
   * {@link Agent.resume} as a stream: the resumed run's events (with `text_delta`s) as they happen, and `result`
   * at the end — for a web response that continues after an approval. Leaving the iteration early aborts the run.
   * Invalid arguments (a run that is not paused, a decision for a call that is not pending) end the iteration
   * with that error, and `result` rejects with it.
   */
  resumeStream(run: PausedRun, decisions: ResumeOptions = {}): AgentStream<TOutput> {
    pausedRunOf(run); // a value that is no paused run at all throws now
    const controller = new AbortController();
    const unfollow = followSignal(decisions.signal, controller);
    const inbox = decisions.steering ?? new SteeringInbox();
    const onSettled = () => {
      unfollow();
      if (inbox instanceof SteeringInbox) closeSteeringInbox(inbox);
    };
    const options = { ...decisions, signal: controller.signal, steering: inbox };
    const events = this.resumeStreamEvents(run, options);
    return createAgentStream({ events, controller, onSettled, inbox }) as AgentStream<TOutput>;
  }

  private async *resumeStreamEvents(run: PausedRun, decisions: ResumeOptions) {
    return yield* await this.resumeEvents(run, decisions, true);
  }

  private async fold(events: AsyncGenerator<AgentEvent, unknown>): Promise<AgentResult<TOutput>> {
    const builder = new AgentResultBuilder();
    while (true) {
      const next = await events.next();
      if (next.done) return builder.build(next.value as AgentLoopOutcome) as AgentResult<TOutput>;
      builder.add(next.value);
    }
  }

  /**
   * Runs the agent on `input` and resolves with the result. Never rejects for model or tool failures (they end
   * the run with a stop reason and `result.error`); rejects for invalid arguments, a busy session or durable
   * run, and store or journal failures.
   */
  async run(input: RunInput, options: RunOptions = {}): Promise<AgentResult<TOutput>> {
    try {
      return await this.fold(this.events(input, options, false));
    } finally {
      // Also when the run could not start: messages sent to it are then reported as not delivered.
      if (options.steering instanceof SteeringInbox) closeSteeringInbox(options.steering);
    }
  }

  /**
   * Runs the agent and streams its events (with `text_delta`s). `result` resolves at the end. Leaving the
   * iteration early (`break`) aborts the run; `result` then resolves with stop reason `aborted`.
   * `send(message)` adds a user message to the running agent between two turns (docs/loop.md, "Steering").
   */
  stream(input: RunInput, options: RunOptions = {}): AgentStream<TOutput> {
    const controller = new AbortController();
    // Linked by a listener removed at the end, not AbortSignal.any (it leaks on a long-lived signal on Node 20).
    const unfollow = followSignal(options.signal, controller);
    const inbox = options.steering ?? new SteeringInbox();
    const onSettled = () => {
      unfollow();
      if (inbox instanceof SteeringInbox) closeSteeringInbox(inbox);
    };
    try {
      const events = this.events(input, { ...options, signal: controller.signal, steering: inbox }, true);
      return createAgentStream({ events, controller, onSettled, inbox }) as AgentStream<TOutput>;
    } catch (error) {
      onSettled();
      throw error;
    }
  }

  /**
   * This agent as a tool of another agent: a sub-agent. Its events flow into the caller's stream tagged with
   * its path (`event.agent`, e.g. `"lead/researcher"`); its usage and cost add to the caller's; the caller's
   * abort signal, timeout, cost cap and shared budget bound it; a call inside it that needs approval pauses the
   * caller's whole run (`awaiting_approval`, resumed from the caller, from any process when the caller's run is
   * durable). The tool's result is the sub-agent's answer (its typed output as JSON, else its text). See
   * docs/multi-agent.md.
   */
  asTool(options: AgentToolOptions): Tool {
    return agentTool({ ...options, agent: this });
  }

  /** Internal: a run of this agent as a sub-agent of another run (see {@link Agent.asTool}). */
  [RUN_SUB_AGENT](run: SubAgentRun): AsyncGenerator<AgentEvent, unknown> {
    const { paused, durable, budget } = run;
    const options: RunOptions = { signal: run.signal };
    if (durable !== undefined) options.runId = durable.runId;
    else if (paused !== undefined) options.messages = paused.messages;
    const resuming = durable === undefined ? paused !== undefined : run.decisions !== undefined;
    const resume = resuming ? (run.decisions ?? { approve: new Set(), deny: new Set() }) : undefined;
    const input = durable === undefined && paused !== undefined ? "" : run.input;
    if (budget !== undefined) {
      const { pricing, pricingFallback: fallback } = this.options;
      checkCapPricing({ modelId: this.model.modelId, pricing, fallback, cap: "budget" });
    }
    this.routeHandoffs();
    return this.runner.events({
      input: checkRunCall({ input, options, agent: this.options, modelId: this.model.modelId, resume }),
      options,
      stream: run.stream,
      resume,
      path: run.path,
      journal: durable?.journal,
      callerDecisions: durable !== undefined,
      pausedTurn: paused?.pausedTurn,
      budget,
    });
  }

  /** The agents this one may hand the conversation to (its `handoffs` option, resolved on first read). */
  get handoffs(): readonly Handoff[] {
    this.resolvedHandoffs ??= resolveHandoffs(this.options.handoffs);
    return this.resolvedHandoffs;
  }

  /** At the first run of an agent with handoffs: its runs are routed by them from now on. */
  private routeHandoffs(): void {
    if (this.options.handoffs === undefined || this.routed) return;
    const routing = new HandoffRouting({
      name: this.options.name ?? "agent",
      tools: this.tools.list(),
      handoffs: this.handoffs,
    });
    const { limits, budget, pricing, pricingFallback: fallback } = this.options;
    const cap =
      limits?.maxCostUsd !== undefined ? "limits.maxCostUsd" : budget !== undefined ? "budget" : undefined;
    // The run is priced with this agent's table: a handoff target's model needs a price in it too.
    for (const model of routing.models()) checkCapPricing({ modelId: model.modelId, pricing, fallback, cap });
    this.runner.useHandoffs(routing);
    this.routed = true;
  }

  private events(
    input: RunInput,
    options: RunOptions,
    stream: boolean,
    resume?: ApprovalDecisions,
    decidedBy?: string,
    pausedTurn?: PausedTurn,
  ): AsyncGenerator<AgentEvent, unknown> {
    const content = checkRunCall({
      input,
      options,
      agent: this.options,
      modelId: this.model.modelId,
      resume,
    });
    this.routeHandoffs();
    if (options.tools !== undefined && this.options.handoffs !== undefined) {
      throw new InvalidArgumentError({
        argument: "tools",
        message:
          "an agent with handoffs offers each agent its own tools: choose tools per call with prepareStep",
      });
    }
    checkRunControl({ options, tools: this.runner.tools, outputTool: this.outputTool });
    return this.runner.events({ input: content, options, stream, resume, decidedBy, pausedTurn });
  }
}

/** The agent's models: a model (or string), or a non-empty list of them, resolved. */
function resolveModels(model: AgentOptions["model"]): [Model, ...Model[]] {
  if (!Array.isArray(model)) return [resolveModel(model as Model | string)];
  const [first, ...rest] = model as readonly (Model | string)[];
  if (first === undefined) {
    throw new InvalidArgumentError({ argument: "model", message: "an empty list: give at least one model" });
  }
  return [resolveModel(first), ...rest.map((m) => resolveModel(m))];
}

/** The `handoffs` option as handoffs: agents become `handoff(agent)`; a function is called now. */
function resolveHandoffs(option: AgentOptions["handoffs"]): readonly Handoff[] {
  if (option === undefined) return [];
  const list: unknown = typeof option === "function" ? option() : option;
  if (!Array.isArray(list)) {
    throw new InvalidArgumentError({
      argument: "handoffs",
      message: "expected a list of agents or handoffs (or a function returning one)",
    });
  }
  return Object.freeze(list.map((item: unknown) => (isHandoff(item) ? item : handoff(item as Agent))));
}
