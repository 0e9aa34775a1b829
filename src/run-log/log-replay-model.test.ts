import { describe, expect, it } from "vitest";
import { AbortError } from "../errors/abort-error.js";
import { AgentloopError } from "../errors/agentloop-error.js";
import { ModelCallError } from "../errors/model-call-error.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import type { ModelRequest, ModelResponse } from "../models/model.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { type Divergence, LogReplayModel, type RecordedModelCall } from "./log-replay-model.js";

const USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

function response(text: string): Omit<ModelResponse, "raw"> {
  return { text, toolCalls: [], usage: USAGE, finishReason: { unified: "stop", raw: "stop" } };
}

function request(content: string): ModelRequest {
  return { messages: [{ role: "user", content }] };
}

/** Recorded calls 0..n-1 answering "answer <i>" (with the request "ask <i>" when `requests`). */
function recorded(n: number, requests = false): Map<number, RecordedModelCall> {
  const calls = new Map<number, RecordedModelCall>();
  for (let i = 0; i < n; i++) {
    calls.set(i, {
      ...(requests && { request: { messages: [{ role: "user", content: `ask ${i}` }] } }),
      outcome: { response: response(`answer ${i}`) },
    });
  }
  return calls;
}

async function streamText(model: LogReplayModel, req: ModelRequest): Promise<string> {
  let text = "";
  for await (const part of model.stream(req)) if (part.type === "text_delta") text += part.delta;
  return text;
}

describe("LogReplayModel: answers by index", () => {
  it("answers call N with recorded outcome N, by generate or stream, counting what it replayed", async () => {
    const model = new LogReplayModel({ calls: recorded(3), provider: "p", modelId: "m" });
    expect(model.replaysNext).toBe(true);
    expect((await model.generate(request("x"))).text).toBe("answer 0");
    expect(await streamText(model, request("y"))).toBe("answer 1");
    expect((await model.generate(request("z"))).text).toBe("answer 2");
    expect(model).toMatchObject({ calls: 3, replayed: 3, lastReplayed: true, replaysNext: false });
  });

  it("hands out copies: changing an answer does not change the recording", async () => {
    const calls = recorded(1);
    const model = new LogReplayModel({ calls, provider: "p", modelId: "m" });
    (await model.generate(request("x"))).toolCalls.push({
      id: "t",
      name: "n",
      arguments: {},
      rawArguments: "{}",
    });
    const outcome = calls.get(0)?.outcome;
    expect(outcome !== undefined && "response" in outcome && outcome.response.toolCalls).toEqual([]);
  });
});

describe("LogReplayModel: the live fallback", () => {
  it("without a live model, a call the recording cannot answer fails and nothing is called", async () => {
    const model = new LogReplayModel({
      calls: recorded(1),
      provider: "p",
      modelId: "m",
      unanswered: ({ call, stoppedDuring }) => new Error(`no ${call} ${stoppedDuring}`),
    });
    await model.generate(request("x"));
    await expect(model.generate(request("y"))).rejects.toThrow("no 1 false");
    const fallback = new LogReplayModel({ calls: recorded(0), provider: "p", modelId: "m" });
    const error = await fallback.generate(request("x")).catch((e: unknown) => e);
    expect(AgentloopError.isInstance(error)).toBe(true);
  });

  it("a recorded call the run stopped during is unanswered too (stoppedDuring)", async () => {
    const calls = new Map<number, RecordedModelCall>([[0, { request: { messages: [] } }]]);
    const model = new LogReplayModel({
      calls,
      provider: "p",
      modelId: "m",
      unanswered: ({ stoppedDuring }) => new Error(`stopped during: ${stoppedDuring}`),
    });
    await expect(streamText(model, { messages: [] })).rejects.toThrow("stopped during: true");
  });

  it("with a live model: replays first, then calls it, recording each response before the loop gets it", async () => {
    const live = new ScriptedModel([{ text: "live 1" }, { text: "live 2" }]);
    const written: Array<{ call: number; text: string }> = [];
    let lives = 0;
    const model = new LogReplayModel({
      calls: recorded(1),
      provider: live.provider,
      modelId: live.modelId,
      live,
      record: async ({ call, response: r }) => void written.push({ call, text: r.text }),
      onLive: () => lives++,
    });
    expect((await model.generate(request("a"))).text).toBe("answer 0");
    expect(live.calls).toHaveLength(0);
    expect(model.replaysNext).toBe(false);
    expect((await model.generate(request("b"))).text).toBe("live 1");
    expect(model.lastReplayed).toBe(false);
    expect(await streamText(model, request("c"))).toBe("live 2");
    expect(live.calls.map((c) => c.mode)).toEqual(["generate", "stream"]);
    expect(written).toEqual([
      { call: 1, text: "live 1" },
      { call: 2, text: "live 2" },
    ]);
    expect(lives).toBe(2);
    expect(model).toMatchObject({ calls: 3, replayed: 1 });
  });

  it("a failed live call takes no index: it is made again under the same one", async () => {
    const live = new ScriptedModel([{ error: new Error("flaky") }, { text: "ok" }]);
    const written: number[] = [];
    const model = new LogReplayModel({
      calls: recorded(0),
      provider: "p",
      modelId: "m",
      live,
      record: async ({ call }) => void written.push(call),
    });
    await expect(model.generate(request("a"))).rejects.toThrow("flaky");
    expect(model.calls).toBe(0);
    await model.generate(request("a"));
    expect(written).toEqual([0]);
  });

  it("a stream's finish is held back until its response is recorded", async () => {
    const live = new ScriptedModel([{ text: "streamed" }]);
    const seen: string[] = [];
    const model = new LogReplayModel({
      calls: recorded(0),
      provider: "p",
      modelId: "m",
      live,
      record: async () => void seen.push("recorded"),
    });
    for await (const part of model.stream(request("a"))) seen.push(part.type);
    expect(seen.slice(-2)).toEqual(["recorded", "finish"]);
  });
});

