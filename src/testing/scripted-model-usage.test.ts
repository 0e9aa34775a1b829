import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { createEstimatingCounter } from "../context/create-estimating-counter.js";
import { loadTokenCounter } from "../context/load-token-counter.js";
import { countMessages, createTokenCounter } from "../context/token-counter.js";
import { collectStream } from "../models/collect-stream.js";
import type { ModelRequest } from "../models/model.js";
import { tool } from "../tools/tool.js";
import { ScriptedModel } from "./scripted-model.js";

const counter = createEstimatingCounter();
const weather = tool({
  name: "get_weather",
  description: "Weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: () => "sunny",
});

function request(history: string[]): ModelRequest {
  return {
    messages: history.map((content, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content })),
    tools: [weather.spec],
  };
}

describe("ScriptedModel reports the usage production would see", () => {
  it("input tokens are the request's estimate (messages and tools), output tokens the answer's", async () => {
    const model = new ScriptedModel([
      { text: "It is sunny in Paris today." },
      { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] },
    ]);
    const small = request(["Weather?"]);
    const first = await model.generate(small);
    const expectedInput =
      countMessages({ counter, messages: small.messages }) + counter.countTools([weather.spec]);
    expect(first.usage).toEqual({
      inputTokens: expectedInput,
      outputTokens: counter.countText("It is sunny in Paris today."),
      totalTokens: expectedInput + counter.countText("It is sunny in Paris today."),
    });
    const long = request(["Weather?", "Which city?", "Paris, and please be thorough ".repeat(40)]);
    const second = await model.generate(long);
    expect(second.usage.inputTokens).toBe(
      countMessages({ counter, messages: long.messages }) + counter.countTools([weather.spec]),
    );
    expect(second.usage.inputTokens).toBeGreaterThan(first.usage.inputTokens + 100);
    expect(second.usage.outputTokens).toBe(
      3 + counter.countText("get_weather") + counter.countText('{"city":"Paris"}'),
    );
  });

  it("streams the same usage as generate", async () => {
    const steps = [{ text: "Hello there, traveller." }];
    const generated = await new ScriptedModel(steps).generate(request(["Hi"]));
    const streamed = await collectStream(new ScriptedModel(steps).stream(request(["Hi"])));
    expect(streamed.usage).toEqual(generated.usage);
  });

  it("keeps explicit per-step usage fields, estimating only the others", async () => {
    const model = new ScriptedModel([
      { text: "Hi", usage: { inputTokens: 1234 } },
      { text: "Hi", usage: { outputTokens: 7, totalTokens: 1, cachedInputTokens: 2, reasoningTokens: 3 } },
    ]);
    const first = await model.generate(request(["Hello"]));
    expect(first.usage).toEqual({
      inputTokens: 1234,
      outputTokens: counter.countText("Hi"),
      totalTokens: 1234 + 1,
    });
    const second = await model.generate(request(["Hello"]));
    expect(second.usage).toMatchObject({
      outputTokens: 7,
      totalTokens: 1,
      cachedInputTokens: 2,
      reasoningTokens: 3,
    });
  });

  it("counts with the counter the context layer picks for the model id, or the one given", async () => {
    const messages = request(["Tokenizers differ: 東京 ① ∑ 🙂 and mixedCaseIdentifiers"]);
    const exact = await loadTokenCounter({ modelId: "gpt-4o-mini" });
    const openai = await new ScriptedModel([{ text: "" }], { modelId: "gpt-4o-mini" }).generate(messages);
    expect(openai.usage.inputTokens).toBe(
      countMessages({ counter: exact, messages: messages.messages }) + exact.countTools([weather.spec]),
    );
    const byChar = createTokenCounter({ encoding: "chars", exact: false, countText: (text) => text.length });
    const custom = await new ScriptedModel([{ text: "abcd" }], { counter: byChar }).generate(messages);
    expect(custom.usage.outputTokens).toBe(4);
    expect(custom.usage.inputTokens).toBe(
      countMessages({ counter: byChar, messages: messages.messages }) + byChar.countTools([weather.spec]),
    );
  });

  it("lets compaction keep every request within the context window, as against a real provider", async () => {
    const report = "Station report: ".concat("wind north-west, light rain, humidity high; ".repeat(12));
    const noisy = tool({
      name: "get_weather",
      description: "Weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: () => report,
    });
    const model = new ScriptedModel((_request, index) =>
      index < 12
        ? { toolCalls: [{ name: "get_weather", arguments: { city: `City ${index}` } }] }
        : { text: "Done." },
    );
    const maxContextTokens = 1_000;
    const agent = new Agent({
      model,
      tools: [noisy],
      limits: { maxTurns: 20 },
      context: { maxContextTokens, keepLastMessages: 2 },
    });
    const result = await agent.run("Collect the weather of twelve cities.");
    expect(result.stopReason).toBe("completed");
    expect(result.events.some((event) => event.type === "compaction")).toBe(true);
    for (const call of model.calls) {
      const size =
        countMessages({ counter, messages: call.request.messages }) +
        counter.countTools(call.request.tools ?? []);
      expect(size).toBeLessThanOrEqual(maxContextTokens);
    }
  });
});
