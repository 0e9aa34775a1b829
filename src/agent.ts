import type { AgentOptions, PausedRun, ResumeOptions, RunOptions } from "./agent-options.js";

export type { AgentOptions, PausedRun, ResumeOptions, RunOptions } from "./agent-options.js";

import { type AgentStream, createAgentStream } from "./agent-stream.js";
import { checkAgentOptions } from "./check-agent-options.js";
import { checkRunCall, pausedRunOf } from "./check-run-call.js";
import { checkCapPricing } from "./cost/check-cap-pricing.js";
import { CostMeter } from "./cost/cost-meter.js";
import { runDurably } from "./durable/run-durably.js";
import { InvalidArgumentError } from "./errors/invalid-argument-error.js";
import type { RetryPolicy } from "./http/retry-policy.js";
import type { AgentEvent } from "./loop/agent-event.js";
import {
  type AgentLimits,
  DEFAULT_LIMIT_PROMPTS,
  type LimitPrompts,
  resolveLimits,
} from "./loop/agent-limits.js";
import {
  type AgentLoopConfig,
  type AgentLoopOutcome,
  agentLoop,
  PENDING_APPROVALS_KEY,
} from "./loop/agent-loop.js";
import { type AgentResult, AgentResultBuilder } from "./loop/agent-result.js";
import { resolveAgentRetryPolicy } from "./loop/agent-retry-policy.js";
import { type ResolvedContextOptions, resolveContextOptions } from "./loop/context-options.js";
import { DEFAULT_LOOP_DETECTION, type LoopDetectionOptions, LoopDetector } from "./loop/loop-detector.js";
import type { ApprovalDecisions } from "./loop/tool-step.js";
import { withHooks } from "./loop/with-hooks.js";
import type { Message } from "./models/message.js";
import type { Model } from "./models/model.js";
import { resolveModel } from "./models/resolve-model.js";
import { systemPromptOf } from "./profiles/system-prompt-of.js";
import { type MessageRedactor, openSessionRun } from "./sessions/open-session-run.js";
import { RunState } from "./sessions/run-state.js";
import { createRedactor } from "./stores/redactor.js";
import type { SessionStore } from "./stores/session-store.js";
import { ToolRegistry } from "./tools/tool-registry.js";
import { traceEvents } from "./trace/trace-events.js";
import { TraceRecorder } from "./trace/trace-recorder.js";
import { followSignal } from "./util/follow-signal.js";

/**
 * An agent: a model, tools and limits. `run` and `stream` drive the same loop ({@link agentLoop}); `run` folds
 * its events into an {@link AgentResult}. Options are validated here, at construction.
 */
export class Agent {
  readonly model: Model;
  readonly tools: ToolRegistry;
  readonly system: string | undefined;
  private readonly limits: AgentLimits;
  private readonly prompts: LimitPrompts;
  private readonly retry: RetryPolicy;
  private readonly loopDetection: LoopDetectionOptions | false;
  private readonly context: ResolvedContextOptions | undefined;
  private readonly redactor: MessageRedactor | undefined;
  /** The options this agent was built with (read-only; use `with()` to derive an agent with others). */
  readonly options: Readonly<AgentOptions>;

  constructor(options: AgentOptions) {
    if (options === null || typeof options !== "object") {
      throw new InvalidArgumentError({ argument: "options", message: "expected an options object" });
    }
    checkAgentOptions(options);
    this.options = options;
    this.model = resolveModel(options.model);
    this.tools = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry();
    if (Array.isArray(options.tools)) this.tools.registerMany(options.tools);
    this.system = systemPromptOf(options.system);
    this.limits = resolveLimits(options.limits);
    // A cost cap on a model without a price would never stop anything: refuse it now.
    checkCapPricing({
      modelId: this.model.modelId,
      pricing: options.pricing,
      fallback: options.pricingFallback,
      cap:
        this.limits.maxCostUsd !== undefined
          ? "limits.maxCostUsd"
          : options.budget !== undefined
            ? "budget"
            : undefined,
    });
    this.prompts = { ...DEFAULT_LIMIT_PROMPTS, ...options.prompts };
    this.retry = resolveAgentRetryPolicy({ retry: options.retry, model: this.model });
    this.loopDetection =
      options.loopDetection === false ? false : { ...DEFAULT_LOOP_DETECTION, ...options.loopDetection };
    if (this.loopDetection !== false) new LoopDetector(this.loopDetection); // validates
    this.context = options.context === undefined ? undefined : resolveContextOptions(options.context);
    // Stored redaction only when asked for: the stored conversation is what the model sees on later runs.
    this.redactor =
      options.redact === undefined || options.redact === false || options.store === undefined
        ? undefined
        : options.redact === true
          ? createRedactor()
          : options.redact;
  }

  /**
   * A new agent with the same options except `overrides` (e.g. another model or tools). The original is
   * unchanged. Used by replay and reflection; handy for A/B runs.
   */
  with(overrides: Partial<AgentOptions>): Agent {
    return new Agent({ ...this.options, ...overrides });
  }

