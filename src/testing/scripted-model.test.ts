import { describe, expect, it } from "vitest";
import { createEstimatingCounter } from "../context/create-estimating-counter.js";
import { countMessages } from "../context/token-counter.js";
import { AbortError } from "../errors/abort-error.js";
import { AgentloopError } from "../errors/agentloop-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { UnexpectedModelCallError } from "../errors/unexpected-model-call-error.js";
import { collectStream, StreamCollector } from "../models/collect-stream.js";
import type { Message } from "../models/message.js";
import type { ModelRequest } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { ScriptedModel } from "./scripted-model.js";
import type { ScriptedStep } from "./scripted-step.js";

const counter = createEstimatingCounter();
const ask = (content: string): ModelRequest => ({ messages: [{ role: "user", content }] });

async function drain(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

describe("ScriptedModel: generate", () => {
  it("plays the steps in order with deterministic defaults", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "get_weather", arguments: { city: "Paris" } },
          { id: "mine", name: "noop", arguments: {} },
        ],
      },
      { text: "Sunny.", usage: { inputTokens: 100 } },
    ]);
    expect(model.provider).toBe("scripted");
    expect(model.modelId).toBe("scripted");
    const first = await model.generate(ask("weather?"));
    // Usage as production measures it (the estimating counter, as the context layer uses for "scripted").
    const firstInput = countMessages({ counter, messages: ask("weather?").messages });
    const call = (name: string, raw: string) => 3 + counter.countText(name) + counter.countText(raw);
    const firstOutput = call("get_weather", '{"city":"Paris"}') + call("noop", "{}");
    expect(first).toEqual({
      text: "",
      toolCalls: [
        {
          id: "call_0_0",
          name: "get_weather",
          arguments: { city: "Paris" },
          rawArguments: '{"city":"Paris"}',
        },
        { id: "mine", name: "noop", arguments: {}, rawArguments: "{}" },
      ],
      usage: { inputTokens: firstInput, outputTokens: firstOutput, totalTokens: firstInput + firstOutput },
      finishReason: { unified: "tool_calls", raw: "tool_calls" },
    });
    const second = await model.generate(ask("and?"));
    expect(second.text).toBe("Sunny.");
    expect(second.toolCalls).toEqual([]);
    const sunny = counter.countText("Sunny.");
    expect(second.usage).toEqual({ inputTokens: 100, outputTokens: sunny, totalTokens: 100 + sunny });
    expect(second.finishReason.unified).toBe("stop");
    expect(model.remaining).toBe(0);
  });

  it("uses string arguments raw, so invalid JSON gives a tool call with parseError", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "broken", arguments: '{"city": "Par' },
          { name: "spaced", arguments: '{ "a" : 1 }' },
          { name: "none", arguments: undefined },
        ],
        finishReason: "length",
        refusal: "no",
      },
    ]);
    const response = await model.generate(ask("x"));
    const [broken, spaced, none] = response.toolCalls;
    expect(broken?.rawArguments).toBe('{"city": "Par');
    expect(broken?.arguments).toBeUndefined();
    expect(broken?.parseError).toEqual(expect.any(String));
    expect(spaced).toEqual({
      id: "call_0_1",
      name: "spaced",
      arguments: { a: 1 },
      rawArguments: '{ "a" : 1 }',
    });
    expect(none).toEqual({ id: "call_0_2", name: "none", arguments: {}, rawArguments: "" });
    expect(response.finishReason).toEqual({ unified: "length", raw: "length" });
    expect(response.refusal).toBe("no");
  });

  it("records every call with a snapshot of the messages", async () => {
    const model = new ScriptedModel([{ text: "a" }, { text: "b" }]);
    const messages: Message[] = [{ role: "user", content: "hi" }];
    await model.generate({ messages, temperature: 0 });
    messages.push({ role: "assistant", content: "a" }, { role: "user", content: "more" });
    await drain(model.stream({ messages }));
    messages.length = 0;
    expect(model.calls.map((call) => call.mode)).toEqual(["generate", "stream"]);
    expect(model.calls[0]?.request).toEqual({ messages: [{ role: "user", content: "hi" }], temperature: 0 });
    expect(model.calls[1]?.request.messages).toHaveLength(3);
  });

  it("fails loudly on a call beyond the script, saying what was asked", async () => {
    const model = new ScriptedModel([{ text: "only one" }, { text: "two" }]);
    await model.generate(ask("first"));
    await model.generate(ask("second"));
    const error = await model.generate(ask("please answer a third time")).catch((e: unknown) => e);
    expect(UnexpectedModelCallError.isInstance(error)).toBe(true);
    expect(AgentloopError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(UnexpectedModelCallError);
    const unexpected = error as UnexpectedModelCallError;
    expect(unexpected.message).toMatch(/call #3/);
    expect(unexpected.message).toMatch(/only 2 steps were scripted/);
    expect(unexpected.message).toMatch(/user: "please answer a third time"/);
    expect(unexpected.callIndex).toBe(2);
    expect(model.calls).toHaveLength(3);
    await expect(drain(new ScriptedModel([]).stream(ask("x")))).rejects.toThrow(/only 0 steps were scripted/);
    expect(UnexpectedModelCallError.isInstance(new Error("x"))).toBe(false);
  });

  it("builds each step from a function of the request and the call index", async () => {
    const seen: number[] = [];
    const model = new ScriptedModel(async (request, callIndex) => {
      seen.push(callIndex);
      return { text: `${callIndex}:${request.messages.at(-1)?.content}` };
    });
    expect((await model.generate(ask("a"))).text).toBe("0:a");
    expect((await collectStream(model.stream(ask("b")))).text).toBe("1:b");
    expect(seen).toEqual([0, 1]);
    expect(model.remaining).toBe(Number.POSITIVE_INFINITY);
  });

  it("rejects with the step's error, and reset() replays from the start", async () => {
    const boom = new Error("boom");
    const model = new ScriptedModel([{ error: boom }, { text: "after" }]);
    await expect(model.generate(ask("x"))).rejects.toBe(boom);
    expect(model.remaining).toBe(1);
    model.reset();
    expect(model.calls).toEqual([]);
    expect(model.remaining).toBe(2);
    await expect(model.generate(ask("x"))).rejects.toBe(boom);
  });

  it("validates its options", () => {
    expect(() => new ScriptedModel([], { chunkSize: 0 })).toThrow(InvalidArgumentError);
    expect(() => new ScriptedModel([], { argumentsChunkSize: 1.5 })).toThrow(/argumentsChunkSize/);
    expect(() => new ScriptedModel([], { streamDelayMs: -1 })).toThrow(/streamDelayMs/);
    expect(new ScriptedModel([], { modelId: "gpt-test" }).modelId).toBe("gpt-test");
  });
});

