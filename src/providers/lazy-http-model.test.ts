import { describe, expect, it, vi } from "vitest";
import { ModelCallError } from "../errors/model-call-error.js";
import { createFetchHttpClient } from "../http/http-client.js";
import { HttpModel } from "../http/http-model.js";
import { DEFAULT_RETRY_POLICY } from "../http/retry-policy.js";
import type { SendModelRequestOptions } from "../http/send-model-request.js";
import type { ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { LazyHttpModel } from "./lazy-http-model.js";
import { LazyImplementation } from "./lazy-implementation.js";

/** What the test model loads lazily: its response parser and stream reader. */
interface TestCodec {
  parse(text: string): ModelResponse;
  read(body: AsyncIterable<string>): AsyncIterable<ModelStreamPart>;
}

const codec: TestCodec = {
  parse: (text) => ({
    text,
    toolCalls: [],
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    finishReason: { unified: "stop", raw: "stop" },
  }),
  async *read(body) {
    for await (const chunk of body) yield { type: "text_delta", delta: chunk };
  },
};

const client = createFetchHttpClient(async () => new Response("hello"));

class TestModel extends LazyHttpModel<TestCodec> {
  readonly provider = "test";
  readonly modelId = "lazy";

  protected requestOptions({ stream }: { stream: boolean }): SendModelRequestOptions {
    return {
      client,
      url: `http://127.0.0.1:9/${stream ? "stream" : "generate"}`,
      headers: {},
      body: "{}",
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 },
      timeoutMs: 5_000,
      parseErrorBody: () => ({}),
    };
  }

  protected parseResponse(text: string): ModelResponse {
    return this.implementation.value.parse(text);
  }

  protected readStream(body: AsyncIterable<string>): AsyncIterable<ModelStreamPart> {
    return this.implementation.value.read(body);
  }
}

const request = { messages: [{ role: "user" as const, content: "hi" }] };

async function collect(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe("LazyHttpModel", () => {
  it("starts loading its implementation when made, once for concurrent calls, and not again", async () => {
    const load = vi.fn(async () => codec);
    const model = new TestModel(new LazyImplementation({ what: "the test provider", load }));
    expect(load).toHaveBeenCalledTimes(1); // in the background, from the constructor
    const [first, second, streamed] = await Promise.all([
      model.generate(request),
      model.generate(request),
      collect(model.stream(request)),
    ]);
    expect(first.text).toBe("hello");
    expect(second.text).toBe("hello");
    expect(streamed).toEqual([{ type: "text_delta", delta: "hello" }]);
    expect(load).toHaveBeenCalledTimes(1);
    await model.generate(request);
    await collect(model.stream(request));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("after the load, calls go straight to HttpModel's generate and stream (no promise added)", async () => {
    const implementation = new LazyImplementation({ what: "the test provider", load: async () => codec });
    const model = new TestModel(implementation);
    await model.generate(request);
    const load = vi.spyOn(implementation, "load");
    const stream = model.stream(request);
    // HttpModel's own async generator, not the wrapper that awaits the load first.
    expect(Reflect.getPrototypeOf(stream)).toBe(Reflect.get(HttpModel.prototype.stream, "prototype"));
    await collect(stream);
    await model.generate(request);
    expect(load).not.toHaveBeenCalled();
  });

  it("turns a failed load into a non-retryable ModelCallError from generate and stream, and tries again later", async () => {
    const load = vi
      .fn<() => Promise<TestCodec>>()
      .mockRejectedValueOnce(new Error("Cannot find module 'chunks/test-codec.js'"))
      .mockRejectedValueOnce(new Error("still missing"))
      .mockResolvedValue(codec);
    const model = new TestModel(new LazyImplementation({ what: "the test provider", load }));
    expect(load).toHaveBeenCalledTimes(1); // the background load, whose failure is kept for the first call
    const stream = model.stream(request); // Nothing more is loaded before the iteration starts.
    expect(load).toHaveBeenCalledTimes(1);
    const failure = await model.generate(request).catch((error: unknown) => error);
    expect(ModelCallError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: "provider_load_failed",
      isRetryable: false,
      message: "Could not load the test provider: Cannot find module 'chunks/test-codec.js'",
    });
    await expect(collect(stream)).rejects.toMatchObject({
      code: "provider_load_failed",
      message: "Could not load the test provider: still missing",
    });
    expect((await model.generate(request)).text).toBe("hello");
    expect(load).toHaveBeenCalledTimes(3);
  });
});

describe("LazyImplementation", () => {
  it("has no value before its load and says which implementation was used too early", () => {
    const implementation = new LazyImplementation({ what: "the test provider", load: async () => codec });
    expect(implementation.current).toBeUndefined();
    expect(() => implementation.value).toThrow("the test provider is used before it was loaded");
  });
});
