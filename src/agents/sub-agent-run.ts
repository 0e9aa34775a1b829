import type { BudgetCharges } from "../cost/budget.js";
import type { RunJournal } from "../durable/run-journal.js";
import type { AgentEvent } from "../loop/agent-event.js";
import type { PausedSubRun } from "../loop/policies/sub-agents.js";
import type { ApprovalDecisions } from "../loop/tool-step.js";

/** The key of an agent's entry point for running as another run's sub-agent (`Agent[RUN_SUB_AGENT]`). */
export const RUN_SUB_AGENT: unique symbol = Symbol("agentloop.runSubAgent");

/** One run of an agent as a sub-agent of another run (`agent.asTool`). Internal. */
export interface SubAgentRun {
  /** The task the calling model gave. */
  input: string;
  /** The call's signal: the caller's abort, timeout and limits end the sub-run. */
  signal: AbortSignal;
  stream: boolean;
  /** The sub-agent's path (`"lead/researcher"`). */
  path: string;
  /** Bound by the caller's cap and shared budget (undefined when the caller has neither). */
  budget: BudgetCharges | undefined;
  /** The caller's decisions for the turn it resumes (they may name this sub-run's pending calls). */
  decisions: ApprovalDecisions | undefined;
  /** The sub-run paused in this call, which the caller's resumed turn continues (non-durable callers). */
  paused: PausedSubRun | undefined;
  /** The sub-run's durable id and the caller's run log, when the caller's run is durable. */
  durable: { runId: string; journal: RunJournal } | undefined;
}

/** An agent that can run as a sub-agent (an `Agent`). */
export interface SubAgent {
  readonly options: { readonly name?: string | undefined };
  /** The events of one sub-run; the generator returns the run's outcome (an `AgentLoopOutcome`). */
  [RUN_SUB_AGENT](run: SubAgentRun): AsyncGenerator<AgentEvent, unknown>;
}
