import type { AgentOptions, RunOptions } from "./agent-options.js";
import { AgentStepControl } from "./agent-step-control.js";
import type { HandoffRouting } from "./agents/handoff-routing.js";
import type { BudgetCharges } from "./cost/budget.js";
import { type DurableAttempt, durableEvents } from "./durable/durable-events.js";
import type { RunJournal } from "./durable/run-journal.js";
import { checkedSession, checkStillPaused } from "./durable-session-checks.js";
import { InvalidArgumentError } from "./errors/invalid-argument-error.js";
import type { RetryPolicy } from "./http/retry-policy.js";
import type { AgentEvent } from "./loop/agent-event.js";
import type { AgentLimits, LimitPrompts } from "./loop/agent-limits.js";
import {
  type AgentLoopConfig,
  type AgentLoopOutcome,
  agentLoop,
  PENDING_APPROVALS_KEY,
} from "./loop/agent-loop.js";
import type { ResolvedContextOptions } from "./loop/context-options.js";
import type { LoopDetectionOptions } from "./loop/loop-detector.js";
import { StepModel } from "./loop/policies/step-model.js";
import type { PausedTurn } from "./loop/policies/sub-agents.js";
import type { ApprovalDecisions } from "./loop/tool-step.js";
import { type HookRun, withHooks } from "./loop/with-hooks.js";
import { isEmptyInput, type MessageContent } from "./models/content-part.js";
import { FallbackModel } from "./models/fallback-model.js";
import type { Message } from "./models/message.js";
import type { Model } from "./models/model.js";
import { type LoopConfigArgs, runLoopConfig } from "./run-loop-config.js";
import { type MessageRedactor, openSessionRun, type SessionRun } from "./sessions/open-session-run.js";
import type { SessionStore } from "./stores/session-store.js";
import { ToolRegistry } from "./tools/tool-registry.js";
import { traceEvents } from "./trace/trace-events.js";
import { TraceRecorder } from "./trace/trace-recorder.js";

/** What an {@link AgentRunner} runs with: the agent's resolved options. */
export interface AgentRunnerOptions {
  options: Readonly<AgentOptions>;
  model: Model;
  tools: ToolRegistry;
  system: string | undefined;
  limits: AgentLimits;
  prompts: LimitPrompts;
  retry: RetryPolicy;
  loopDetection: LoopDetectionOptions | false;
  context: ResolvedContextOptions | undefined;
  redactor: MessageRedactor | undefined;
  /** The typed answer's schema and retries (`Agent({ output })`). */
  output?: AgentLoopConfig["output"];
  /** The models after `model`, tried in order when a call fails for good (`Agent({ model: [...] })`). */
  fallbackModels: readonly Model[];
}

/** One call's request: the task, the run options, streaming, and the decisions when it resumes. */
export interface RunRequest {
  /** The task ("" when the call continues without a new message), normalised. */
  input: MessageContent;
  options: RunOptions;
  stream: boolean;
  resume?: ApprovalDecisions | undefined;
  /** Who decided (`resume` of a durable run). */
  decidedBy?: string | undefined;
  /** The run's models in order, when the agent has fallbacks (made per run: it holds the run's position). */
  fallback?: FallbackModel | undefined;
  /** The run's step model, when it has a `prepareStep` hook (made per run: it holds the step's model). */
  stepModel?: StepModel | undefined;
  /** The agent's path (a sub-agent's is under its caller's: `"lead/researcher"`); default the agent's name. */
  path?: string | undefined;
  /** The run log a sub-agent's durable run is kept in (its caller's); default the agent's `journal`. */
  journal?: RunJournal | undefined;
  /** `resume` holds a caller's decisions for a whole turn (a sub-agent resumed by its caller). */
  callerDecisions?: boolean | undefined;
  /** With `resume`: what the paused turn had done when it paused inside a sub-agent. */
  pausedTurn?: PausedTurn | undefined;
  /** A sub-agent's budget, bound by its caller's cap and budget (replaces the run's and the agent's). */
  budget?: BudgetCharges | undefined;
  /** Set by the runner for a durable run's attempts: its sub-agents run durably in the same log. */
  durable?: { runId: string; journal: RunJournal } | undefined;
}

/** What a durable attempt replaces in a run (its journaled model and tools, decisions, budget, signal). */
export type Overrides = Pick<DurableAttempt, "model" | "approvals" | "budget" | "signal" | "steering"> & {
  tools: ToolRegistry;
};

/**
 * Assembles a run from its layers, outside in: hooks, then the session (lock, history, persistence), then the
 * run log (durable runs: `durableEvents`), then the trace recorder, then the loop. Internal to `Agent`.
 */
export class AgentRunner {
  /** prepareStep (under the handoff routing), stopWhen, toolChoice and steering of each run. */
  private readonly control: AgentStepControl;

  constructor(private readonly agent: AgentRunnerOptions) {
    this.control = new AgentStepControl(agent.options);
  }

