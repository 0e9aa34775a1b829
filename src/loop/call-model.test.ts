import { describe, expect, it } from "vitest";
import { ModelCallError } from "../errors/model-call-error.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { emptyUsage } from "../models/usage.js";
import type { AgentEvent } from "./agent-event.js";
import { callModel } from "./call-model.js";

const response: ModelResponse = {
  text: "done",
  toolCalls: [],
  usage: emptyUsage(),
  finishReason: { unified: "stop", raw: "stop" },
};

const retry = { maxRetries: 2, baseDelayMs: 0, maxDelayMs: 0 };

/** A model whose `generate` is the given function (`stream` is not used). */
function generating(generate: (options: ModelCallOptions) => unknown): Model {
  return {
    provider: "test",
    modelId: "m",
    generate: (_request: ModelRequest, options?: ModelCallOptions) =>
      generate(options ?? {}) as Promise<ModelResponse>,
    stream: () => {
      throw new Error("not used");
    },
  };
}

function call(model: Model, stream = false) {
  const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
  return callModel({ model, request, stream, retry, signal: new AbortController().signal, turn: 3 });
}

/** Drains the generator: its events and its return value (or the error it threw). */
async function drain(events: AsyncGenerator<AgentEvent, ModelResponse>) {
  const seen: AgentEvent[] = [];
  try {
    while (true) {
      const next = await events.next();
      if (next.done) return { events: seen, response: next.value };
      seen.push(next.value);
    }
  } catch (error) {
    return { events: seen, error };
  }
}

describe("callModel (generate)", () => {
  it("yields a retry the model reports while its request is still in flight, before the response", async () => {
    let finish: ((value: ModelResponse) => void) | undefined;
    const model = generating((options) => {
      options.onRetry?.({ attempt: 1, delayMs: 5, error: new Error("busy") });
      return new Promise<ModelResponse>((resolve) => {
        finish = resolve;
      });
    });
    const events = call(model);
    const first = await events.next();
    expect(first.done).toBe(false);
    expect(first.value).toMatchObject({
      type: "retry",
      turn: 3,
      data: { attempt: 1, delayMs: 5, error: "busy", source: "request" },
    });
    // The model has not answered yet: the event came while the call was pending.
    expect(finish).toBeDefined();
    finish?.(response);
    expect(await events.next()).toEqual({ done: true, value: response });
  });

  it("asks the model not to retry on its own, and passes the run's signal", async () => {
    let seen: ModelCallOptions | undefined;
    const model = generating((options) => {
      seen = options;
      return Promise.resolve(response);
    });
    expect(await drain(call(model))).toEqual({ events: [], response });
    expect(seen?.maxRetries).toBe(0);
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
  });

  it("ignores retries reported after the call ended", async () => {
    let late: (() => void) | undefined;
    const model = generating((options) => {
      late = () => options.onRetry?.({ attempt: 9, delayMs: 0, error: new Error("late") });
      return Promise.resolve(response);
    });
    const events = call(model);
    expect(await drain(events)).toEqual({ events: [], response });
    late?.();
    expect(await events.next()).toEqual({ done: true, value: undefined });
  });

  it("turns a synchronous throw, a hostile thenable and a non-Error rejection into errors", async () => {
    const sync = await drain(
      call(
        generating(() => {
          throw new Error("sync");
        }),
      ),
    );
    expect((sync.error as Error).message).toBe("sync");
    const hostile = await drain(
      call(
        generating(() => ({
          // biome-ignore lint/suspicious/noThenProperty: a hostile thenable on purpose
          then() {
            throw new Error("then threw");
          },
        })),
      ),
    );
    expect((hostile.error as Error).message).toBe("then threw");
    const thrown = await drain(call(generating(() => Promise.reject("a string"))));
    expect(thrown.error).toBeInstanceOf(Error);
  });

  it("retries a retryable failure with a retry event, then returns the next attempt's response", async () => {
    let attempts = 0;
    const model = generating(() => {
      attempts++;
      if (attempts === 1) return Promise.reject(new ModelCallError({ message: "429", isRetryable: true }));
      return Promise.resolve(response);
    });
    const result = await drain(call(model));
    expect(result.response).toBe(response);
    expect(result.events.map((e) => [e.type, (e.data as { source?: string }).source])).toEqual([
      ["retry", "request"],
    ]);
    expect(attempts).toBe(2);
  });

  it("fails with an error when the model resolves without a response", async () => {
    const result = await drain(call(generating(() => Promise.resolve(undefined))));
    expect((result.error as Error).message).toBe("model call finished without a response");
  });
});

describe("callModel (stream)", () => {
  it("yields the parts' events as they are read, then the collected response", async () => {
    let release: (() => void) | undefined;
    const model: Model = {
      provider: "test",
      modelId: "m",
      generate: () => Promise.reject(new Error("not used")),
      async *stream(): AsyncIterable<ModelStreamPart> {
        yield { type: "text_delta", delta: "Hel" };
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        yield { type: "text_delta", delta: "lo" };
        yield { type: "finish", usage: emptyUsage(), finishReason: { unified: "stop", raw: "stop" } };
      },
    };
    const events = call(model, true);
    const first = await events.next();
    expect(first.value).toMatchObject({ type: "text_delta", turn: 3, data: { delta: "Hel" } });
    release?.();
    const rest = await drain(events);
    expect(rest.events.map((e) => (e.data as { delta: string }).delta)).toEqual(["lo"]);
    expect(rest.response?.text).toBe("Hello");
  });

  it("reports a failure after a part as a retry from the stream", async () => {
    let attempts = 0;
    const model: Model = {
      provider: "test",
      modelId: "m",
      generate: () => Promise.reject(new Error("not used")),
      async *stream(): AsyncIterable<ModelStreamPart> {
        attempts++;
        yield { type: "text_delta", delta: "x" };
        if (attempts === 1) throw new ModelCallError({ message: "reset", isRetryable: true });
        yield { type: "finish", usage: emptyUsage(), finishReason: { unified: "stop", raw: "stop" } };
      },
    };
    const result = await drain(call(model, true));
    expect(result.events.map((e) => e.type)).toEqual(["text_delta", "retry", "text_delta"]);
    expect(result.events[1]?.data).toMatchObject({ source: "stream", attempt: 1 });
    expect(result.response?.text).toBe("x");
  });
});
