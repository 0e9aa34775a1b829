import type { AgentEvent, AgentEventDataMap, AgentEventType } from "../loop/agent-event.js";
import { createEvent, describeError } from "../loop/create-event.js";

/** An observer of a plan run's events; it may not break the run. */
export type PlanEventHook = (event: AgentEvent) => void | Promise<void>;

/**
 * Records the events of one plan run and passes each to the `onEvent` hook. A hook that throws (or rejects) is
 * reported as a non-fatal `error` event named "HookError" — as in the ReAct agent — which is recorded but not
 * passed to the hook, so a failing hook cannot loop. A rejection reported after `loop_end` is dropped, so
 * `loop_end` stays the last event.
 */
export class EventRecorder {
  /** Every event so far, in order. */
  readonly events: AgentEvent[] = [];
  private readonly late: AgentEvent[] = [];
  private ended = false;

  constructor(private readonly onEvent?: PlanEventHook) {}

  /** Records an event `{ type, step, timestamp, data }` and calls the hook. */
  emit<K extends AgentEventType>(type: K, step: number, data: AgentEventDataMap[K]): void {
    this.flushLate();
    const event = createEvent(type, step, data);
    this.events.push(event);
    if (type === "loop_end") this.ended = true;
    const hook = this.onEvent;
    if (hook === undefined) return;
    const failure = this.call(hook, event);
    if (failure === undefined) return;
    if (type === "loop_end") this.events.splice(this.events.length - 1, 0, failure);
    else this.events.push(failure);
  }

  private call(hook: PlanEventHook, event: AgentEvent): AgentEvent | undefined {
    try {
      const result = hook(event);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if (!this.ended) this.late.push(this.report(error, event.step));
        });
      }
      return undefined;
    } catch (error) {
      return this.report(error, event.step);
    }
  }

  private report(error: unknown, step: number): AgentEvent {
    return createEvent("error", step, {
      name: "HookError",
      message: `onEvent failed: ${describeError(error).message}`,
      fatal: false,
    });
  }

  private flushLate(): void {
    if (this.late.length > 0) this.events.push(...this.late.splice(0));
  }
}
