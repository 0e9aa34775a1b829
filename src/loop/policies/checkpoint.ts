import type { RunPersistence } from "../../sessions/run-persistence.js";
import type { StopReason } from "../agent-event.js";
import type { LoopState } from "../loop-state.js";

/** Options of {@link Checkpoint}. */
export interface CheckpointOptions {
  state: LoopState;
  /** The run's persistence (sessions); undefined: nothing is persisted. */
  persistence: RunPersistence | undefined;
}

/**
 * The one seam between the loop and its persistence: the loop calls it after each completed turn
 * ({@link turnDone}: flush), after a compaction ({@link compacted}: replace the stored history) and when the run
 * ends ({@link end}: flush, unless nothing happened). No other part of the loop touches `persistence`.
 * Without persistence each call returns undefined at once (no promise made).
 */
export class Checkpoint {
  private readonly state: LoopState;
  private readonly persistence: RunPersistence | undefined;

  constructor({ state, persistence }: CheckpointOptions) {
    this.state = state;
    this.persistence = persistence;
  }

  /** A turn completed (its tool results, or the refusal of its calls, are in the history): flush. */
  turnDone(): Promise<void> | undefined {
    return this.persistence?.flush(this.state.messages);
  }

  /** The history was compacted in place: the store replaces its copy. */
  compacted(): Promise<void> | undefined {
    return this.persistence?.replace(this.state.messages);
  }

  /**
   * The run ended with `stopReason`: flush. A run aborted or timed out before its first model call (e.g. with
   * an already-aborted signal) has nothing to keep, so the user's message is not saved.
   */
  end(stopReason: StopReason): Promise<void> | undefined {
    if (!this.state.modelCalled && (stopReason === "aborted" || stopReason === "timeout")) return undefined;
    return this.persistence?.flush(this.state.messages);
  }
}
