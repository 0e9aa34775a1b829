import { AgentloopError } from "../errors/agentloop-error.js";
import { ModelCallError } from "../errors/model-call-error.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import { computeRetryDelay, type RetryPolicy, sleep } from "../http/retry-policy.js";
import { StreamCollector } from "../models/collect-stream.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse, RetryInfo } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { AsyncChannel } from "../util/async-channel.js";
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
    // The call's events (streamed parts, the model's own retries) as they come, then its response.
    const events = new AsyncChannel<AgentEvent>();
    // A model that still retries on its own reports it through onRetry (source "request").
    const onRetry = ({ attempt: n, delayMs, error }: RetryInfo): void => {
      const message = describeError(error).message;
      events.push(createEvent("retry", turn, { attempt: n, delayMs, error: message, source: "request" }));
    };
    const callOptions = { signal, onRetry, maxRetries: 0 };
    const progress = { delivered: false };
    let response: ModelResponse | undefined;
    const call = stream
      ? streamed({ model, request, options: callOptions, events, turn, progress })
      : generated(model, request, callOptions);
    call.then(
      (value) => {
        response = value;
        events.close();
      },
      (error: unknown) => events.fail(toError(error)),
    );
    try {
      // Drained with take()/ready(): no async iterator step per event.
      for (;;) {
        const event = events.take();
        if (event !== undefined) yield event;
        else if (!(await events.ready())) break;
      }
      if (response === undefined) throw new Error("model call finished without a response");
      return response;
    } catch (error) {
      if (!isRetryable(error) || attempt > retry.maxRetries || signal.aborted) throw error;
      const source = progress.delivered || StreamInterruptedError.isInstance(error) ? "stream" : "request";
      const retryAfterMs = ModelCallError.isInstance(error) ? error.retryAfterMs : undefined;
      const delayMs = computeRetryDelay({ policy: retry, attempt, retryAfterMs });
      const message = describeError(error).message;
      yield createEvent("retry", turn, { attempt, delayMs, error: message, source });
      await sleep(delayMs, signal);
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

/** Options of {@link streamed}. */
interface StreamedOptions {
  model: Model;
  request: ModelRequest;
  options: ModelCallOptions;
  /** Where each part that is an agent event goes, as it comes. */
  events: AsyncChannel<AgentEvent>;
  turn: number;
  /** Set once a part arrived (a failure after it is a broken stream). */
  progress: { delivered: boolean };
}

/** `model.stream`, collected into a response; each part that is an agent event is pushed as it comes. */
async function streamed({
  model,
  request,
  options,
  events,
  turn,
  progress,
}: StreamedOptions): Promise<ModelResponse> {
  const collector = new StreamCollector();
  const toolNames = new Map<string, string>();
  for await (const part of model.stream(request, options)) {
    progress.delivered = true;
    collector.add(part);
    const event = streamEvent({ part, turn, toolNames });
    if (event !== undefined) events.push(event);
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