  /** The tools runs are given: the agent's, or with handoffs those of every agent reachable by handoff. */
  get tools(): ToolRegistry {
    return this.agent.tools;
  }

  /** Routes the agent's runs by its handoffs from now on (runs get every reachable agent's tools). */
  useHandoffs(routing: HandoffRouting): void {
    this.control.handoffs = routing;
    this.agent.tools = new ToolRegistry({ tools: routing.tools });
  }

  /** The events of one `run` / `stream` / `resume` call, with the agent's hooks. */
  events(call: RunRequest): AsyncGenerator<AgentEvent, unknown> {
    const events = this.hooked(call);
    const { handoffs } = this.control;
    return handoffs === undefined ? events : handoffs.named(events);
  }

  private hooked(call: RunRequest): AsyncGenerator<AgentEvent, unknown> {
    const { fallbackModels, model: primary } = this.agent;
    const fallback =
      fallbackModels.length === 0 ? undefined : new FallbackModel([primary, ...fallbackModels]);
    const stepping = this.control.hook(call.options) !== undefined;
    const request =
      fallback === undefined && !stepping
        ? call
        : {
            ...call,
            fallback,
            stepModel: stepping ? new StepModel(fallback ?? primary) : undefined,
          };
    const { options } = request;
    const store = this.agent.options.store;
    const aborted = options.signal?.aborted === true;
    if (options.sessionId !== undefined && store !== undefined && !aborted) {
      return withHooks(
        this.sessionEvents({ ...request, sessionId: options.sessionId, store }),
        this.agent.options,
        hookRun(options),
      );
    }
    // A durable run without a session journals its start even when aborted at once (a later call without the
    // input resumes it); one of a session must not start its log outside the session.
    if (options.runId !== undefined && (!aborted || options.sessionId === undefined)) {
      return withHooks(
        this.durable({ ...request, session: undefined }),
        this.agent.options,
        hookRun(options),
      );
    }
    // Aborted before it started: the session (and a session run's log) is not touched (no lock, no load,
    // nothing written); the run ends at once with stop reason "aborted".
    const prior = options.messages ?? [];
    if (isEmptyInput(request.input) && prior.length === 0 && request.resume === undefined) {
      throw new InvalidArgumentError({
        argument: "input",
        message: "the task is empty and there is no conversation to continue",
      });
    }
    return withHooks(
      this.plain({ call: request, options: unsessioned(options), prior }),
      this.agent.options,
      {},
    );
  }

  /** A run without a session: the loop on `prior` + the input, traced when asked. */
  private plain(args: {
    call: RunRequest;
    options: RunOptions;
    prior: readonly Message[];
    overrides?: Overrides | undefined;
  }) {
    const { call, options, prior, overrides } = args;
    const { messages } = this.conversation(prior, call.input);
    const recorder = this.recorder({ input: call.input, prior, options });
    const model = overrides?.model ?? call.stepModel ?? call.fallback ?? this.agent.model;
    const config = this.loopConfig({
      call,
      options,
      messages,
      model: recorder?.wrapModel(model) ?? model,
      overrides,
    });
    const events = agentLoop(config);
    // Outside the hooks, so the trace's events are exactly result.events (hook errors included).
    return recorder === undefined ? events : traceEvents({ events, recorder });
  }

  /** A durable run (`runId`): its log replayed and continued, in the session when there is one. */
  private durable(
    args: RunRequest & { session: SessionRun | undefined },
  ): AsyncGenerator<AgentEvent, AgentLoopOutcome> {
    const journal = args.journal ?? this.agent.options.journal;
    const runId = args.options.runId as string;
    if (journal === undefined) {
      throw new InvalidArgumentError({
        argument: "runId",
        message: "a durable run needs the Agent's journal option",
      });
    }
    const { session } = args;
    return durableEvents({
      journal,
      runId,
      input: args.input,
      history: async () =>
        session === undefined ? (args.options.messages ?? []) : await session.startNewRun(),
      sessionId: args.options.sessionId,
      decisions: args.resume,
      callerDecisions: args.callerDecisions,
      decidedBy: args.decidedBy,
      signal: session?.signal ?? args.options.signal,
      model: args.stepModel ?? args.fallback ?? this.agent.model,
      tools: this.agent.tools.list(),
      budget: args.budget ?? this.budget(args.options),
      steering: args.options.steering,
      run: (attempt) => {
        const overrides: Overrides = attempt;
        const options = { ...args.options, signal: attempt.signal };
        const request = {
          input: attempt.input,
          options,
          stream: args.stream,
          overrides,
          fallback: args.fallback,
          stepModel: args.stepModel,
          path: args.path,
          durable: { runId, journal },
        };
        if (attempt.sessionId === undefined) {
          return this.plain({ call: request, options, prior: attempt.messages, overrides });
        }
        if (session === undefined) {
          throw new InvalidArgumentError({
            argument: "sessionId",
            message: `run "${runId}" belongs to session "${attempt.sessionId}": continue it with that sessionId`,
          });
        }
        if (attempt.approvals.size > 0) session.state.delete(PENDING_APPROVALS_KEY);
        return checkedSession(this.sessionLoop({ ...request, session, prior: attempt.messages }), session);
      },
      beforeDecision: (pending) => session !== undefined && checkStillPaused({ session, runId, pending }),
    }) as AsyncGenerator<AgentEvent, AgentLoopOutcome>;
  }

