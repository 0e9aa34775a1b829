import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelCallError } from "../errors/model-call-error.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { copyTrace, countingWeatherTool, recordRun, TOOL_RUN_STEPS } from "./test-utils/record-run.js";
import { loadTrace, saveTrace } from "./trace-file.js";
import { TraceRecorder } from "./trace-recorder.js";
import type { TraceRecord } from "./trace-types.js";
import { verifyTrace } from "./verify-trace.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-trace-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `kind` or `event:<type>` of each record. */
function shape(records: readonly TraceRecord[]): string[] {
  return records.map((r) => (r.kind === "event" ? `event:${r.data.type}` : r.kind));
}

function newRecorder(): TraceRecorder {
  return new TraceRecorder({ input: "hi", messages: [], model: "scripted:scripted", tools: [] });
}

describe("TraceRecorder: a multi-turn tool run", () => {
  it("records meta, requests, responses, events and tool results in order", async () => {
    const weather = countingWeatherTool();
    const prior = [
      { role: "user" as const, content: "Hello" },
      { role: "assistant" as const, content: "Hi!" },
    ];
    const { trace, result } = await recordRun({
      steps: TOOL_RUN_STEPS,
      tools: [weather.tool],
      messages: prior,
    });
    expect(result.stopReason).toBe("completed");
    expect(trace.version).toBe(2);
    expect(shape(trace.records)).toEqual([
      "meta",
      "event:loop_start",
      "event:turn_start",
      "model_request",
      "model_response",
      "event:model_call",
      "event:error", // UnpricedModel: the scripted model has no price (a warning, once per run)
      "event:thought",
      "event:action",
      "event:observation",
      "tool_result",
      "event:turn_start",
      "model_request",
      "model_response",
      "event:model_call",
      "event:action",
      "event:action",
      "event:observation",
      "tool_result",
      "event:observation",
      "tool_result",
      "event:turn_start",
      "model_request",
      "model_response",
      "event:model_call",
      "event:loop_end",
    ]);
    expect(trace.records.map((r) => r.seq)).toEqual(trace.records.map((_, i) => i));
    const [meta] = trace.records;
    expect(meta?.kind === "meta" && meta.data).toMatchObject({
      input: "Weather in Paris, Oslo and Rome?",
      messages: prior,
      model: "scripted:scripted",
      tools: ["get_weather"],
    });
    const requests = trace.records.filter((r) => r.kind === "model_request");
    expect(requests.map((r) => [r.data.call, r.data.mode])).toEqual([
      [0, "generate"],
      [1, "generate"],
      [2, "generate"],
    ]);
    const first = requests[0]?.data.request;
    expect(first?.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(first?.tools?.map((t) => t.name)).toEqual(["get_weather"]);
    expect(first?.parallelToolCalls).toBe(true);
    expect(requests[2]?.data.request.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "c3" });
    const results = trace.records.filter((r) => r.kind === "tool_result").map((r) => r.data);
    expect(results).toContainEqual({
      toolCallId: "c1",
      toolName: "get_weather",
      ok: true,
      result: '{"city":"Paris","tempC":18}',
    });
    const responses = trace.records.filter((r) => r.kind === "model_response");
    expect(responses.map((r) => r.data.call)).toEqual([0, 1, 2]);
    expect(responses[2]?.data.response).toMatchObject({
      text: "Paris 18°C, Oslo and Rome 11°C.",
      toolCalls: [],
    });
    expect(responses.every((r) => !("raw" in r.data.response))).toBe(true);
    expect(verifyTrace(trace)).toEqual({ ok: true });
  });

  it("is JSON-serialisable and survives save → load unchanged", async () => {
    const { trace } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
    expect(copyTrace(trace)).toEqual(trace);
    const path = join(dir, "run.jsonl");
    await saveTrace({ trace, path });
    const loaded = await loadTrace(path);
    expect(loaded).toEqual(trace);
    expect(verifyTrace(loaded)).toEqual({ ok: true });
  });

  it("records every event the run emitted, in order", async () => {
    const { trace, result } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
    const events = trace.records.filter((r) => r.kind === "event").map((r) => r.data);
    expect(events).toEqual(JSON.parse(JSON.stringify(result.events)));
  });
});

