import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import { createToolCall } from "../models/message.js";
import type { Model, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { emptyUsage } from "../models/usage.js";
import { tool } from "../tools/tool.js";
import type { AgentEvent } from "./agent-event.js";

const finish = (unified: "stop" | "tool_calls"): ModelStreamPart => ({
  type: "finish",
  usage: { ...emptyUsage(), inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  finishReason: { unified, raw: unified },
});

const lookupCall: ModelStreamPart[] = [
  { type: "reasoning_delta", delta: "I should " },
  { type: "reasoning_delta", delta: "look it up." },
  { type: "tool_call_start", id: "c1", name: "lookup" },
  { type: "tool_call_delta", id: "c1", delta: '{"word":' },
  { type: "tool_call_delta", id: "c1", delta: '"loop"}' },
  {
    type: "tool_call_end",
    toolCall: createToolCall({ id: "c1", name: "lookup", rawArguments: '{"word":"loop"}' }),
  },
  finish("tool_calls"),
];
const answer: ModelStreamPart[] = [{ type: "text_delta", delta: "A loop repeats." }, finish("stop")];

/** A model streaming the given parts per call; an entry that is an Error is thrown after the parts before it. */
function partsModel(calls: Array<Array<ModelStreamPart | Error>>): Model & { requests: number } {
  const model = {
    provider: "test",
    modelId: "parts",
    requests: 0,
    async generate(): Promise<ModelResponse> {
      throw new Error("not used");
    },
    async *stream(_request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const parts = calls[model.requests++] ?? [];
      for (const part of parts) {
        if (part instanceof Error) throw part;
        yield part;
      }
    },
  };
  return model;
}

const lookup = tool({
  name: "lookup",
  description: "Look a word up",
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `definition of ${word}`,
});

async function eventsOf(model: Model): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  const stream = new Agent({ model, tools: [lookup], retry: { baseDelayMs: 1 } }).stream("What is a loop?");
  for await (const event of stream) events.push(event);
  return events;
}

const streamed = (events: AgentEvent[]) =>
  events
    .filter((e) => e.type === "reasoning_delta" || e.type === "tool_call_delta" || e.type === "text_delta")
    .map((e) => ({ type: e.type, turn: e.turn, data: e.data }));

describe("callModel: streamed reasoning and tool-call fragments become events", () => {
  it('reasoning_delta per reasoning part; tool_call_delta for the start (delta "") and each fragment', async () => {
    const events = await eventsOf(partsModel([lookupCall, answer]));
    expect(streamed(events)).toEqual([
      { type: "reasoning_delta", turn: 1, data: { delta: "I should " } },
      { type: "reasoning_delta", turn: 1, data: { delta: "look it up." } },
      { type: "tool_call_delta", turn: 1, data: { toolCallId: "c1", toolName: "lookup", delta: "" } },
      { type: "tool_call_delta", turn: 1, data: { toolCallId: "c1", toolName: "lookup", delta: '{"word":' } },
      { type: "tool_call_delta", turn: 1, data: { toolCallId: "c1", toolName: "lookup", delta: '"loop"}' } },
      { type: "text_delta", turn: 2, data: { delta: "A loop repeats." } },
    ]);
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf("tool_call_delta")).toBeLessThan(types.indexOf("action"));
  });

  it('a stream that breaks off after reasoning is retried with source "stream" (its fragments are void)', async () => {
    const broken = [
      lookupCall[0],
      lookupCall[2],
      lookupCall[3],
      new StreamInterruptedError({ message: "reset" }),
    ];
    const model = partsModel([broken as Array<ModelStreamPart | Error>, lookupCall, answer]);
    const events = await eventsOf(model);
    const types = events.map((e) => e.type);
    const retryAt = types.indexOf("retry");
    expect(events[retryAt]?.data).toMatchObject({ source: "stream", attempt: 1 });
    // The void attempt's fragments came before the retry, the good attempt's after it.
    expect(streamed(events.slice(0, retryAt)).map((e) => e.type)).toEqual([
      "reasoning_delta",
      "tool_call_delta",
      "tool_call_delta",
    ]);
    const after = streamed(events.slice(retryAt));
    expect(after.filter((e) => e.type === "reasoning_delta")).toHaveLength(2);
    expect(model.requests).toBe(3);
  });

  it("agent.run (not streamed) emits none of them", async () => {
    const model = partsModel([]);
    model.generate = async () => ({
      text: "A loop repeats.",
      toolCalls: [],
      usage: emptyUsage(),
      finishReason: { unified: "stop", raw: "stop" },
      reasoning: "thought",
    });
    const result = await new Agent({ model }).run("What is a loop?");
    expect(result.events.some((e) => e.type === "reasoning_delta" || e.type === "tool_call_delta")).toBe(
      false,
    );
  });
});
