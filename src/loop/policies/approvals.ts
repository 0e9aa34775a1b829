import type { ToolCall } from "../../models/message.js";
import { PAUSED_TURN_KEY, PENDING_APPROVALS_KEY } from "../../sessions/close-pending-calls.js";
import type { RunState } from "../../sessions/run-state.js";
import type { JsonValue } from "../../stores/session-store.js";
import type { LoopState } from "../loop-state.js";
import type { ApprovalDecisions, PendingApproval } from "../tool-step.js";
import type { PausedTurn } from "./sub-agents.js";

/** Options of {@link Approvals}. */
export interface ApprovalsOptions {
  state: LoopState;
  /** The run's key-value state (sessions): the pending calls are kept there while the run is paused. */
  runState: RunState | undefined;
  /** Decisions already taken, by the turn that requested them (a durable run replaying its journal). */
  decided: ReadonlyMap<number, ApprovalDecisions> | undefined;
}

/**
 * The bookkeeping of human approval around the tool step (which gates the calls, see `toolStep`): the
 * decisions a turn already has, pausing (the pending calls kept in the run state under
 * `PENDING_APPROVALS_KEY`, stop reason `awaiting_approval`) and resuming (the paused turn's calls, the key
 * removed).
 */
export class Approvals {
  /** The calls waiting for a decision once the run paused. */
  pending: PendingApproval[] | undefined;
  /** What the paused turn had done, when it paused inside a sub-agent. */
  paused: PausedTurn | undefined;
  private readonly state: LoopState;
  private readonly runState: RunState | undefined;
  private readonly decided: ReadonlyMap<number, ApprovalDecisions> | undefined;

  constructor({ state, runState, decided }: ApprovalsOptions) {
    this.state = state;
    this.runState = runState;
    this.decided = decided;
  }

  /** The decisions already taken for the gated calls of turn `turn`; undefined: they pause the run. */
  decisionsFor(turn: number): ApprovalDecisions | undefined {
    return this.decided?.get(turn);
  }

  /** The tool step paused on `pending`: keep them (and in the run state); the run stops `awaiting_approval`. */
  pause(pending: PendingApproval[], paused?: PausedTurn): "awaiting_approval" {
    this.pending = pending;
    this.paused = paused;
    this.runState?.set(PENDING_APPROVALS_KEY, pending as unknown as JsonValue);
    if (paused === undefined) this.runState?.delete(PAUSED_TURN_KEY);
    else this.runState?.set(PAUSED_TURN_KEY, paused as unknown as JsonValue);
    return "awaiting_approval";
  }

  /** What the paused turn had done (the resumed result's, else the session's), when it paused in a sub-agent. */
  pausedTurn(given: PausedTurn | undefined): PausedTurn | undefined {
    return given ?? (this.runState?.get(PAUSED_TURN_KEY) as PausedTurn | undefined);
  }

  /** The calls of the paused turn a resumed run runs first: the last message's, when it is the assistant's. */
  pausedCalls(): ToolCall[] {
    const last = this.state.messages.at(-1);
    return last?.role === "assistant" ? (last.toolCalls ?? []) : [];
  }

  /** The paused turn ran (or was refused): the run is no longer waiting. */
  resumed(): void {
    this.runState?.delete(PENDING_APPROVALS_KEY);
    this.runState?.delete(PAUSED_TURN_KEY);
  }
}