describe("LogReplayModel: request comparison", () => {
  it("reports the first differing request once, and still answers from the recording", async () => {
    const found: Divergence[] = [];
    const model = new LogReplayModel({
      calls: recorded(3, true),
      provider: "p",
      modelId: "m",
      onDivergence: (d) => found.push(d),
    });
    await model.generate(request("ask 0"));
    expect(model.divergence).toBeNull();
    expect((await model.generate(request("changed 1"))).text).toBe("answer 1");
    await model.generate(request("changed 2"));
    const first = { call: 1, path: "messages[0].content", expected: "ask 1", actual: "changed 1" };
    expect(found).toEqual([first]);
    expect(model.divergence).toEqual(first);
  });

  it('a call beyond the recording diverges at path ""', async () => {
    const found: Divergence[] = [];
    const model = new LogReplayModel({
      calls: recorded(1, true),
      provider: "p",
      modelId: "m",
      onDivergence: (d) => found.push(d),
    });
    await model.generate(request("ask 0"));
    await expect(model.generate(request("ask 1"))).rejects.toThrow(/no recorded call/);
    expect(found).toEqual([{ call: 1, path: "", expected: undefined, actual: request("ask 1") }]);
    expect(model.recordedRequest(0)).toEqual(request("ask 0"));
  });

  it("compares nothing when the recording has no requests (a journal)", async () => {
    const found: Divergence[] = [];
    const live = new ScriptedModel([{ text: "live" }]);
    const model = new LogReplayModel({
      calls: recorded(1),
      provider: "p",
      modelId: "m",
      live,
      onDivergence: (d) => found.push(d),
    });
    await model.generate(request("anything"));
    await model.generate(request("beyond"));
    expect(found).toEqual([]);
  });
});

describe("LogReplayModel: recorded errors", () => {
  const failing = (error: { name: string; message: string; status?: number; code?: string }) =>
    new LogReplayModel({
      calls: new Map([[0, { outcome: { error } }]]),
      provider: "p",
      modelId: "m",
    });

  it("raises the same kind of error again, so the loop reacts as it did", async () => {
    const interrupted = await failing({ name: "StreamInterruptedError", message: "reset" })
      .generate(request("x"))
      .catch((e: unknown) => e);
    expect(StreamInterruptedError.isInstance(interrupted)).toBe(true);
    const overflow = await failing({ name: "ModelCallError", message: "too long", status: 429 })
      .generate(request("x"))
      .catch((e: unknown) => e);
    expect(ModelCallError.isInstance(overflow)).toBe(true);
    expect(overflow).toMatchObject({ status: 429, isRetryable: true, message: "too long" });
    const aborted = await streamText(failing({ name: "AbortError", message: "stop" }), request("x")).catch(
      (e: unknown) => e,
    );
    expect(AbortError.isInstance(aborted)).toBe(true);
    const other = await failing({ name: "RangeError", message: "odd" })
      .generate(request("x"))
      .catch((e: unknown) => e);
    expect(other).toMatchObject({ name: "RangeError", message: "odd" });
  });

  it("counts a recorded error as a replayed call: the next call is answered by the next record", async () => {
    const calls = new Map<number, RecordedModelCall>([
      [0, { outcome: { error: { name: "StreamInterruptedError", message: "reset" } } }],
      [1, { outcome: { response: response("after the retry") } }],
    ]);
    const model = new LogReplayModel({ calls, provider: "p", modelId: "m" });
    await expect(model.generate(request("x"))).rejects.toThrow("reset");
    expect((await model.generate(request("x"))).text).toBe("after the retry");
    expect(model.replayed).toBe(2);
  });
});
