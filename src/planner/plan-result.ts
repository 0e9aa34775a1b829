import type { AgentEvent, StopReason } from "../loop/agent-event.js";
import type { PausedTurn } from "../loop/policies/sub-agents.js";
import type { PendingApproval } from "../loop/tool-step.js";
import type { Message } from "../models/message.js";
import type { Usage } from "../models/usage.js";
import type { Trace } from "../trace/trace-types.js";
import type { PlanObservation } from "./plan-observation.js";
import type { PlanStep } from "./plan-step.js";

/** The outcome of a plan-and-execute run. */
export interface PlanResult {
  /** The answer (what `execute` resolves with); "" when the run failed. */
  text: string;
  /** Why the run ended, as for `Agent` (`completed`; `error` with `error`; `awaiting_approval`; a limit). */
  stopReason: StopReason;
  /** Every planned step, all rounds in order (after unknown tools were dropped). */
  steps: PlanStep[];
  /** The plan of each round. */
  plans: PlanStep[][];
  /** One per tool step run, in order. */
  observations: PlanObservation[];
  /** The names of the tools offered to the planner (the only ones a plan may call). */
  offeredTools: string[];
  /** Every event, in order; the last is `loop_end`. */
  events: AgentEvent[];
  /** Tokens of every model call (planning, repair, summary). */
  usage: Usage;
  /** Model turns of the run (a turn answered without a request — a reply step, the step report — counts). */
  turns: number;
  /** USD spent on model calls, from the price table. */
  costUsd: number;
  /** The run's conversation: the query, each round's plan steps as tool calls and their results, the answer. */
  messages: Message[];
  /** With stop reason `awaiting_approval`: the plan steps waiting for a decision (`PlanAgent.resume`). */
  pendingApprovals?: PendingApproval[];
  /** With stop reason `awaiting_approval`, when a step paused inside a sub-agent: what resuming needs. */
  pausedTurn?: PausedTurn;
  /** The run's trace, with `trace: true`. */
  trace?: Trace;
  /** Set when `stopReason` is "error". */
  error?: Error;
}