describe("ScriptedModel: stream", () => {
  const rich: ScriptedStep = {
    text: "Let me check both.",
    refusal: "Partly refused.",
    toolCalls: [
      { name: "get_weather", arguments: { city: "Edinburgh", country: "GB" } },
      { name: "bad", arguments: "{oops" },
    ],
    usage: { inputTokens: 7, outputTokens: 3, cachedInputTokens: 2 },
  };

  it("yields text, refusal and tool-call parts in a provider's order, ending with finish", async () => {
    const parts = await drain(new ScriptedModel([rich]).stream(ask("x")));
    const types = parts.map((part) => part.type);
    expect(types.slice(0, 4)).toEqual(["text_delta", "text_delta", "text_delta", "text_delta"]);
    expect(parts.slice(0, 4).map((part) => (part as { delta: string }).delta)).toEqual([
      "Let",
      " me",
      " check",
      " both.",
    ]);
    expect(types.filter((type) => type === "refusal_delta")).toHaveLength(2);
    const firstStart = types.indexOf("tool_call_start");
    expect(firstStart).toBe(6);
    expect(parts[firstStart]).toEqual({ type: "tool_call_start", id: "call_0_0", name: "get_weather" });
    const firstEnd = types.indexOf("tool_call_end");
    const deltas = parts.slice(firstStart + 1, firstEnd);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((part) => part.type === "tool_call_delta" && part.id === "call_0_0")).toBe(true);
    expect(deltas.map((part) => (part as { delta: string }).delta).join("")).toBe(
      '{"city":"Edinburgh","country":"GB"}',
    );
    expect(types.at(-1)).toBe("finish");
    expect(types.filter((type) => type === "finish")).toHaveLength(1);
    expect(types.lastIndexOf("tool_call_end")).toBe(parts.length - 2);
  });

  it("folds (StreamCollector) into exactly the response generate gives", async () => {
    const steps: ScriptedStep[] = [
      rich,
      { text: "plain" },
      { toolCalls: [{ name: "x", arguments: "" }] },
      {},
    ];
    const generated = new ScriptedModel(steps);
    const streamed = new ScriptedModel(steps, { chunkSize: 3, argumentsChunkSize: 2 });
    for (let i = 0; i < steps.length; i++) {
      const collector = new StreamCollector();
      for await (const part of streamed.stream(ask("x"))) collector.add(part);
      expect(collector.finished).toBe(true);
      expect(collector.response()).toEqual(await generated.generate(ask("x")));
    }
  });

  it("cuts text into chunkSize characters, or words by default, and arguments into argumentsChunkSize", async () => {
    const deltasOf = async (model: ScriptedModel) =>
      (await drain(model.stream(ask("x"))))
        .filter((part) => part.type === "text_delta" || part.type === "tool_call_delta")
        .map((part) => (part as { delta: string }).delta);
    const step: ScriptedStep = { text: "abcdefgh ij ", toolCalls: [{ name: "t", arguments: "0123456789" }] };
    expect(await deltasOf(new ScriptedModel([step], { chunkSize: 3, argumentsChunkSize: 4 }))).toEqual([
      "abc",
      "def",
      "gh ",
      "ij ",
      "0123",
      "4567",
      "89",
    ]);
    expect(await deltasOf(new ScriptedModel([step]))).toEqual(["abcdefgh", " ij ", "01234567", "89"]);
  });

  it("raises the step's error after errorAfterParts parts, by throwing or as an error part", async () => {
    const boom = new Error("connection reset");
    const step: ScriptedStep = { text: "one two three four", error: boom, errorAfterParts: 2 };
    const seen: ModelStreamPart[] = [];
    const failure = await (async () => {
      for await (const part of new ScriptedModel([step]).stream(ask("x"))) seen.push(part);
    })().catch((e: unknown) => e);
    expect(failure).toBe(boom);
    expect(seen).toEqual([
      { type: "text_delta", delta: "one" },
      { type: "text_delta", delta: " two" },
    ]);

    await expect(drain(new ScriptedModel([{ error: boom }]).stream(ask("x")))).rejects.toBe(boom);
    const asPart = await drain(
      new ScriptedModel([{ ...step, errorAfterParts: 99, errorAs: "part" }]).stream(ask("x")),
    );
    expect(asPart.map((part) => part.type)).toEqual([...Array(4).fill("text_delta"), "error"]);
    expect(asPart.at(-1)).toEqual({ type: "error", error: boom });
  });

  it("paces parts with streamDelayMs", async () => {
    const model = new ScriptedModel([{ text: "a b c d" }], { streamDelayMs: 15 });
    const started = performance.now();
    const parts = await drain(model.stream(ask("x")));
    expect(parts).toHaveLength(5);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});

describe("ScriptedModel: abort", () => {
  it("aborts a delayed generate at once with AbortError", async () => {
    const model = new ScriptedModel([{ text: "late", delayMs: 10_000 }]);
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error("user cancelled")), 20);
    const error = await model.generate(ask("x"), { signal: controller.signal }).catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
    expect((error as AbortError).cause).toEqual(new Error("user cancelled"));
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("rejects at once when the signal is already aborted", async () => {
    const model = new ScriptedModel([{ text: "x" }, { text: "y" }]);
    const signal = AbortSignal.abort();
    await expect(model.generate(ask("x"), { signal })).rejects.toSatisfy(AbortError.isInstance);
    await expect(drain(model.stream(ask("x"), { signal }))).rejects.toSatisfy(AbortError.isInstance);
  });

  it("aborts a stream during its initial delay or between parts", async () => {
    const delayed = new ScriptedModel([{ text: "late", delayMs: 10_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(drain(delayed.stream(ask("x"), { signal: controller.signal }))).rejects.toSatisfy(
      AbortError.isInstance,
    );

    const slow = new ScriptedModel([{ text: "a b c d e f" }], { streamDelayMs: 10_000 });
    const second = new AbortController();
    const seen: ModelStreamPart[] = [];
    const started = performance.now();
    const failure = await (async () => {
      for await (const part of slow.stream(ask("x"), { signal: second.signal })) {
        seen.push(part);
        setTimeout(() => second.abort(), 20);
      }
    })().catch((e: unknown) => e);
    expect(AbortError.isInstance(failure)).toBe(true);
    expect(seen).toEqual([{ type: "text_delta", delta: "a" }]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
