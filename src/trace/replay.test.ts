import { describe, expect, it } from "vitest";
import { z } from "zod";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import { TraceError } from "../errors/trace-error.js";
import { tool } from "../tools/tool.js";
import { replay } from "./replay.js";
import { ReplayModel } from "./replay-model.js";
import {
  copyTrace,
  countingWeatherTool,
  recordRun,
  rehash,
  TOOL_RUN_STEPS,
} from "./test-utils/record-run.js";
import type { Trace } from "./trace-types.js";

function firstToolResult(trace: Trace) {
  const record = trace.records.find((r) => r.kind === "tool_result");
  if (record?.kind !== "tool_result") throw new Error("no tool_result");
  return record;
}

describe("replay: offline", () => {
  it("reproduces the run without calling the model or running tools", async () => {
    const weather = countingWeatherTool();
    const { trace, result, agent, model } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [weather.tool] });
    const calls = model.calls.length;
    const executions = weather.executions();
    expect(executions).toBe(3);

    const replayed = await replay(trace, { agent });
    expect(replayed.divergence).toBeNull();
    expect(replayed.result.text).toBe(result.text);
    expect(replayed.result.stopReason).toBe("completed");
    expect(replayed.result.messages).toEqual(result.messages);
    expect(replayed.result.toolCalls.map((c) => [c.id, c.ok, c.result])).toEqual(
      result.toolCalls.map((c) => [c.id, c.ok, c.result]),
    );
    expect(model.calls.length).toBe(calls);
    expect(weather.executions()).toBe(executions);
  });

  it("replays a trace read back from JSON the same way", async () => {
    const { trace, result, agent } = await recordRun({
      steps: TOOL_RUN_STEPS,
      tools: [countingWeatherTool().tool],
    });
    const replayed = await replay(copyTrace(trace), { agent });
    expect(replayed).toMatchObject({ divergence: null, result: { text: result.text } });
  });

  it("reports a legitimately different recording at the next model request, with the changed path", async () => {
    const weather = countingWeatherTool();
    const { trace, agent } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [weather.tool] });
    const changed = copyTrace(trace);
    firstToolResult(changed).data.result = '{"city":"Paris","tempC":35}';
    const { divergence, result } = await replay(rehash(changed), { agent });
    // Request 1 is [system, user, assistant (c1), tool (c1)]: the tool message now holds the changed result.
    expect(divergence).toEqual({
      call: 1,
      path: "messages[3].content",
      expected: '{"city":"Paris","tempC":18}',
      actual: '{"city":"Paris","tempC":35}',
    });
    expect(result.text).toBe("Paris 18°C, Oslo and Rome 11°C.");
    expect(weather.executions()).toBe(3);
  });

  it("rejects a trace changed without recomputing its hashes, naming the record", async () => {
    const { trace, agent, model } = await recordRun({
      steps: TOOL_RUN_STEPS,
      tools: [countingWeatherTool().tool],
    });
    const tampered = copyTrace(trace);
    const record = firstToolResult(tampered);
    record.data.result = "forged";
    const error = await replay(tampered, { agent }).catch((e: unknown) => e);
    expect(TraceError.isInstance(error)).toBe(true);
    expect((error as TraceError).seq).toBe(record.seq);
    expect((error as Error).message).toContain(`broken at record ${record.seq}`);
    expect(model.calls).toHaveLength(3);
  });

  it("reports a different agent (system prompt) at the first request", async () => {
    const { trace, agent } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
    const { divergence } = await replay(trace, { agent: agent.with({ system: "Be verbose." }) });
    expect(divergence).toEqual({
      call: 0,
      path: "messages[0].content",
      expected: "Be brief.",
      actual: "Be verbose.",
    });
  });

  it("reports a tool call the recording has no result for", async () => {
    const { trace, agent } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
    const changed = copyTrace(trace);
    changed.records = changed.records.filter(
      (r) => !(r.kind === "tool_result" && r.data.toolCallId === "c2"),
    );
    const { divergence, result } = await replay(rehash(changed), { agent });
    expect(divergence).toMatchObject({ call: 1, path: "toolResults.c2", expected: undefined });
    expect(result.toolCalls.find((c) => c.id === "c2")).toMatchObject({ ok: false });
  });

  it("fails a model call beyond the recording and reports it", async () => {
    const { trace, agent } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
    const changed = copyTrace(trace);
    const lastRequest = changed.records.findLast((r) => r.kind === "model_request");
    changed.records = changed.records.filter((r) => r.seq < (lastRequest?.seq ?? 0));
    const { divergence, result } = await replay(rehash(changed), { agent });
    expect(divergence).toMatchObject({ call: 2, path: "", expected: undefined });
    expect(result.stopReason).toBe("error");
    expect(result.error?.message).toMatch(/model call 2 was not recorded \(the trace holds 2 model calls\)/);
  });
});

