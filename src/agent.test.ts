import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "./agent.js";
import { InvalidArgumentError } from "./errors/invalid-argument-error.js";
import type { AgentEvent } from "./loop/agent-event.js";
import { ScriptedModel } from "./testing/scripted-model.js";
import { tool } from "./tools/tool.js";

const weather = tool({
  name: "get_weather",
  description: "Weather for a city",
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: city === "Paris" ? 18 : 11 }),
});

describe("Agent: a tool round trip", () => {
  it("sends the exact message protocol and returns the final answer", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Paris" } }],
        usage: { inputTokens: 10, outputTokens: 8, totalTokens: 18 },
      },
      { text: "It is 18°C in Paris.", usage: { inputTokens: 20, outputTokens: 4, totalTokens: 24 } },
    ]);
    const agent = new Agent({ model, tools: [weather], system: "Be brief." });
    const result = await agent.run("Weather in Paris?");

    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("It is 18°C in Paris.");
    expect(result.turns).toBe(2);
    expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
    expect(model.calls).toHaveLength(2);
    const second = model.calls[1]?.request;
    expect(second?.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second?.messages[2]).toMatchObject({
      role: "assistant",
      toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Paris" } }],
    });
    expect(second?.messages[3]).toEqual({
      role: "tool",
      toolCallId: "c1",
      toolName: "get_weather",
      content: '{"city":"Paris","tempC":18}',
    });
    expect(second?.tools?.map((t) => t.name)).toEqual(["get_weather"]);
    expect(result.toolCalls).toEqual([
      expect.objectContaining({
        turn: 1,
        id: "c1",
        name: "get_weather",
        ok: true,
        result: '{"city":"Paris","tempC":18}',
      }),
    ]);
    expect(result.messages).toHaveLength(5);
  });

  it("emits the documented events in order, with loop_end last", async () => {
    // A priced model: an unpriced one adds a non-fatal UnpricedModel warning after its first model_call.
    const model = new ScriptedModel(
      [
        {
          text: "Let me check.",
          toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Oslo" } }],
        },
        { text: "Cold." },
      ],
      { modelId: "gpt-4o-mini" },
    );
    const result = await new Agent({ model, tools: [weather] }).run("Oslo?");
    expect(result.events.map((e) => e.type)).toEqual([
      "loop_start",
      "turn_start",
      "model_call",
      "thought",
      "action",
      "observation",
      "turn_start",
      "model_call",
      "loop_end",
    ]);
    expect(result.events.at(-1)?.data).toEqual({ stopReason: "completed", text: "Cold." });
    for (const event of result.events) expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    const action = result.events.find((e) => e.type === "action");
    expect(action?.data).toEqual({ toolCallId: "c1", toolName: "get_weather", arguments: { city: "Oslo" } });
  });

  it("continues a conversation from a previous result without duplicating the system prompt", async () => {
    const model = new ScriptedModel([{ text: "Sunny today." }, { text: "Rain tomorrow." }]);
    const agent = new Agent({ model, system: "You are a forecaster." });
    const first = await agent.run("And today?");
    const second = await agent.run("and tomorrow?", { messages: first.messages });
    expect(second.text).toBe("Rain tomorrow.");
    const sent = model.calls[1]?.request.messages ?? [];
    expect(sent.map((m) => `${m.role}:${m.content}`)).toEqual([
      "system:You are a forecaster.",
      "user:And today?",
      "assistant:Sunny today.",
      "user:and tomorrow?",
    ]);
    expect(first.messages).toHaveLength(3);
  });
});

describe("Agent: options are validated at construction", () => {
  it.each([
    [{ limits: { maxTurns: -1 } }, "limits.maxTurns"],
    [{ limits: { timeoutMs: 0 } }, "limits.timeoutMs"],
    [{ retry: { maxRetries: -2 } }, "retry.maxRetries"],
    [{ toolTimeoutMs: -5 }, "toolTimeoutMs"],
    [{ loopDetection: { threshold: 1 } }, "loopDetection.threshold"],
  ])("rejects %j", (options, argument) => {
    const build = () => new Agent({ model: new ScriptedModel([]), ...options });
    expect(build).toThrow(InvalidArgumentError);
    expect(build).toThrow(argument);
  });

  it("rejects an unknown model string with the known providers", () => {
    expect(() => new Agent({ model: "nope:model" })).toThrow(/unknown model string "nope:model".*openai/);
  });

  it("rejects an empty task", async () => {
    const agent = new Agent({ model: new ScriptedModel([]) });
    await expect(agent.run("  ")).rejects.toThrow(InvalidArgumentError);
  });
});

describe("Agent: hooks cannot break a run", () => {
  it("reports a throwing or rejecting hook as a non-fatal error event", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Rome" } }] },
      { text: "Warm." },
    ]);
    const seen: string[] = [];
    const agent = new Agent({
      model,
      tools: [weather],
      onEvent: (event) => {
        seen.push(event.type);
        if (event.type === "model_call") throw new Error("renderer exploded");
      },
      onToolStart: async () => {
        throw new Error("async hook failed");
      },
    });
    const result = await agent.run("Rome?");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("Warm.");
    const errors = result.events.filter(
      (e): e is Extract<AgentEvent, { type: "error" }> => e.type === "error",
    );
    expect(errors.map((e) => e.data.message)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("renderer exploded"),
        expect.stringContaining("async hook failed"),
      ]),
    );
    expect(errors.every((e) => !e.data.fatal)).toBe(true);
    expect(result.events.at(-1)?.type).toBe("loop_end");
    expect(seen.at(-1)).toBe("loop_end");
  });
});

describe("Agent: Infinity means no limit", () => {
  it("accepts Infinity for the run timeout and tool timeout, and the run is not cut short", async () => {
    const model = new ScriptedModel([{ text: "fine", delayMs: 20 }]);
    const agent = new Agent({
      model,
      limits: { timeoutMs: Number.POSITIVE_INFINITY },
      toolTimeoutMs: Number.POSITIVE_INFINITY,
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("completed");
    expect(() => new Agent({ model, maxOutputTokens: Number.POSITIVE_INFINITY })).toThrow(
      InvalidArgumentError,
    );
  });
});