  private async *sessionEvents(
    args: RunRequest & { sessionId: string; store: SessionStore },
  ): AsyncGenerator<AgentEvent, unknown> {
    const durable = args.options.runId !== undefined;
    let session: SessionRun;
    try {
      session = await openSessionRun({
        store: args.store,
        sessionId: args.sessionId,
        timeoutMs: this.agent.limits.timeoutMs,
        signal: args.options.signal,
        redactor: this.agent.redactor,
        // A durable run starts new (closing a paused run's calls) only when its log does not have it yet.
        newMessage: args.resume === undefined && !durable,
      });
    } catch (error) {
      if (args.options.signal?.aborted !== true) throw error;
      // Aborted while the session was being opened: the run ends as an aborted run that never touched it.
      const { messages } = this.conversation([], args.input);
      return yield* agentLoop(this.loopConfig({ call: args, options: args.options, messages }));
    }
    try {
      if (durable) return yield* this.durable({ ...args, session });
      if (args.resume !== undefined && session.state.get(PENDING_APPROVALS_KEY) === undefined) {
        throw new InvalidArgumentError({
          argument: "sessionId",
          message: `session "${args.sessionId}" has no run awaiting approval`,
        });
      }
      return yield* this.sessionLoop({ ...args, session, prior: session.history });
    } finally {
      await session.release();
    }
  }

  /** The loop on a session's history, persisting as it goes (`prior`: the history the run continues). */
  private sessionLoop(
    args: RunRequest & { session: SessionRun; prior: readonly Message[]; overrides?: Overrides },
  ) {
    const { session } = args;
    const { messages, system } = this.conversation(args.prior, args.input);
    // What the session holds of this run already (a durable run resumed after a crash stored some of it).
    const stored = args.options.runId === undefined ? 0 : session.storedSince(args.prior, args.options.runId);
    const persistedCount = (args.input.length === 0 ? messages.length : messages.length - 1) + stored;
    const recorder = this.recorder({ input: args.input, prior: args.prior, options: args.options });
    const model = args.overrides?.model ?? args.stepModel ?? args.fallback ?? this.agent.model;
    const events = agentLoop(
      this.loopConfig({
        call: args,
        // Aborts with the caller's signal, and when the session lock is lost.
        options: { ...args.options, signal: args.overrides?.signal ?? session.signal },
        messages,
        model: recorder?.wrapModel(model) ?? model,
        overrides: args.overrides,
        persistence: session.persistence({ persistedCount, systemMessage: system }),
        state: session.state,
        sessionId: session.sessionId,
      }),
    );
    return recorder === undefined ? events : traceEvents({ events, recorder });
  }

  /** A trace recorder for the run when tracing is on (the run's option wins over the agent's). */
  private recorder(args: { input: MessageContent; prior: readonly Message[]; options: RunOptions }) {
    if (!(args.options.trace ?? this.agent.options.trace)) return undefined;
    const { model, tools } = this.agent;
    return new TraceRecorder({
      input: args.input,
      messages: [...args.prior],
      model: `${model.provider}:${model.modelId}`,
      tools: [...tools.names()],
    });
  }

  /** The run's messages: the system prompt (unless the history starts with one), the history, the input. */
  private conversation(
    prior: readonly Message[],
    input: MessageContent,
  ): { messages: Message[]; system: Message | undefined } {
    const messages: Message[] = [];
    let system: Message | undefined;
    if (this.agent.system !== undefined && prior[0]?.role !== "system") {
      system = { role: "system", content: this.agent.system };
      messages.push(system);
    }
    for (const message of prior) messages.push(message);
    if (input.length > 0) messages.push({ role: "user", content: input });
    return { messages, system };
  }

  private budget(options: RunOptions): BudgetCharges | undefined {
    return options.budget ?? this.agent.options.budget;
  }

  private loopConfig(args: LoopConfigArgs): AgentLoopConfig {
    return runLoopConfig({ agent: this.agent, control: this.control, run: args });
  }
}

/** The options without `sessionId` and `runId` (the same object when it has neither: nothing copied). */
function unsessioned(options: RunOptions): RunOptions {
  if (options.sessionId === undefined && options.runId === undefined) return options;
  const { sessionId: _session, runId: _run, ...rest } = options;
  return rest;
}

/** The run hooks are told about: its ids, when it has them. */
function hookRun(options: RunOptions): HookRun {
  return { runId: options.runId, sessionId: options.sessionId };
}
