import type { AgentEvent, AgentEventOf } from "./agent-event.js";
import { createEvent, describeError } from "./create-event.js";

/**
 * The run a hook is called for: one object per run (the same for every event of it), so a hook shared by
 * concurrent runs of an agent can keep per-run state (e.g. in a `WeakMap`). `runId` / `sessionId` when the run has them.
 */
export interface HookRun {
  readonly runId?: string | undefined;
  readonly sessionId?: string | undefined;
}

/** Observer hooks. They may not break a run: a throw (or a rejected promise) is reported as an `error` event. */
export interface AgentHooks {
  /** Every event, in order; `run` is the same object for every event of one run. */
  onEvent?: (event: AgentEvent, run: HookRun) => void | Promise<void>;
  /** A tool call is about to run (the `action` event). */
  onToolStart?: (event: AgentEventOf<"action">) => void | Promise<void>;
  /** A tool call finished (the `observation` event). */
  onToolEnd?: (event: AgentEventOf<"observation">) => void | Promise<void>;
}

/**
 * Calls the hooks for each event and passes the events on. A hook that throws or rejects becomes a
 * non-fatal `error` event right after the event that triggered it (a rejection that arrives later is
 * reported with the next event); hooks are not called for those error events, so a failing hook cannot loop.
 */
export function withHooks(
  events: AsyncGenerator<AgentEvent, unknown>,
  hooks: AgentHooks,
  run: HookRun = {},
): AsyncGenerator<AgentEvent, unknown> {
  // No hooks: hand the loop's generator through untouched (no extra async hop per event).
  if (hooks.onEvent === undefined && hooks.onToolStart === undefined && hooks.onToolEnd === undefined)
    return events;
  return callHooks(events, hooks, Object.freeze({ ...run }));
}

/** Reports a hook that threw or rejected as a non-fatal `error` event. */
function hookError(hook: string, error: unknown, turn: number): AgentEvent {
  return createEvent("error", turn, {
    name: "HookError",
    message: `${hook} failed: ${describeError(error).message}`,
    fatal: false,
  });
}

/**
 * Calls one hook with `event` (and `run`): a synchronous throw is returned as an error event; a returned
 * thenable's rejection is pushed onto `late`. No closure per call: this runs for every event of every run.
 */
function callHook<E extends AgentEvent>(
  hook: string,
  fn: (event: E, run: HookRun) => void | Promise<void>,
  options: { event: E; run: HookRun; late: AgentEvent[] },
): AgentEvent | undefined {
  const { event, run, late } = options;
  try {
    const result: unknown = fn(event, run);
    // Any object may be a thenable (a Promise, or one whose `then` throws): Promise.resolve adopts it and
    // turns every failure, synchronous or not, into a rejection that is caught here.
    if ((typeof result === "object" && result !== null) || typeof result === "function") {
      const turn = event.turn;
      Promise.resolve(result).then(undefined, (error: unknown) => late.push(hookError(hook, error, turn)));
    }
    return undefined;
  } catch (error) {
    return hookError(hook, error, event.turn);
  }
}

/** The failures of this event's hooks (`undefined` while there are none: the common case allocates nothing). */
function addFailure(
  failures: AgentEvent[] | undefined,
  failure: AgentEvent | undefined,
): AgentEvent[] | undefined {
  if (failure === undefined) return failures;
  if (failures === undefined) return [failure];
  failures.push(failure);
  return failures;
}

async function* callHooks(
  events: AsyncGenerator<AgentEvent, unknown>,
  hooks: AgentHooks,
  run: HookRun,
): AsyncGenerator<AgentEvent, unknown> {
  const late: AgentEvent[] = [];
  const { onEvent, onToolStart, onToolEnd } = hooks;
  let done = false;
  try {
    while (true) {
      const next = await events.next();
      if (next.done) {
        done = true;
        return next.value;
      }
      const event = next.value;
      const call = { event, run, late };
      let failures: AgentEvent[] | undefined;
      // A sub-agent's tool calls are its own (its hooks saw them); onEvent sees every event of the stream.
      const own = event.agent === undefined;
      if (own && event.type === "action" && onToolStart)
        failures = addFailure(failures, callHook("onToolStart", onToolStart, { ...call, event }));
      if (own && event.type === "observation" && onToolEnd)
        failures = addFailure(failures, callHook("onToolEnd", onToolEnd, { ...call, event }));
      if (onEvent) failures = addFailure(failures, callHook("onEvent", onEvent, call));
      // Keep loop_end last: report hook failures before it. (Each `yield*` is guarded: delegating to an empty
      // array still costs an iterator and a hop per event.)
      if (own && event.type === "loop_end") {
        if (late.length > 0) yield* late.splice(0);
        if (failures !== undefined) yield* failures;
        yield event;
        continue;
      }
      yield event;
      if (late.length > 0) yield* late.splice(0);
      if (failures !== undefined) yield* failures;
    }
  } finally {
    // Closed early or failed: close the run too, so its own cleanup (the session lock) runs.
    if (!done) await events.return(undefined);
  }
}
