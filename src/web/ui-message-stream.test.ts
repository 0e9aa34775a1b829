import type { UIMessageChunk as AIUIMessageChunk, UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import type { AgentEvent } from "../loop/agent-event.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { finishPart, partsModel } from "./test-utils/parts-model.js";
import { readUIResponse } from "./test-utils/read-ui-response.js";
import { toUIMessageStream, uiFinishReason } from "./ui-message-stream.js";
import { toUIMessageStreamResponse } from "./ui-message-stream-response.js";
import type { UIMessageChunk } from "./ui-message-types.js";

const weather = tool({
  name: "get_weather",
  description: "The weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
});

/** The parts of a message without the fields that only say how they streamed. */
function partsOf(message: UIMessage | undefined) {
  return (message?.parts ?? []).map((part) => {
    const { providerMetadata: _p, ...rest } = part as Record<string, unknown>;
    return rest;
  });
}

describe("toUIMessageStreamResponse read by the ai package's client reader", () => {
  it("streams reasoning then text as parts of one step, with the protocol's headers and [DONE]", async () => {
    const model = partsModel([
      [
        { type: "reasoning_delta", delta: "The user " },
        { type: "reasoning_delta", delta: "greets me." },
        { type: "text_delta", delta: "Hello" },
        { type: "text_delta", delta: " there!" },
        finishPart("stop"),
      ],
    ]);
    const response = toUIMessageStreamResponse(new Agent({ model }).stream("hi"));
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const read = await readUIResponse(response);
    expect(read.errors).toEqual([]);
    expect(partsOf(read.message)).toEqual([
      { type: "step-start" },
      { type: "reasoning", id: expect.any(String), text: "The user greets me.", state: "done" },
      { type: "text", text: "Hello there!", state: "done" },
    ]);
    // Text arrived piece by piece, not at the end.
    const texts = read.snapshots
      .map((m) => m.parts.find((p) => p.type === "text"))
      .filter((p) => p !== undefined);
    expect(texts.map((p) => (p as { text: string }).text)).toContain("Hello");
    expect(read.text.endsWith("data: [DONE]\n\n")).toBe(true);
    expect(read.chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop" });
  });

  it("streams a tool call's input as it comes, then its output, then the answer in a second step", async () => {
    const model = new ScriptedModel(
      [
        {
          text: "Let me look.",
          toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Paris" } }],
        },
        { text: "It is sunny in Paris." },
      ],
      { argumentsChunkSize: 5 },
    );
    const read = await readUIResponse(
      toUIMessageStreamResponse(new Agent({ model, tools: [weather] }).stream("hi")),
    );
    expect(read.errors).toEqual([]);
    const streaming = read.snapshots
      .map((m) => m.parts.find((p) => p.type === "tool-get_weather") as Record<string, unknown> | undefined)
      .filter((p) => p?.state === "input-streaming");
    // The partial input grew as the fragments came (parsed by the client from the raw text).
    expect(streaming.map((p) => JSON.stringify(p?.input))).toContain('{"city":"P"}');
    expect(partsOf(read.message)).toEqual([
      { type: "step-start" },
      { type: "text", text: "Let me look.", state: "done" },
      expect.objectContaining({
        type: "tool-get_weather",
        toolCallId: "c1",
        state: "output-available",
        input: { city: "Paris" },
        output: "sunny in Paris",
      }),
      { type: "step-start" },
      { type: "text", text: "It is sunny in Paris.", state: "done" },
    ]);
  });

  it("a failing tool becomes output-error with the text the model was sent", async () => {
    const broken = tool({
      name: "broken",
      description: "fails",
      parameters: z.object({}),
      execute: () => {
        throw new Error("disk on fire");
      },
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "b1", name: "broken", arguments: {} }] },
      { text: "Sorry." },
    ]);
    const read = await readUIResponse(
      toUIMessageStreamResponse(new Agent({ model, tools: [broken] }).stream("go")),
    );
    const part = read.message?.parts.find((p) => p.type === "tool-broken") as Record<string, unknown>;
    expect(part).toMatchObject({ state: "output-error", toolCallId: "b1" });
    expect(part.errorText).toContain("disk on fire");
  });

  it("a typed answer is a data-output part (partial, then the validated value), not JSON text", async () => {
    const schema = z.object({ city: z.string(), temp: z.number() });
    const native = new ScriptedModel([{ text: JSON.stringify({ city: "Paris", temp: 21 }) }], {
      capabilities: { structuredOutput: true },
      chunkSize: 6,
    });
    const viaTool = new ScriptedModel([
      { toolCalls: [{ name: "final_answer", arguments: { city: "Paris", temp: 21 } }] },
    ]);
    for (const model of [native, viaTool]) {
      const read = await readUIResponse(
        toUIMessageStreamResponse(new Agent({ model, output: schema }).stream("hi")),
      );
      expect(read.errors).toEqual([]);
      const parts = read.message?.parts ?? [];
      expect(parts.filter((p) => p.type === "text")).toEqual([]);
      expect(parts.filter((p) => p.type.startsWith("tool-"))).toEqual([]);
      expect(parts.filter((p) => p.type === "data-output")).toEqual([
        { type: "data-output", id: "output", data: { state: "done", value: { city: "Paris", temp: 21 } } },
      ]);
      const partial = read.chunks.filter(
        (c) => c.type === "data-output" && (c.data as { state: string }).state === "partial",
      );
      expect(partial.length).toBeGreaterThan(1);
    }
  });

  it('a stream retried after it broke off (retry source "stream") leaves only the good attempt (reset-step)', async () => {
    const model = partsModel([
      [
        { type: "text_delta", delta: "A broken " },
        { type: "text_delta", delta: "start" },
        new StreamInterruptedError({ message: "reset" }),
      ],
      [{ type: "text_delta", delta: "The real answer." }, finishPart("stop")],
    ]);
    const read = await readUIResponse(
      toUIMessageStreamResponse(new Agent({ model, retry: { baseDelayMs: 1 } }).stream("hi")),
    );
    expect(read.chunks.map((c) => c.type)).toContain("reset-step");
    // The client showed the void text for a while, then dropped it.
    expect(read.snapshots.some((m) => JSON.stringify(m).includes("A broken start"))).toBe(true);
    expect(partsOf(read.message)).toEqual([
      { type: "step-start" },
      { type: "text", text: "The real answer.", state: "done" },
    ]);
  });

  it("a run that fails sends an error chunk with a safe text (finish reason error); onError may say more", async () => {
    const failing = () => new ScriptedModel([{ error: new Error("db password is hunter2") }]);
    const safe = await readUIResponse(
      toUIMessageStreamResponse(new Agent({ model: failing(), retry: { maxRetries: 0 } }).stream("hi")),
    );
    expect(safe.errors.map((e) => e.message)).toEqual(["The agent could not finish its answer."]);
    expect(safe.text).not.toContain("hunter2");
    expect(safe.chunks.at(-1)).toEqual({ type: "finish", finishReason: "error" });
    const told = await readUIResponse(
      toUIMessageStreamResponse(new Agent({ model: failing(), retry: { maxRetries: 0 } }).stream("hi"), {
        onError: (error) => `${error.kind}: ${error.name}`,
      }),
    );
    expect(told.errors.map((e) => e.message)).toEqual(["run: Error"]);
  });

  it("an iteration that throws (the run could not start) ends with an error chunk, not a broken stream", async () => {
    const source = {
      [Symbol.asyncIterator]: (): AsyncIterator<AgentEvent> => ({
        next: () => Promise.reject(new Error("session store down at 10.0.0.3")),
      }),
    };
    const read = await readUIResponse(toUIMessageStreamResponse(source));
    expect(read.errors.map((e) => e.message)).toEqual(["The request could not be run."]);
    expect(read.chunks.map((c) => c.type)).toEqual(["start", "error", "finish"]);
  });

  it("an output guardrail's block takes back the answer the client saw, with an error", async () => {
    const model = new ScriptedModel([{ text: "my key is sk-live-123" }]);
    const agent = new Agent({
      model,
      guardrails: { output: [{ name: "no_keys", check: () => ({ block: true, reason: "a key" }) }] },
    });
    const read = await readUIResponse(toUIMessageStreamResponse(agent.stream("hi")));
    expect(read.message?.parts.filter((p) => p.type === "text")).toEqual([]);
    expect(read.errors.map((e) => e.message)).toEqual(["The answer was blocked."]);
    expect(read.chunks.at(-1)).toEqual({ type: "finish", finishReason: "content-filter" });
  });

  it("sub-agent events do not enter the message: they are transient data-agent-event chunks", async () => {
    const researcher = new Agent({
      name: "researcher",
      model: new ScriptedModel([
        { toolCalls: [{ id: "s1", name: "get_weather", arguments: { city: "Oslo" } }] },
        { text: "Oslo: sunny" },
      ]),
      tools: [weather],
    });
    const lead = new Agent({
      name: "lead",
      model: new ScriptedModel([
        { toolCalls: [{ id: "m1", name: "research", arguments: { input: "Oslo?" } }] },
        { text: "Sunny." },
      ]),
      tools: [researcher.asTool({ name: "research", description: "Research" })],
    });
    const read = await readUIResponse(toUIMessageStreamResponse(lead.stream("weather in Oslo?")));
    expect(read.errors).toEqual([]);
    const tools = read.message?.parts.filter((p) => p.type.startsWith("tool-"));
    expect(tools).toEqual([
      expect.objectContaining({ type: "tool-research", state: "output-available", output: "Oslo: sunny" }),
    ]);
    expect(
      read.message?.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text),
    ).toEqual(["Sunny."]);
    const events = read.chunks
      .filter((c) => c.type === "data-agent-event")
      .map((c) => (c as { data: { agent: string; type: string } }).data);
    expect(events.every((e) => e.agent === "lead/researcher")).toBe(true);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["action", "observation", "loop_end"]));
  });

  it("forwarded events leave out error messages (a failing sub-agent's error reaches the browser by name only)", async () => {
    const failing = new Agent({
      name: "helper",
      model: new ScriptedModel([{ error: new Error("connect to 10.1.2.3:5432 with password hunter2") }]),
      retry: { maxRetries: 0 },
    });
    const lead = new Agent({
      name: "lead",
      model: new ScriptedModel([
        { toolCalls: [{ id: "h", name: "help", arguments: { input: "x" } }] },
        { text: "Could not." },
      ]),
      tools: [failing.asTool({ name: "help", description: "Helps" })],
    });
    const read = await readUIResponse(toUIMessageStreamResponse(lead.stream("go")));
    const errors = read.chunks.filter(
      (c) => c.type === "data-agent-event" && (c as { data: { type: string } }).data.type === "error",
    );
    expect(errors.map((c) => (c as { data: unknown }).data)).toContainEqual({
      agent: "lead/helper",
      type: "error",
      turn: expect.any(Number),
      data: { name: "Error", fatal: true },
    });
    const forwarded = JSON.stringify(read.chunks.filter((c) => c.type === "data-agent-event"));
    expect(forwarded).not.toContain("hunter2");
  });

  it("cancelling the response (the client left) aborts the run at once, also in a long tool call", async () => {
    let toolSignal: AbortSignal | undefined;
    const slow = tool({
      name: "slow",
      description: "takes long",
      parameters: z.object({}),
      timeoutMs: 60_000,
      execute: (_args, ctx) =>
        new Promise<string>((resolve) => {
          toolSignal = ctx.signal;
          setTimeout(() => resolve("late"), 30_000);
        }),
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "x", name: "slow", arguments: {} }] },
      { text: "never" },
    ]);
    const stream = new Agent({ model, tools: [slow] }).stream("go");
    const reader = toUIMessageStream(stream).getReader();
    for (;;) {
      const next = await reader.read();
      if (next.value?.type === "tool-input-available") break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    await reader.cancel();
    const result = await stream.result;
    expect(result.stopReason).toBe("aborted");
    expect(toolSignal?.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a message sent to the running agent (steering) is a steering-message part", async () => {
    const model = new ScriptedModel(
      [
        { text: "Looking.", toolCalls: [{ id: "t1", name: "get_weather", arguments: { city: "Oslo" } }] },
        { text: "Oslo and Rome are sunny." },
      ],
      { streamDelayMs: 2 },
    );
    const stream = new Agent({ model, tools: [weather] }).stream("Weather in Oslo?");
    const reading = readUIResponse(toUIMessageStreamResponse(stream));
    expect(await stream.send("Also Rome, please")).toBe(true);
    const read = await reading;
    expect(read.errors).toEqual([]);
    expect(read.message?.parts).toContainEqual({
      type: "steering-message",
      id: expect.any(String),
      parts: [{ type: "text", text: "Also Rome, please" }],
    });
  });

  it("pings while idle, sends message metadata at start and finish, and the run's own events with agentEvents all", async () => {
    const slow = tool({
      name: "slow",
      description: "takes a moment",
      parameters: z.object({}),
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve("ok"), 80)),
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "s", name: "slow", arguments: {} }] },
      { text: "Done." },
    ]);
    const response = toUIMessageStreamResponse(new Agent({ model, tools: [slow] }).stream("go"), {
      heartbeatMs: 10,
      agentEvents: "all",
      messageMetadata: (info) =>
        info.part === "start"
          ? { startedBy: "test" }
          : { stopReason: info.result?.stopReason, turns: info.result?.turns },
    });
    const read = await readUIResponse(response);
    expect(read.text).toContain(": ping\n\n");
    expect(read.message?.metadata).toEqual({ startedBy: "test", stopReason: "completed", turns: 2 });
    const own = read.chunks
      .filter((c) => c.type === "data-agent-event")
      .map((c) => (c as { data: { type: string; agent?: string } }).data);
    expect(own.map((e) => e.type)).toEqual(
      expect.arrayContaining(["loop_start", "model_call", "action", "observation", "loop_end"]),
    );
    expect(own.every((e) => e.agent === undefined)).toBe(true);
    expect(own.map((e) => e.type)).not.toContain("text_delta");
  });

  it("its chunks are the ai package's UIMessageChunk (checked by tsc)", () => {
    const asAISDK = (chunk: UIMessageChunk): AIUIMessageChunk => chunk;
    expect(asAISDK({ type: "tool-output-denied", toolCallId: "x" }).type).toBe("tool-output-denied");
  });

  it("maps every stop reason to a finish reason of the protocol", () => {
    expect(uiFinishReason("completed")).toBe("stop");
    expect(uiFinishReason("awaiting_approval")).toBe("tool-calls");
    expect(uiFinishReason("max_output_tokens")).toBe("length");
    expect(uiFinishReason("guardrail")).toBe("content-filter");
    expect(uiFinishReason("aborted")).toBe("interrupted");
    expect(uiFinishReason("max_turns")).toBe("other");
    expect(uiFinishReason("error")).toBe("error");
  });
});
