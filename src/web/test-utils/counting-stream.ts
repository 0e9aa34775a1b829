import { type AgentStream, createAgentStream } from "../../agent-stream.js";
import type { AgentEvent } from "../../loop/agent-event.js";
import type { AgentLoopOutcome } from "../../loop/agent-loop.js";
import { createEvent } from "../../loop/create-event.js";

/** Options of {@link countingStream}. */
export interface CountingStreamOptions {
  /** The events to yield (default: `loop_start`, `count` text deltas, `loop_end`). */
  events?: AgentEvent[];
  /** Text deltas of the default events. Default 10. */
  count?: number;
  /** Throw this instead of ending. */
  error?: unknown;
  /** Wait before each event (ms; cut short by an abort). */
  delayMs?: number;
}

/**
 * An agent stream over a fixed list of events that counts how many were pulled (`pulled.count`): a stand-in
 * for a run, to watch backpressure. Aborted (its controller), it yields `loop_end` aborted next.
 */
export function countingStream(options: CountingStreamOptions = {}) {
  const events = options.events ?? [
    createEvent("loop_start", 0, { task: "t", model: "m:m" }),
    ...Array.from({ length: options.count ?? 10 }, (_, i) =>
      createEvent("text_delta", 1, { delta: `w${i} ` }),
    ),
    createEvent("loop_end", 1, { stopReason: "completed", text: "done" }),
  ];
  const pulled = { count: 0 };
  const controller = new AbortController();
  const outcome = (stopReason: AgentLoopOutcome["stopReason"]): AgentLoopOutcome => ({
    stopReason,
    text: "done",
    turns: 1,
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    messages: [],
    costUsd: 0,
    costUnknownModels: [],
  });
  async function* run(): AsyncGenerator<AgentEvent, AgentLoopOutcome> {
    for (const event of events) {
      if (options.delayMs !== undefined) await wait(options.delayMs, controller.signal);
      if (controller.signal.aborted) {
        yield createEvent("loop_end", 1, { stopReason: "aborted", text: "" });
        return outcome("aborted");
      }
      pulled.count++;
      yield event;
    }
    if (options.error !== undefined) throw options.error;
    return outcome("completed");
  }
  const stream: AgentStream = createAgentStream({ events: run(), controller });
  return { stream, pulled, controller };
}

/** Waits `ms`, or until `signal` aborts. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
