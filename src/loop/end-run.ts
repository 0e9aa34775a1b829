import { toError } from "../util/to-error.js";
import type { AgentEvent, StopReason } from "./agent-event.js";
import type { AgentLoopOutcome } from "./agent-loop.js";
import type { CostGuard } from "./cost-guard.js";
import { createEvent, describeError } from "./create-event.js";
import { closeOpenToolCalls } from "./history-helpers.js";
import type { LoopState } from "./loop-state.js";
import type { Approvals } from "./policies/approvals.js";
import type { Checkpoint } from "./policies/checkpoint.js";

/** Options of {@link endRun}. */
export interface EndRunOptions {
  state: LoopState;
  /** Why the loop stopped (`error` when it could not say). */
  stopReason: StopReason;
  /** The error that ended the run, if one did. */
  failure: Error | undefined;
  /** Why a run with an `output` schema has no typed answer (`result.error` when nothing else failed). */
  outputError?: Error | undefined;
  /** The run's guardrails: the block that stopped it is `result.error` (before an `outputError`). */
  guardrails?: { error: Error | undefined } | undefined;
  checkpoint: Checkpoint;
  cost: Pick<CostGuard, "totals">;
  approvals: Pick<Approvals, "pending" | "paused">;
}

/** The tool result given to calls left open when a run stops for `stopReason` (none when it paused). */
function openCallsReason(stopReason: StopReason): string | undefined {
  if (stopReason === "awaiting_approval") return undefined; // the pending calls stay open: resume answers them
  if (stopReason === "timeout") return "the run timed out";
  if (stopReason === "aborted") return "the run was aborted";
  if (stopReason === "guardrail") return "a guardrail stopped the run";
  return "the run stopped";
}

/**
 * The end of every run: closes the calls left open (the history stays valid for every provider), persists
 * through the checkpoint (a failure there ends the run with `error`, reported by a fatal `error` event),
 * emits `loop_end` (always the last event) and returns the outcome.
 */
export async function* endRun(options: EndRunOptions): AsyncGenerator<AgentEvent, AgentLoopOutcome> {
  const { state, stopReason } = options;
  let failure = options.failure;
  const reason = openCallsReason(stopReason);
  if (reason !== undefined) closeOpenToolCalls(state.messages, reason);
  try {
    await options.checkpoint.end(stopReason);
  } catch (error) {
    failure = toError(error);
    yield createEvent("error", state.turns, { ...describeError(failure), fatal: true });
  }
  const ended: StopReason = failure !== undefined && stopReason !== "error" ? "error" : stopReason;
  yield createEvent("loop_end", state.turns, { stopReason: ended, text: state.text });
  const { costUsd, costUnknownModels } = options.cost.totals();
  const { text, turns, usage, messages } = state;
  const outcome: AgentLoopOutcome = {
    stopReason: ended,
    text,
    turns,
    usage,
    messages,
    costUsd,
    costUnknownModels,
  };
  const { pending } = options.approvals;
  if (pending !== undefined && ended === "awaiting_approval") {
    outcome.pendingApprovals = pending;
    const { paused } = options.approvals;
    if (paused !== undefined) outcome.pausedTurn = paused;
  }
  const blocked = ended === "guardrail" ? options.guardrails?.error : undefined;
  if (failure !== undefined) outcome.error = failure;
  else if (blocked !== undefined) outcome.error = blocked;
  else if (options.outputError !== undefined) outcome.error = options.outputError;
  if (state.output !== undefined) outcome.output = state.output;
  return outcome;
}