  /**
   * Continues a run that stopped with `awaiting_approval`: the paused turn's calls run with the decisions
   * (`approve` / `deny` by tool call id; a pending call in neither list is denied), then the loop goes on.
   * `paused` is the paused result (or its JSON: `{ messages, pendingApprovals }`), or `{ sessionId }` to resume
   * a paused session from the store — also from another process; a durable run by its id (`runId` or
   * `{ runId }`) resumes from its journal.
   */
  async resume(run: PausedRun, decisions: ResumeOptions = {}): Promise<AgentResult> {
    const paused = pausedRunOf(run);
    const resume = {
      approve: new Set(decisions.approve ?? []),
      deny: new Set(decisions.deny ?? []),
    };
    const options: RunOptions = decisions.signal === undefined ? {} : { signal: decisions.signal };
    if ("runId" in paused && typeof paused.runId === "string") {
      const result = await this.durable({ runId: paused.runId, input: undefined, options });
      if (result.stopReason === "awaiting_approval") {
        // Never pretend the decisions were applied: a durable run cannot take them yet (its journal replays
        // the run from the start, and the paused turn would pause again).
        throw new InvalidArgumentError({
          argument: "paused",
          message: `durable run "${paused.runId}" is awaiting approval, and durable runs cannot take approval decisions yet; nothing was executed (run it without runId, or give its tools no needsApproval)`,
        });
      }
      return result;
    }
    if ("sessionId" in paused && typeof paused.sessionId === "string") {
      return this.fold(this.events("", { ...options, sessionId: paused.sessionId }, false, resume));
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
    return this.fold(this.events("", { ...options, messages }, false, resume));
  }

  private async fold(events: AsyncGenerator<AgentEvent, unknown>): Promise<AgentResult> {
    const builder = new AgentResultBuilder();
    while (true) {
      const next = await events.next();
      if (next.done) return builder.build(next.value as AgentLoopOutcome);
      builder.add(next.value);
    }
  }

  /** Runs the agent on `input` and resolves with the result. Never rejects for model or tool failures. */
  async run(input: string, options: RunOptions = {}): Promise<AgentResult> {
    if (options.runId !== undefined) return this.durable({ runId: options.runId, input, options });
    return this.fold(this.events(input, options, false));
  }

  /**
   * A durable run (`runId` + the `journal` option): journaled step by step, resumed from the journal after a
   * crash, returned from it once finished (see docs/deployment.md). A run answered from its journal has no
   * `events` (they were emitted by the attempt that ran).
   */
  private async durable(args: {
    runId: string;
    input: string | undefined;
    options: RunOptions;
  }): Promise<AgentResult> {
    const { journal } = this.options;
    if (journal === undefined) {
      throw new InvalidArgumentError({
        argument: "runId",
        message: "a durable run needs the Agent's journal option",
      });
    }
    if (args.options.sessionId !== undefined) {
      throw new InvalidArgumentError({
        argument: "runId",
        message: "durable runs do not combine with sessionId yet",
      });
    }
    const started = Date.now();
    const { runId: _runId, ...runOptions } = args.options;
    const summary = await runDurably({
      agent: this,
      journal,
      runId: args.runId,
      ...(args.input !== undefined && { input: args.input }),
      ...(runOptions.messages !== undefined && { messages: runOptions.messages }),
      ...(runOptions.signal !== undefined && { signal: runOptions.signal }),
    });
    const result: AgentResult = {
      text: summary.text,
      stopReason: summary.stopReason,
      turns: summary.turns,
      usage: summary.usage,
      toolCalls: summary.toolCalls,
      events: [],
      messages: summary.messages,
      durationMs: Date.now() - started,
      costUsd: summary.costUsd,
      costUnknownModels: [],
    };
    if (summary.error !== undefined) result.error = summary.error;
    return result;
  }

  /**
   * Runs the agent and streams its events (with `text_delta`s). `result` resolves at the end. Leaving the
   * iteration early (`break`) aborts the run; `result` then resolves with stop reason `aborted`.
   */
  stream(input: string, options: RunOptions = {}): AgentStream {
    const controller = new AbortController();
    // Linked by a listener removed at the end, not AbortSignal.any (it leaks on a long-lived signal on Node 20).
    const unfollow = followSignal(options.signal, controller);
    try {
      const events = this.events(input, { ...options, signal: controller.signal }, true);
      return createAgentStream({ events, controller, onSettled: unfollow });
    } catch (error) {
      unfollow();
      throw error;
    }
  }

  private events(
    input: string,
    options: RunOptions,
    stream: boolean,
    resume?: ApprovalDecisions,
  ): AsyncGenerator<AgentEvent, unknown> {
    checkRunCall({ input, options, agent: this.options, modelId: this.model.modelId, resume });
    const { sessionId } = options;
    const store = this.options.store;
    if (sessionId !== undefined && store !== undefined) {
      if (options.signal?.aborted) {
        // Aborted before it started: the session is not touched (no lock, no load, nothing saved); the run
        // ends at once with stop reason "aborted".
        const { sessionId: _unused, ...unsessioned } = options;
        return this.events(input, unsessioned, stream, resume);
      }
      return withHooks(
        this.sessionEvents({ input, options, stream, sessionId, store, resume }),
        this.options,
      );
    }
    const prior = options.messages ?? [];
    if (input.trim() === "" && prior.length === 0 && resume === undefined) {
      throw new InvalidArgumentError({
        argument: "input",
        message: "the task is empty and there is no conversation to continue",
      });
    }
    const { messages } = this.conversation(prior, input);
    const recorder = this.recorder({ input, prior, options });
    const events = withHooks(
      agentLoop({
        ...this.loopConfig({ input, messages, options, stream, model: recorder?.wrapModel(this.model) }),
        resume,
      }),
      this.options,
    );
    // Outside the hooks, so the trace's events are exactly result.events (hook errors included).
    return recorder === undefined ? events : traceEvents({ events, recorder });
  }

  /** A trace recorder for the run when tracing is on (the run's option wins over the agent's). */
  private recorder(args: {
    input: string;
    prior: readonly Message[];
    options: RunOptions;
  }): TraceRecorder | undefined {
    if (!(args.options.trace ?? this.options.trace)) return undefined;
    return new TraceRecorder({
      input: args.input,
      messages: [...args.prior],
      model: `${this.model.provider}:${this.model.modelId}`,
      tools: [...this.tools.names()],
    });
  }

  /** The run's messages: the system prompt (unless the history starts with one), the history, the input. */
  private conversation(
    prior: readonly Message[],
    input: string,
  ): { messages: Message[]; system: Message | undefined } {
    const messages: Message[] = [];
    let system: Message | undefined;
    if (this.system !== undefined && prior[0]?.role !== "system") {
      system = { role: "system", content: this.system };
      messages.push(system);
    }
    for (const message of prior) messages.push(message);
    if (input !== "") messages.push({ role: "user", content: input });
    return { messages, system };
  }

  private async *sessionEvents(args: {
    input: string;
    options: RunOptions;
    stream: boolean;
    sessionId: string;
    store: SessionStore;
    resume: ApprovalDecisions | undefined;
  }): AsyncGenerator<AgentEvent, unknown> {
    const { timeoutMs } = this.limits;
    let session: Awaited<ReturnType<typeof openSessionRun>>;
    try {
      session = await openSessionRun({
        store: args.store,
        sessionId: args.sessionId,
        timeoutMs,
        signal: args.options.signal,
        redactor: this.redactor,
        newMessage: args.resume === undefined,
      });
    } catch (error) {
      if (args.options.signal?.aborted !== true) throw error;
      // Aborted while the session was being opened (the store's lock or load was abandoned): the run ends as
      // an aborted run that never touched the session, as when the signal was aborted before the call.
      const { messages } = this.conversation([], args.input);
      const config = this.loopConfig({
        input: args.input,
        messages,
        options: args.options,
        stream: args.stream,
      });
      return yield* agentLoop({ ...config, resume: args.resume });
    }
    try {
      const { messages, system } = this.conversation(session.history, args.input);
      // Everything but the new user message (none when resuming) is stored already.
      const persistedCount = args.input === "" ? messages.length : messages.length - 1;
      if (args.resume !== undefined && session.state.get(PENDING_APPROVALS_KEY) === undefined) {
        throw new InvalidArgumentError({
          argument: "sessionId",
          message: `session "${args.sessionId}" has no run awaiting approval`,
        });
      }
      const recorder = this.recorder({ input: args.input, prior: session.history, options: args.options });
      const model = recorder?.wrapModel(this.model);
      const events = agentLoop({
        ...this.loopConfig({
          input: args.input,
          messages,
          // Aborts with the caller's signal, and when the session lock is lost.
          options: { ...args.options, signal: session.signal },
          stream: args.stream,
          model,
        }),
        persistence: session.persistence({ persistedCount, systemMessage: system }),
        state: session.state,
        sessionId: args.sessionId,
        resume: args.resume,
      });
      return yield* recorder === undefined ? events : traceEvents({ events, recorder });
    } finally {
      await session.release();
    }
  }

  private loopConfig(args: {
    input: string;
    messages: Message[];
    options: RunOptions;
    stream: boolean;
    model?: Model | undefined;
  }): AgentLoopConfig {
    const o = this.options;
    return {
      model: args.model ?? this.model,
      tools: this.tools,
      messages: args.messages,
      task: args.input,
      limits: this.limits,
      prompts: this.prompts,
      retry: this.retry,
      stream: args.stream,
      parallelToolCalls: o.parallelToolCalls ?? true,
      toolTimeoutMs: o.toolTimeoutMs ?? 30_000,
      toolConcurrency: o.toolConcurrency,
      maxToolResultChars: o.maxToolResultChars,
      loopDetection: this.loopDetection,
      temperature: o.temperature,
      maxOutputTokens: o.maxOutputTokens,
      signal: args.options.signal,
      context: this.context,
      state: new RunState(),
      costMeter: new CostMeter({ pricing: o.pricing, fallback: o.pricingFallback }),
      budget: args.options.budget ?? o.budget,
    };
  }
}