describe("replay: liveTools", () => {
  it("executes the agent's tools", async () => {
    const weather = countingWeatherTool();
    const { trace, agent, model } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [weather.tool] });
    const { divergence, result } = await replay(trace, { agent, liveTools: true });
    expect(weather.executions()).toBe(6);
    expect(divergence).toBeNull();
    expect(result.text).toBe("Paris 18°C, Oslo and Rome 11°C.");
    expect(model.calls).toHaveLength(3);
  });

  it("reports a tool that now answers differently", async () => {
    const { trace, agent } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
    const warmer = tool({
      name: "get_weather",
      description: "Weather for a city",
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => ({ city, tempC: 30 }),
    });
    const { divergence } = await replay(trace, { agent: agent.with({ tools: [warmer] }), liveTools: true });
    expect(divergence).toEqual({
      call: 1,
      path: "messages[3].content",
      expected: '{"city":"Paris","tempC":18}',
      actual: '{"city":"Paris","tempC":30}',
    });
  });
});

describe("replay: streams", () => {
  it("replays a streamed recording", async () => {
    const weather = countingWeatherTool();
    const { trace, result, agent, model } = await recordRun({
      steps: TOOL_RUN_STEPS,
      tools: [weather.tool],
      stream: true,
    });
    const replayed = await replay(trace, { agent });
    expect(replayed.divergence).toBeNull();
    expect(replayed.result.text).toBe(result.text);
    expect(model.calls).toHaveLength(3);
    expect(weather.executions()).toBe(3);
  });

  it("streams the recorded responses through ReplayModel", async () => {
    const { trace, result, agent } = await recordRun({
      steps: TOOL_RUN_STEPS,
      tools: [countingWeatherTool().tool],
    });
    const replayModel = new ReplayModel({ trace });
    expect(`${replayModel.provider}:${replayModel.modelId}`).toBe("scripted:scripted");
    const run = agent.with({ model: replayModel }).stream("Weather in Paris, Oslo and Rome?");
    let text = "";
    for await (const event of run) if (event.type === "text_delta") text += event.data.delta;
    const streamed = await run.result;
    expect(streamed.text).toBe(result.text);
    expect(text).toBe(`Checking.${result.text}`);
    expect(replayModel.divergence).toBeNull();
    expect(replayModel.calls).toBe(3);
  });

  it("raises a recorded stream interruption again, so the loop retries as it did", async () => {
    const interrupted = new StreamInterruptedError({ message: "connection reset" });
    const { trace, result, agent } = await recordRun({
      steps: [{ text: "partial", error: interrupted, errorAfterParts: 1 }, { text: "Done." }],
      tools: [],
      stream: true,
      agentOptions: { retry: { baseDelayMs: 1 } },
    });
    expect(result.text).toBe("Done.");
    expect(trace.records.filter((r) => r.kind === "model_error").map((r) => r.data.error.name)).toEqual([
      "StreamInterruptedError",
    ]);
    const replayed = await replay(trace, { agent });
    expect(replayed.divergence).toBeNull();
    expect(replayed.result.text).toBe("Done.");
    expect(replayed.result.events.filter((e) => e.type === "retry")).toHaveLength(1);
  });
});

describe("replay: recorded tool failures", () => {
  it("reproduces a thrown error, a value JSON cannot represent and a timeout with the same text", async () => {
    const flaky = tool({
      name: "flaky",
      description: "Fails in several ways",
      parameters: { type: "object", properties: { how: { type: "string" } }, required: ["how"] },
      timeoutMs: 20,
      execute: async ({ how }) => {
        if (how === "throw") throw new TypeError("boom: bad input");
        if (how === "bigint") return { n: 1n };
        if (how === "hang") return new Promise(() => {});
        return "fine";
      },
    });
    const { trace, result, agent } = await recordRun({
      steps: [
        {
          toolCalls: [
            { id: "t1", name: "flaky", arguments: { how: "throw" } },
            { id: "t2", name: "flaky", arguments: { how: "bigint" } },
            { id: "t3", name: "flaky", arguments: { how: "hang" } },
            { id: "t4", name: "flaky", arguments: { how: 7 } },
            { id: "t5", name: "nope", arguments: {} },
          ],
        },
        { text: "Handled." },
      ],
      tools: [flaky],
    });
    expect(result.toolCalls.map((c) => [c.ok, c.result])).toEqual([
      [false, 'Tool "flaky" failed: TypeError: boom: bad input'],
      [
        false,
        expect.stringMatching(/^Tool "flaky" returned a value that cannot be sent as JSON: TypeError: /),
      ],
      [false, 'Tool "flaky" timed out after 20 ms'],
      [false, expect.stringMatching(/^Invalid arguments for tool "flaky": at "how"/)],
      [false, expect.stringMatching(/^Unknown tool "nope"/)],
    ]);
    const replayed = await replay(trace, { agent });
    expect(replayed.result.toolCalls.map((c) => c.result)).toEqual(result.toolCalls.map((c) => c.result));
    expect(replayed.divergence).toBeNull();
  });
});
