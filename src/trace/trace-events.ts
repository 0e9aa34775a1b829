import type { AgentEvent } from "../loop/agent-event.js";
import { loadSha256 } from "../util/sha256-hex.js";
import type { TraceRecorder } from "./trace-recorder.js";
import type { Trace } from "./trace-types.js";

/** Options of {@link traceEvents}. */
export interface TraceEventsOptions<R> {
  /** A run's event generator (what `Agent` folds into its result), returning the loop's outcome. */
  events: AsyncGenerator<AgentEvent, R>;
  /** Where the events are recorded. Its wrapped model should be the run's model. */
  recorder: TraceRecorder;
}

/**
 * Passes a run's events through unchanged, recording each one, and returns the run's outcome with the
 * finished trace added (`{ ...outcome, trace }`). Closing it early closes `events` too.
 */
export async function* traceEvents<R>({
  events,
  recorder,
}: TraceEventsOptions<R>): AsyncGenerator<AgentEvent, R & { trace: Trace }> {
  let done = false;
  try {
    // Where there is no node:crypto (a browser), SHA-256 loads before the run starts.
    await loadSha256();
    recorder.hashPending();
    while (true) {
      const next = await events.next();
      if (next.done) {
        done = true;
        return { ...next.value, trace: recorder.finish() };
      }
      recorder.recordEvent(next.value);
      yield next.value;
    }
  } finally {
    if (!done) await events.return(undefined as R);
  }
}
