import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_STEPCONTROLERROR = errorMarker("StepControlError");

/** Which step-control function failed: the `prepareStep` hook or a `stopWhen` condition. */
export type StepControlHook = "prepareStep" | "stopWhen";

/** Options of {@link StepControlError}. */
export interface StepControlErrorOptions {
  hook: StepControlHook;
  /** The turn the hook was deciding about (for `prepareStep`, the turn about to be made). */
  turn: number;
  /** What went wrong: the thrown value's description, or what is invalid about the returned value. */
  problem: string;
  /** The value the hook threw, when it threw. */
  cause?: unknown;
}

/**
 * A `prepareStep` hook or a `stopWhen` condition threw (anything: the value becomes `cause`), or `prepareStep`
 * returned overrides the run cannot use (an unknown tool name, a model string no provider knows, an unknown
 * key). The run ends with stop reason `error` and this error in `result.error`; the history stays valid (no
 * model call was made for the step; a condition runs after the turn's tool results are in).
 */
export class StepControlError extends AgentloopError {
  protected readonly [MARK_STEPCONTROLERROR] = true;
  readonly hook: StepControlHook;
  readonly turn: number;
  readonly problem: string;

  constructor({ hook, turn, problem, cause }: StepControlErrorOptions) {
    super({ message: `${hook} failed at turn ${turn}: ${problem}`, cause });
    this.name = "StepControlError";
    this.hook = hook;
    this.turn = turn;
    this.problem = problem;
  }

  static override isInstance(error: unknown): error is StepControlError {
    return hasMarker(error, MARK_STEPCONTROLERROR);
  }
}
