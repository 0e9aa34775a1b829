import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { AgentEvent } from "./agent-event.js";

describe("agent loop: streaming", () => {
  it("delivers text deltas before the model stream has ended", async () => {
    const model = new ScriptedModel([{ text: "one two three four five six" }], {
      chunkSize: "word",
      streamDelayMs: 25,
    });
    const stream = new Agent({ model }).stream("count");
    const arrivals: Array<{ type: string; at: number }> = [];
    for await (const event of stream) arrivals.push({ type: event.type, at: performance.now() });
    const firstDelta = arrivals.find((a) => a.type === "text_delta");
    const modelDone = arrivals.find((a) => a.type === "model_call");
    expect(firstDelta).toBeDefined();
    expect(modelDone).toBeDefined();
    expect((modelDone?.at ?? 0) - (firstDelta?.at ?? 0)).toBeGreaterThanOrEqual(75);
    const result = await stream.result;
    expect(result.text).toBe("one two three four five six");
    const deltas = result.events
      .filter((e) => e.type === "text_delta")
      .map((e) => (e.data as { delta: string }).delta);
    expect(deltas.join("")).toBe("one two three four five six");
    expect(deltas.length).toBeGreaterThan(3);
  });

  it("retries a stream that broke off, telling consumers to discard the partial text", async () => {
    const model = new ScriptedModel(
      [
        {
          text: "partial answer that will break",
          error: new StreamInterruptedError({ message: "socket hang up" }),
          errorAfterParts: 2,
        },
        { text: "full answer" },
      ],
      { chunkSize: "word" },
    );
    const events: AgentEvent[] = [];
    const stream = new Agent({ model, retry: { baseDelayMs: 1 } }).stream("go");
    for await (const event of stream) events.push(event);
    const types = events.map((e) => e.type);
    const retryAt = types.indexOf("retry");
    expect(retryAt).toBeGreaterThan(types.indexOf("text_delta"));
    expect(events[retryAt]?.data).toMatchObject({
      source: "stream",
      attempt: 1,
      error: expect.stringMatching(/socket hang up/),
    });
    const result = await stream.result;
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("full answer");
    expect(model.calls).toHaveLength(2);
  });

  it("gives up with error after the retry budget", async () => {
    const broken = () => ({
      text: "a b c",
      error: new StreamInterruptedError({ message: "dropped" }),
      errorAfterParts: 1,
    });
    const model = new ScriptedModel([broken(), broken(), broken()], { chunkSize: "word" });
    const result = await new Agent({ model, retry: { maxRetries: 2, baseDelayMs: 1 } }).stream("go").result;
    expect(result.stopReason).toBe("error");
    expect(result.events.filter((e) => e.type === "retry")).toHaveLength(2);
    expect(result.events.at(-1)?.type).toBe("loop_end");
  });

  it("aborts the run when the consumer stops reading", async () => {
    const model = new ScriptedModel([{ text: "a b c d e f g h" }], { chunkSize: "word", streamDelayMs: 20 });
    const stream = new Agent({ model }).stream("go");
    for await (const event of stream) if (event.type === "text_delta") break;
    const result = await stream.result;
    expect(result.stopReason).toBe("aborted");
    expect(result.events.at(-1)?.type).toBe("loop_end");
  });

  it("resolves result without iteration", async () => {
    const result = await new Agent({ model: new ScriptedModel([{ text: "hi" }]) }).stream("go").result;
    expect(result.text).toBe("hi");
  });
});

describe("agent loop: retryable errors inside a stream", () => {
  it("retries a retryable provider error that arrives after the stream started", async () => {
    const { ModelCallError } = await import("../errors/model-call-error.js");
    const model = new ScriptedModel(
      [
        {
          text: "part one two",
          error: new ModelCallError({ message: "server_error", isRetryable: true }),
          errorAfterParts: 1,
        },
        { text: "recovered" },
      ],
      { chunkSize: "word" },
    );
    const result = await new Agent({ model, retry: { baseDelayMs: 1 } }).stream("go").result;
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("recovered");
    expect(result.events.filter((e) => e.type === "retry")).toHaveLength(1);
  });

  it("retries a retryable error raised before the first part itself (source request, the model does not retry)", async () => {
    const { ModelCallError } = await import("../errors/model-call-error.js");
    const model = new ScriptedModel([
      { error: new ModelCallError({ message: "429 rate limited", status: 429, isRetryable: true }) },
      { text: "ok" },
    ]);
    const result = await new Agent({ model, retry: { baseDelayMs: 1 } }).stream("go").result;
    expect(result.stopReason).toBe("completed");
    expect(model.calls).toHaveLength(2);
    const retries = result.events.filter((e) => e.type === "retry");
    expect(retries.map((e) => e.data.source)).toEqual(["request"]);
  });
});
