import type { RunState } from "../sessions/run-state.js";
import { CALLER_RUN } from "./caller-run-key.js";
import type { ToolContext } from "./tool.js";

/** A tool call's abort state: its AbortController is made on the first read of `ctx.signal`. */
export interface CallAbort {
  controller: AbortController | undefined;
  /** Set when the call was aborted (timeout, outer abort), so a late first read sees an aborted signal. */
  abortReason: { value: unknown } | undefined;
}

/** Options of {@link toolCallContext}. */
export interface ToolCallContextOptions {
  abort: CallAbort;
  toolCallId: string;
  turn: number;
  sessionId: string | undefined;
  state: RunState | undefined;
  caller: unknown;
}

/** Where a context keeps its call's abort state (non-enumerable: spreads and `Object.keys` do not see it). */
const ABORT = Symbol("agentloop.toolCallAbort");

/** `ctx.signal`: made on first read (most tools never read it; an AbortController is not free). */
function lazySignal(this: ToolContext): AbortSignal {
  const abort = (this as unknown as { [ABORT]: CallAbort })[ABORT];
  if (abort.controller === undefined) {
    abort.controller = new AbortController();
    if (abort.abortReason !== undefined) abort.controller.abort(abort.abortReason.value);
  }
  return abort.controller.signal;
}

/**
 * One getter for every context. An object literal with its own `get signal()` makes a new accessor per call,
 * which V8 cannot share between objects: each context went to dictionary mode (a slow object, ~0.5 KB).
 */
const SIGNAL: PropertyDescriptor = Object.freeze({ get: lazySignal, enumerable: true, configurable: true });

/**
 * The context a tool is called with: `signal` (an own, enumerable getter, created lazily), `toolCallId`, `turn`,
 * and the run's `sessionId`, `state` and caller when it has them.
 */
export function toolCallContext(options: ToolCallContextOptions): ToolContext {
  const ctx = {} as ToolContext;
  Object.defineProperty(ctx, "signal", SIGNAL);
  ctx.toolCallId = options.toolCallId;
  ctx.turn = options.turn;
  if (options.sessionId !== undefined) ctx.sessionId = options.sessionId;
  if (options.state !== undefined) ctx.state = options.state;
  if (options.caller !== undefined) ctx[CALLER_RUN] = options.caller;
  Object.defineProperty(ctx, ABORT, { value: options.abort });
  return ctx;
}
