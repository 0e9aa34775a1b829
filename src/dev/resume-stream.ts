import type { Agent, ResumeOptions } from "../agent.js";
import type { AgentStream } from "../agent-stream.js";
import type { AgentEvent } from "../loop/agent-event.js";
import type { AgentResult } from "../loop/agent-result.js";

/** Options of {@link resumeStream}. */
export interface ResumeStreamOptions {
  agent: Agent;
  /** The durable run to resume. */
  runId: string;
  decisions: ResumeOptions;
  /** Record the resumed part as a trace (`result.trace`). */
  trace?: boolean;
}

/**
 * `agent.resume(runId, decisions)` as an {@link AgentStream}: the events come from an `onEvent` hook (the
 * agent's own hook still runs), so the resumed part streams like a run. `agent.resume` does not stream text:
 * there are no `text_delta` events, the answer arrives with `loop_end`. The events of the replayed part are
 * marked `replayed: true`. Iterate it once; `send` resolves false (a resumed run takes no steering here);
 * `abort` aborts the resumed run.
 */
export function resumeStream({ agent, runId, decisions, trace = false }: ResumeStreamOptions): AgentStream {
  const queue: AgentEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const own = agent.options.onEvent;
  const hooked = agent.with({
    trace: trace || agent.options.trace === true,
    onEvent: (event, run) => {
      queue.push(event);
      wake?.();
      return own?.(event, run);
    },
  });
  const controller = new AbortController();
  decisions.signal?.addEventListener("abort", () => controller.abort(decisions.signal?.reason), {
    once: true,
  });
  const signal = controller.signal;
  const result: Promise<AgentResult> = hooked.resume(runId, { ...decisions, signal }).finally(() => {
    ended = true;
    wake?.();
  });
  // The failure is delivered by the iteration (and `result` to whoever awaits it), never unhandled.
  result.catch(() => undefined);
  async function* events(): AsyncGenerator<AgentEvent> {
    while (true) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (ended) {
        await result;
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  }
  return {
    result,
    send: async () => false,
    abort: (reason) => {
      if (!ended) controller.abort(reason ?? new Error("the stream was aborted"));
    },
    [Symbol.asyncIterator]: () => events(),
  };
}
