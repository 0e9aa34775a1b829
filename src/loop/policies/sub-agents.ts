import type { BudgetCharges } from "../../cost/budget.js";
import type { CostMeter } from "../../cost/cost-meter.js";
import { NestedBudget, type NestedSpend } from "../../cost/nested-budget.js";
import { AgentloopError, errorMarker, hasMarker } from "../../errors/agentloop-error.js";
import type { Message, ToolMessage } from "../../models/message.js";
import { addUsage, type Usage } from "../../models/usage.js";
import type { AgentEvent } from "../agent-event.js";
import type { LoopState } from "../loop-state.js";
import type { ApprovalDecisions, PendingApproval } from "../tool-step.js";

/** A sub-agent's run paused for approval inside a call (a non-durable run keeps it in its paused result). */
export interface PausedSubRun {
  /** The sub-agent's conversation, ending with the calls it waits on. */
  messages: Message[];
  /** What its own paused turn had done (when it paused inside a sub-agent of its own). */
  pausedTurn?: PausedTurn;
}

/**
 * What a turn that paused inside a sub-agent had done: the results of its calls that had finished, and the
 * sub-agent runs paused in its calls, by call id. Resuming needs it (a durable run has it in its log instead).
 */
export interface PausedTurn {
  results: ToolMessage[];
  agents: Record<string, PausedSubRun>;
}

/** What a sub-run's end (or pause) adds to its caller's totals. */
export interface SubRunCharge {
  /** The call the sub-run ran in. */
  toolCallId: string;
  usage: Usage;
  costUsd: number;
  costUnknownModels: readonly string[];
  /** The budget the sub-run ran with ({@link CallerRun.budget}). */
  budget: NestedBudget | undefined;
}

/** What the run calling a sub-agent tool offers it, on the tool's context (`ctx[CALLER_RUN]`). Per tool step. */
export interface CallerRun {
  /** The calling agent's path (`"lead"`, `"lead/researcher"`). */
  readonly path: string;
  /** Whether the caller streams (the sub-run streams too). */
  readonly stream: boolean;
  /** The caller's turn. */
  readonly turn: number;
  /** The decisions this turn resumes with (they may name calls inside sub-agents). */
  readonly decisions: ApprovalDecisions | undefined;
  /** The caller's run log, when its run is durable (a `RunJournal`): sub-agents run durably in it. */
  readonly durable: { runId: string; journal: unknown } | undefined;
  /** The paused sub-run of call `toolCallId` that this turn resumes (non-durable runs). */
  pausedRun(toolCallId: string): PausedSubRun | undefined;
  /** Adds a sub-agent's event to the caller's stream. */
  emit(event: AgentEvent): void;
  /** A budget for a sub-run, bound by the caller's cap and shared budget; undefined when it has neither. */
  budget(): NestedBudget | undefined;
  /** A sub-run ended (or paused), or a call's journaled sub-run replayed: its usage and cost count as the caller's. */
  charge(charge: SubRunCharge): void;
  /** What the sub-run of call `toolCallId` was charged in this step (a run log keeps it with the result). */
  charged(toolCallId: string): SubRunCharge | undefined;
  /** A sub-run paused for approval in call `toolCallId`: the caller's turn pauses with its pending calls. */
  pause(args: { toolCallId: string; pending: PendingApproval[]; run: PausedSubRun }): void;
}

const MARK = errorMarker("SubRunPaused");

/**
 * Thrown by a sub-agent tool whose run paused for approval (after {@link CallerRun.pause}): the call has no
 * result yet. Internal: the tool step turns it into a paused turn; a run log does not record it as a result.
 */
export class SubRunPaused extends AgentloopError {
  protected readonly [MARK] = true;

  constructor(agent: string) {
    super({ message: `sub-agent "${agent}" is waiting for approval` });
    this.name = "SubRunPaused";
  }

  static override isInstance(error: unknown): error is SubRunPaused {
    return hasMarker(error, MARK);
  }
}

/** Options of {@link SubAgents}. */
export interface SubAgentsOptions {
  /** The run's agent path. */
  path: string;
  stream: boolean;
  durable: { runId: string; journal: unknown } | undefined;
  state: LoopState;
  meter: CostMeter;
  maxCostUsd: number | undefined;
  budget: BudgetCharges | undefined;
}

