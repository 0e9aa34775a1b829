import type { AgentEvent } from "../loop/agent-event.js";
import type { StepDetails } from "./read-plan-run.js";

/** Receives a plan-and-execute run's events, in order (a throw or rejection becomes a non-fatal HookError). */
export type PlanEventHook = (event: AgentEvent) => void | Promise<void>;

/**
 * The planning events of a run (`plan`, planning errors), emitted by its {@link PlanModel} during a model call:
 * handed to the hook right after that call's `model_call` event, and put there in the result's events.
 */
export class PlanEvents {
  private pending: AgentEvent[] = [];
  private readonly after = new Map<AgentEvent, AgentEvent[]>();

  constructor(private readonly hook: PlanEventHook | undefined) {}

  planned(event: AgentEvent): void {
    this.pending.push(event);
  }

  /** The Agent's hook: observes the loop's events and passes them, and the planning events, to the user's. */
  seen(event: AgentEvent, details: Map<string, StepDetails>): void | Promise<void> {
    if (event.type === "observation") {
      const { toolCallId, durationMs, error } = event.data;
      details.set(toolCallId, { latencyMs: durationMs, ...(error !== undefined && { error }) });
    }
    const planned = event.type === "model_call" || event.type === "loop_end" ? this.take(event) : [];
    const hook = this.hook;
    if (hook === undefined) return;
    const order = event.type === "loop_end" ? [...planned, event] : [event, ...planned];
    let failure: unknown;
    const late: Promise<void>[] = [];
    for (const item of order) {
      try {
        const returned = hook(item);
        if (returned !== undefined) late.push(Promise.resolve(returned));
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
    if (late.length > 0) return Promise.all(late).then(() => undefined);
  }

  /** The run's events with the planning events put after their model call. */
  merge(events: readonly AgentEvent[]): AgentEvent[] {
    const merged: AgentEvent[] = [];
    for (const event of events) {
      const planned = this.after.get(event);
      if (event.type === "loop_end" && planned !== undefined) merged.push(...planned);
      merged.push(event);
      if (event.type !== "loop_end" && planned !== undefined) merged.push(...planned);
    }
    return merged;
  }

  private take(event: AgentEvent): AgentEvent[] {
    const planned = this.pending.map((item) => ({ ...item, turn: event.turn }) as AgentEvent);
    this.pending = [];
    if (planned.length > 0) this.after.set(event, planned);
    return planned;
  }
}
