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

async function* callHooks(
  events: AsyncGenerator<AgentEvent, unknown>,
  hooks: AgentHooks,
  run: HookRun,
): AsyncGenerator<AgentEvent, unknown> {
  const late: AgentEvent[] = [];
  const report = (hook: string, error: unknown, turn: number): AgentEvent =>
    createEvent("error", turn, {
      name: "HookError",
      message: `${hook} failed: ${describeError(error).message}`,
      fatal: false,
    });
  const call = (hook: string, fn: () => void | Promise<void>, turn: number): AgentEvent | undefined => {
    try {
      const result: unknown = fn();
      // Any object may be a thenable (a Promise, or one whose `then` throws): Promise.resolve adopts it and
      // turns every failure, synchronous or not, into a rejection that is caught here.
      if ((typeof result === "object" && result !== null) || typeof result === "function") {
        Promise.resolve(result).then(undefined, (error: unknown) => late.push(report(hook, error, turn)));
      }
      return undefined;
    } catch (error) {
      return report(hook, error, turn);
    }
  };
  let done = false;
  try {
    while (true) {
      const next = await events.next();
      if (next.done) {
        done = true;
        return next.value;
      }
      const event = next.value;
      const failures: AgentEvent[] = [];
      const { onEvent, onToolStart, onToolEnd } = hooks;
      const push = (failure: AgentEvent | undefined) => failure !== undefined && failures.push(failure);
      // A sub-agent's tool calls are its own (its hooks saw them); onEvent sees every event of the stream.
      const own = event.agent === undefined;
      if (own && event.type === "action" && onToolStart)
        push(call("onToolStart", () => onToolStart(event), event.turn));
      if (own && event.type === "observation" && onToolEnd)
        push(call("onToolEnd", () => onToolEnd(event), event.turn));
      if (onEvent) push(call("onEvent", () => onEvent(event, run), event.turn));
      // Keep loop_end last: report hook failures before it.
      if (own && event.type === "loop_end") {
        yield* late.splice(0);
        yield* failures;
        yield event;
        continue;
      }
      yield event;
      yield* late.splice(0);
      yield* failures;
    }
  } finally {
    // Closed early or failed: close the run too, so its own cleanup (the session lock) runs.
    if (!done) await events.return(undefined);
  }
}
