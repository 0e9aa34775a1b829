import { InvalidArgumentError } from "./errors/invalid-argument-error.js";
import type { AgentEvent } from "./loop/agent-event.js";
import type { AgentLoopOutcome } from "./loop/agent-loop.js";
import { type AgentResult, AgentResultBuilder } from "./loop/agent-result.js";
import type { SteeringInbox } from "./loop/steering-inbox.js";
import type { RunInput } from "./models/normalize-content.js";

/** The events of a streamed run, plus its result (`TOutput`: the type of the typed answer). */
export interface AgentStream<TOutput = unknown> extends AsyncIterable<AgentEvent> {
  /** Resolves when the run has ended (iterating is not required: an unread stream is drained). */
  readonly result: Promise<AgentResult<TOutput>>;
  /**
   * Sends a user message to the running agent: it is added to the history between two turns (after a turn's
   * tool results, before the next model call), with a `user_message` event; a message that arrives while the
   * model writes its final answer keeps the run going. Resolves true once the message is in the history,
   * false when the run ended before (a message sent after the end resolves false at once). Throws
   * `InvalidArgumentError` for an empty or invalid message. See docs/loop.md, "Steering".
   */
  send(message: RunInput): Promise<boolean>;
  /**
   * Aborts the run now (a model call or tool in progress is cancelled), as leaving the iteration does, without
   * waiting for the next event: the iteration then ends with the run's last events and `result` resolves with
   * stop reason `aborted`. Does nothing once the run has ended. (A web response uses it when its client goes.)
   */
  abort(reason?: unknown): void;
}

/**
 * Wraps a run's event generator as an {@link AgentStream}: iterate it once for the events; `result` folds the
 * same events. Leaving the iteration early aborts the run through `controller` and drains the rest quietly,
 * so `result` still resolves (stop reason `aborted`, `loop_end` last).
 */
export function createAgentStream({
  events,
  controller,
  onSettled,
  inbox,
}: {
  events: AsyncGenerator<AgentEvent, unknown>;
  controller: AbortController;
  /** Called when `result` settles (e.g. to unlink `controller` from the caller's signal); must be idempotent. */
  onSettled?: () => void;
  /** The run's steering inbox (`send`); without one, `send` resolves false. */
  inbox?: SteeringInbox | undefined;
}): AgentStream {
  const builder = new AgentResultBuilder();
  let resolveResult: (result: AgentResult) => void = () => undefined;
  let rejectResult: (error: unknown) => void = () => undefined;
  const result = new Promise<AgentResult>((resolve, reject) => {
    resolveResult = (value) => {
      onSettled?.();
      resolve(value);
    };
    rejectResult = (error) => {
      onSettled?.();
      reject(error);
    };
  });
  // A run that fails while iterated rejects `result` too: a consumer that reads only the iteration must not get
  // an unhandled rejection (it would crash a server). `result` still rejects for those who read it.
  result.catch(() => undefined);
  let started = false;
  const finish = async (): Promise<void> => {
    while (true) {
      const next = await events.next();
      if (next.done) return resolveResult(builder.build(next.value as AgentLoopOutcome));
      builder.add(next.value);
    }
  };
  const iterate = async function* (): AsyncGenerator<AgentEvent> {
    if (started)
      throw new InvalidArgumentError({ argument: "stream", message: "an agent stream can be iterated once" });
    started = true;
    let done = false;
    try {
      while (true) {
        const next = await events.next();
        if (next.done) {
          done = true;
          resolveResult(builder.build(next.value as AgentLoopOutcome));
          return;
        }
        builder.add(next.value);
        yield next.value;
      }
    } catch (error) {
      done = true;
      rejectResult(error);
      throw error;
    } finally {
      if (!done) {
        controller.abort(new Error("the stream consumer stopped reading"));
        await finish().catch(rejectResult);
      }
    }
  };
  return {
    [Symbol.asyncIterator]: () => iterate(),
    send: (message) => (inbox === undefined ? Promise.resolve(false) : inbox.send(message)),
    abort: (reason) => controller.abort(reason ?? new Error("the stream was aborted")),
    get result() {
      queueMicrotask(() => {
        if (!started) {
          started = true;
          finish().catch(rejectResult);
        }
      });
      return result;
    },
  };
}
