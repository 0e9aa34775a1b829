import { AgentloopError } from "../errors/agentloop-error.js";
import { ModelCallError } from "../errors/model-call-error.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import { computeRetryDelay, type RetryPolicy, sleep } from "../http/retry-policy.js";
import { StreamCollector } from "../models/collect-stream.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse, RetryInfo } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { toError } from "../util/to-error.js";
import type { AgentEvent } from "./agent-event.js";
import { createEvent, describeError } from "./create-event.js";

/** Options of {@link callModel}. */
export interface CallModelOptions {
  model: Model;
  request: ModelRequest;
  /**
   * Stream the answer (emitting `text_delta`, `reasoning_delta` and `tool_call_delta` events) instead of one
   * `generate` call.
   */
  stream: boolean;
  /** The agent's one retry policy: every retryable failure of the call (request or stream) is retried with it. */
  retry: RetryPolicy;
  signal: AbortSignal;
  turn: number;
}

/** True for failures a new attempt may fix: agentloop errors marked `isRetryable` (ModelCallError and kin). */
function isRetryable(error: unknown): boolean {
  return AgentloopError.isInstance(error) && (error as { isRetryable?: unknown }).isRetryable === true;
}

/**
 * One model call of a turn, as an event generator returning the response. The loop owns every retry of the
 * call, with one policy (`retry`): the model is asked not to retry on its own (`maxRetries: 0`), and any
 * retryable failure, from any `Model` (a failed request, a 429/5xx, a stream that broke off), is retried here,
 * so a call makes at most `retry.maxRetries + 1` requests. Each retry is a `retry` event: source "request"
 * when nothing of the answer had arrived, "stream" when the stream broke off (consumers discard this turn's
 * streamed text, reasoning and tool-call fragments). Nothing has been executed yet at this point, so a retry
 * never runs a tool twice.
 */
export async function* callModel(options: CallModelOptions): AsyncGenerator<AgentEvent, ModelResponse> {
  const { model, request, stream, retry, signal, turn } = options;
  for (let attempt = 1; ; attempt++) {
    const call = new PendingCall(turn);
    // A model that still retries on its own reports it through onRetry (source "request").
    const callOptions = { signal, onRetry: call.onRetry, maxRetries: 0 };
    call.track(stream ? streamed(model, request, callOptions, call) : generated(model, request, callOptions));
    try {
      // The call's events (streamed parts, the model's own retries) as they come, then its response.
      while (true) {
        const events = call.take();
        if (events !== undefined) {
          for (const event of events) yield event;
          continue;
        }
        if (call.settled) break;
        await call.changed();
      }
      if (call.failure !== undefined) throw call.failure.value;
      if (call.response === undefined) throw new Error("model call finished without a response");
      return call.response;
    } catch (error) {
      if (!isRetryable(error) || attempt > retry.maxRetries || signal.aborted) throw error;
      const source = call.delivered || StreamInterruptedError.isInstance(error) ? "stream" : "request";
      const retryAfterMs = ModelCallError.isInstance(error) ? error.retryAfterMs : undefined;
      const delayMs = computeRetryDelay({ policy: retry, attempt, retryAfterMs });
      const message = describeError(error).message;
      yield createEvent("retry", turn, { attempt, delayMs, error: message, source });
      await sleep(delayMs, signal);
    }
  }
}

/**
 * One attempt of a model call in flight: the events it produced that the loop has not yielded yet, and how it
 * ended. Callbacks (the model's `onRetry`, the stream reader) queue events and wake the loop; there is no
 * queue, iterator or promise per event when nothing is waiting (a `generate` call usually has no event).
 */
class PendingCall {
  response: ModelResponse | undefined;
  failure: { value: Error } | undefined;
  settled = false;
  /** A stream part was delivered (a failure after it is a broken stream). */
  delivered = false;
  private events: AgentEvent[] | undefined;
  private wake: (() => void) | undefined;

  /** The turn of the call's events. */
  constructor(readonly turn: number) {}

  /** The model's own retries, as `retry` events (source "request"). */
  readonly onRetry = ({ attempt, delayMs, error }: RetryInfo): void => {
    const message = describeError(error).message;
    this.push(createEvent("retry", this.turn, { attempt, delayMs, error: message, source: "request" }));
  };

  /** Queues an event (ignored once the call has ended, as the channel it replaces did). */
  push(event: AgentEvent): void {
    if (this.settled) return;
    if (this.events === undefined) this.events = [event];
    else this.events.push(event);
    this.notify();
  }

  /** The queued events, if any (the queue is emptied). */
  take(): AgentEvent[] | undefined {
    const { events } = this;
    this.events = undefined;
    return events;
  }

  /** Settles the call with what `run` resolves or rejects with (any rejection is normalised by `toError`). */
  track(run: Promise<ModelResponse>): void {
    run.then(
      (response) => {
        this.response = response;
        this.settle();
      },
      (error: unknown) => {
        this.failure = { value: toError(error) };
        this.settle();
      },
    );
  }

  /** Resolves at the next event or at the end. */
  changed(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }

  private settle(): void {
    this.settled = true;
    this.notify();
  }

  private notify(): void {
    const { wake } = this;
    if (wake !== undefined) {
      this.wake = undefined;
      wake();
    }
  }
}

/**
 * `model.generate`, as a promise whatever the model does: a synchronous throw becomes a rejection, and a
 * hostile thenable is adopted (a throwing `then` rejects).
 */
function generated(model: Model, request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
  try {
    return Promise.resolve(model.generate(request, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `model.stream`, collected into a response; each part that is an agent event is queued on `call` as it comes. */
async function streamed(
  model: Model,
  request: ModelRequest,
  options: ModelCallOptions,
  call: PendingCall,
): Promise<ModelResponse> {
  const collector = new StreamCollector();
  const toolNames = new Map<string, string>();
  for await (const part of model.stream(request, options)) {
    call.delivered = true;
    collector.add(part);
    const event = streamEvent({ part, turn: call.turn, toolNames });
    if (event !== undefined) call.push(event);
  }
  return collector.response();
}

/** Options of {@link streamEvent}. */
interface StreamEventOptions {
  part: ModelStreamPart;
  turn: number;
  /** The name of each tool call announced so far, by call id (filled from `tool_call_start`). */
  toolNames: Map<string, string>;
}

/**
 * The agent event a streamed model part becomes, if any: `text_delta`, `reasoning_delta`, and `tool_call_delta`
 * (a `tool_call_start` is one with delta "", so a consumer learns the tool's name at once).
 */
function streamEvent({ part, turn, toolNames }: StreamEventOptions): AgentEvent | undefined {
  switch (part.type) {
    case "text_delta":
      return createEvent("text_delta", turn, { delta: part.delta });
    case "reasoning_delta":
      return createEvent("reasoning_delta", turn, { delta: part.delta });
    case "tool_call_start":
      toolNames.set(part.id, part.name);
      return createEvent("tool_call_delta", turn, { toolCallId: part.id, toolName: part.name, delta: "" });
    case "tool_call_delta":
      return createEvent("tool_call_delta", turn, {
        toolCallId: part.id,
        toolName: toolNames.get(part.id) ?? "",
        delta: part.delta,
      });
    default:
      return undefined;
  }
}
