import type { OutputError } from "../errors/output-error.js";
import type { Message } from "../models/message.js";
import { emptyUsage, type Usage } from "../models/usage.js";

/**
 * The mutable state of one run, shared by the loop and its policies. Made once per run; policies keep a
 * reference and read or update it in place, so a turn passes no per-call option objects around.
 */
export interface LoopState {
  /** The run's history: the caller's array, appended to (and compacted) in place, never copied. */
  readonly messages: Message[];
  /** The run's usage, summary calls included. */
  readonly usage: Usage;
  /** Completed model turns (the `turn` of the turn's events). */
  turns: number;
  /** The latest non-empty answer text. */
  text: string;
  /** A model call (or a resumed turn) started: a run that ends now has changed its session. */
  modelCalled: boolean;
  /** The typed final answer, once a valid one was given (agents with an `output` schema). */
  output?: unknown;
  /** Why the typed answer failed, when it did. */
  outputError?: OutputError;
}

/** A fresh state over `messages`: no turns, no usage; `resumed` runs count as having called the model. */
export function createLoopState({ messages, resumed }: { messages: Message[]; resumed: boolean }): LoopState {
  return { messages, usage: emptyUsage(), turns: 0, text: "", modelCalled: resumed };
}
