import { ModelCallError } from "../errors/model-call-error.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import { computeRetryDelay, type RetryPolicy, sleep } from "../http/retry-policy.js";
import { StreamCollector } from "../models/collect-stream.js";
import type { Model, ModelRequest, ModelResponse, RetryInfo } from "../models/model.js";
import { AsyncChannel } from "../util/async-channel.js";
import type { AgentEvent } from "./agent-event.js";
import { createEvent, describeError } from "./create-event.js";

/** Options of {@link callModel}. */
export interface CallModelOptions {
  model: Model;
  request: ModelRequest;
  /** Stream the answer (emitting `text_delta` events) instead of one `generate` call. */
  stream: boolean;
  /** Used to retry streams that broke off after they started. */
  retry: RetryPolicy;
  signal: AbortSignal;
  step: number;
}

/**
 * One model call of a turn, as an event generator returning the response. Provider retries become `retry`
 * events (source "request") as they happen. A stream that breaks off after it started
 * ({@link StreamInterruptedError}) is retried here as a whole call — a `retry` event with source "stream"
 * tells consumers to discard this turn's streamed text. Nothing has been executed yet at this point, so a
 * retry never runs a tool twice.
 */
export async function* callModel(options: CallModelOptions): AsyncGenerator<AgentEvent, ModelResponse> {
  const { model, request, stream, retry, signal, step } = options;
  for (let attempt = 1; ; attempt++) {
    const channel = new AsyncChannel<AgentEvent>();
    const onRetry = ({ attempt: n, delayMs, error }: RetryInfo) =>
      channel.push(
        createEvent("retry", step, {
          attempt: n,
          delayMs,
          error: describeError(error).message,
          source: "request",
        }),
      );
    let response: ModelResponse | undefined;
    let delivered = false;
    const run = stream
      ? (async () => {
          const collector = new StreamCollector();
          for await (const part of model.stream(request, { signal, onRetry })) {
            delivered = true;
            collector.add(part);
            if (part.type === "text-delta")
              channel.push(createEvent("text_delta", step, { delta: part.delta }));
          }
          response = collector.response();
        })()
      : model.generate(request, { signal, onRetry }).then((r) => {
          response = r;
        });
    run.then(
      () => channel.close(),
      (error: unknown) => channel.fail(error),
    );
    try {
      for await (const event of channel) yield event;
      if (response === undefined) throw new Error("model call finished without a response");
      return response;
    } catch (error) {
      // Retried here: streams that broke off, and retryable errors reported inside a stream after it started
      // (before its first part, the provider has retried them already).
      const retryable =
        StreamInterruptedError.isInstance(error) ||
        (delivered && ModelCallError.isInstance(error) && error.isRetryable);
      if (!retryable || attempt > retry.maxRetries || signal.aborted) throw error;
      const delayMs = computeRetryDelay({ policy: retry, attempt });
      const message = describeError(error).message;
      yield createEvent("retry", step, { attempt, delayMs, error: message, source: "stream" });
      await sleep(delayMs, signal);
    }
  }
}