describe("TraceRecorder: streams", () => {
  it("records a streamed run: the folded responses, text deltas as events", async () => {
    const { trace, result } = await recordRun({
      steps: TOOL_RUN_STEPS,
      tools: [countingWeatherTool().tool],
      stream: true,
    });
    expect(result.text).toBe("Paris 18°C, Oslo and Rome 11°C.");
    const requests = trace.records.filter((r) => r.kind === "model_request");
    expect(requests.map((r) => r.data.mode)).toEqual(["stream", "stream", "stream"]);
    const responses = trace.records.filter((r) => r.kind === "model_response");
    expect(responses[0]?.data.response).toMatchObject({
      text: "Checking.",
      toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Paris" } }],
      finishReason: { unified: "tool_calls" },
    });
    expect(responses[2]?.data.response.text).toBe("Paris 18°C, Oslo and Rome 11°C.");
    expect(shape(trace.records)).toContain("event:text_delta");
    expect(verifyTrace(trace)).toEqual({ ok: true });
  });

  it("passes parts through unchanged", async () => {
    const model = new ScriptedModel([
      { text: "one two three", toolCalls: [{ name: "t", arguments: { a: 1 } }] },
    ]);
    const direct: ModelStreamPart[] = [];
    for await (const part of model.stream({ messages: [] })) direct.push(part);
    model.reset();
    const recorder = newRecorder();
    const wrapped: ModelStreamPart[] = [];
    for await (const part of recorder.wrapModel(model).stream({ messages: [] })) wrapped.push(part);
    expect(wrapped).toEqual(direct);
  });

  it("records nothing more for a stream the consumer abandons", async () => {
    const recorder = newRecorder();
    const model = recorder.wrapModel(new ScriptedModel([{ text: "a b c d e f" }]));
    for await (const part of model.stream({ messages: [{ role: "user", content: "x" }] })) {
      expect(part.type).toBe("text_delta");
      break;
    }
    const trace = recorder.finish();
    expect(shape(trace.records)).toEqual(["meta", "model_request"]);
    expect(verifyTrace(trace)).toEqual({ ok: true });
  });

  it("records a thrown stream error and an error part as model_error", async () => {
    const recorder = newRecorder();
    const failure = new ModelCallError({
      message: "overloaded",
      status: 529,
      isRetryable: true,
      code: "busy",
    });
    const model = recorder.wrapModel(
      new ScriptedModel([
        { text: "partial answer", error: failure, errorAfterParts: 1 },
        { text: "x", error: new Error("bad part"), errorAs: "part" },
      ]),
    );
    const drain = async () => {
      for await (const part of model.stream({ messages: [] })) if (part.type === "error") throw part.error;
    };
    await expect(drain()).rejects.toBe(failure);
    await expect(drain()).rejects.toThrow("bad part");
    const trace = recorder.finish();
    expect(shape(trace.records)).toEqual([
      "meta",
      "model_request",
      "model_error",
      "model_request",
      "model_error",
    ]);
    expect(trace.records[2]?.data).toEqual({
      call: 0,
      error: { name: "ModelCallError", message: "overloaded", status: 529, code: "busy" },
    });
    expect(trace.records[4]?.data).toEqual({ call: 1, error: { name: "Error", message: "bad part" } });
  });
});

describe("TraceRecorder: generate", () => {
  it("records a failed call as model_error and rethrows the same error", async () => {
    const recorder = newRecorder();
    const failure = new ModelCallError({ message: "rate limited", status: 429, isRetryable: true });
    const model = recorder.wrapModel(new ScriptedModel([{ error: failure }]));
    await expect(model.generate({ messages: [] })).rejects.toBe(failure);
    const trace = recorder.finish();
    expect(trace.records[2]).toMatchObject({
      kind: "model_error",
      data: { call: 0, error: { name: "ModelCallError", message: "rate limited", status: 429 } },
    });
  });

  it("returns the model's response unchanged (raw included) but records it without raw", async () => {
    const recorder = newRecorder();
    const response = {
      text: "hi",
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      finishReason: { unified: "stop" as const, raw: undefined },
      raw: { id: "resp_1" },
    };
    const model = recorder.wrapModel({
      provider: "fake",
      modelId: "m",
      generate: async () => response,
      stream: () => {
        throw new Error("unused");
      },
    });
    expect(model.provider).toBe("fake");
    expect(model.modelId).toBe("m");
    expect(await model.generate({ messages: [], temperature: 0.5, providerOptions: { x: 1 } })).toBe(
      response,
    );
    const trace = recorder.finish();
    expect(trace.records[1]?.data).toEqual({
      call: 0,
      mode: "generate",
      request: { messages: [], temperature: 0.5 },
    });
    expect(trace.records[2]?.data).toEqual({
      call: 0,
      response: { text: "hi", toolCalls: [], usage: response.usage, finishReason: { unified: "stop" } },
    });
  });

  it("copies the request's messages array (later pushes do not show) and ignores records after finish", async () => {
    const recorder = newRecorder();
    const model = recorder.wrapModel(new ScriptedModel([{ text: "a" }, { text: "b" }]));
    const messages = [{ role: "user" as const, content: "q" }];
    await model.generate({ messages });
    messages.push({ role: "user", content: "later" });
    const trace = recorder.finish();
    await model.generate({ messages });
    expect(trace.records).toHaveLength(3);
    const request = trace.records[1];
    expect(request?.kind === "model_request" && request.data.request.messages).toHaveLength(1);
    expect(verifyTrace(trace)).toEqual({ ok: true });
  });
});