/**
 * The run's side of its sub-agent tools (runs whose tools include one): per tool step, the {@link CallerRun}
 * its calls get; the live spend of the sub-runs (bound together by the run's cap and budget); their totals
 * added to the run's.
 */
export class SubAgents {
  private readonly live: NestedSpend = { spentUsd: 0, reservedUsd: 0 };

  constructor(private readonly options: SubAgentsOptions) {}

  /** The caller of one tool step: `emit` feeds its event stream; `resumed` is the paused turn it resumes. */
  step(args: {
    turn: number;
    decisions: ApprovalDecisions | undefined;
    emit: (event: AgentEvent) => void;
    resumed: PausedTurn | undefined;
  }): StepCaller {
    return new StepCaller({ ...args, agents: this });
  }

  /** @see CallerRun.budget */
  budget(): NestedBudget | undefined {
    const { maxCostUsd, budget, meter } = this.options;
    if (maxCostUsd === undefined && budget === undefined) return undefined;
    const cap =
      maxCostUsd === undefined ? undefined : { limitUsd: maxCostUsd, spentUsd: () => meter.totalUsd };
    return new NestedBudget({ budget, cap, live: this.live });
  }

  /** @see CallerRun.charge */
  charge({ usage, costUsd, costUnknownModels, budget }: SubRunCharge): void {
    const { meter, state } = this.options;
    addUsage(state.usage, usage);
    meter.totalUsd += costUsd;
    for (const model of costUnknownModels) meter.unknownModels.add(model);
    if (budget !== undefined) this.live.spentUsd -= budget.spentUsd;
  }

  get path(): string {
    return this.options.path;
  }

  get stream(): boolean {
    return this.options.stream;
  }

  get durable(): { runId: string; journal: unknown } | undefined {
    return this.options.durable;
  }
}

/** The {@link CallerRun} of one tool step; collects the sub-runs that paused in it. */
export class StepCaller implements CallerRun {
  readonly path: string;
  readonly stream: boolean;
  readonly turn: number;
  readonly decisions: ApprovalDecisions | undefined;
  readonly durable: { runId: string; journal: unknown } | undefined;
  readonly emit: (event: AgentEvent) => void;
  /** The sub-runs that paused in this step, by call id. */
  readonly pauses = new Map<string, { pending: PendingApproval[]; run: PausedSubRun }>();
  private readonly agents: SubAgents;
  private readonly resumed: PausedTurn | undefined;
  private readonly charges = new Map<string, SubRunCharge>();

  constructor(args: {
    agents: SubAgents;
    turn: number;
    decisions: ApprovalDecisions | undefined;
    emit: (event: AgentEvent) => void;
    resumed: PausedTurn | undefined;
  }) {
    this.agents = args.agents;
    this.path = args.agents.path;
    this.stream = args.agents.stream;
    this.durable = args.agents.durable;
    this.turn = args.turn;
    this.decisions = args.decisions;
    this.emit = args.emit;
    this.resumed = args.resumed;
  }

  pausedRun(toolCallId: string): PausedSubRun | undefined {
    const agents = this.resumed?.agents;
    return agents !== undefined && Object.hasOwn(agents, toolCallId) ? agents[toolCallId] : undefined;
  }

  budget(): NestedBudget | undefined {
    return this.agents.budget();
  }

  charge(charge: SubRunCharge): void {
    this.charges.set(charge.toolCallId, charge);
    this.agents.charge(charge);
  }

  charged(toolCallId: string): SubRunCharge | undefined {
    return this.charges.get(toolCallId);
  }

  pause({ toolCallId, pending, run }: { toolCallId: string; pending: PendingApproval[]; run: PausedSubRun }) {
    this.pauses.set(toolCallId, { pending, run });
  }

  /** The pending calls of every paused sub-run, in call order of `toolCallIds`. */
  pending(toolCallIds: readonly string[]): PendingApproval[] {
    return toolCallIds.flatMap((id) => this.pauses.get(id)?.pending ?? []);
  }
}
