import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { RunEventLog } from "./run-event-log.js";
import { countingStream } from "./test-utils/counting-stream.js";
import { toSSEResponse } from "./to-sse-response.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("toSSEResponse", () => {
  it("frames each event as id + data, then event: result, with the SSE headers", async () => {
    const { stream } = countingStream({ count: 1 });
    const response = toSSEResponse(stream);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    });
    const text = await response.text();
    const [start, delta, end, result, rest] = text.split("\n\n");
    expect(JSON.parse((start as string).replace(/^id: 1\ndata: /, ""))).toMatchObject({ type: "loop_start" });
    expect(delta).toMatch(
      /^id: 1\.1\.[a-z0-9]{6}\ndata: \{"type":"text_delta","turn":1,"timestamp":\d+,"data":\{"delta":"w0 "\}\}$/,
    );
    expect(end).toMatch(/^id: 2\ndata: \{"type":"loop_end"/);
    expect(result).toBe(
      'event: result\ndata: {"stopReason":"completed","text":"done","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2},"costUsd":0,"turns":1}',
    );
    expect(rest).toBe("");
  });

  it("a stream that fails ends with event: error", async () => {
    const { stream } = countingStream({ events: [], error: new Error("journal unreachable") });
    expect(await toSSEResponse(stream).text()).toBe(
      'event: error\ndata: {"name":"Error","message":"journal unreachable"}\n\n',
    );
  });

  it("sends : ping while idle, and none pile up while the client does not read", async () => {
    const { stream } = countingStream({ count: 1, delayMs: 120 });
    const text = await toSSEResponse(stream, { heartbeatMs: 25 }).text();
    expect(text.match(/: ping\n\n/g)?.length).toBeGreaterThanOrEqual(6);
    expect(text).toContain("event: result");

    const idle = countingStream({ count: 0, delayMs: 10_000 });
    const reader = (
      toSSEResponse(idle.stream, { heartbeatMs: 5 }).body as ReadableStream<Uint8Array>
    ).getReader();
    await sleep(200); // ~40 heartbeats due, the client reads none
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(": ping\n\n");
    // What else was queued is there at once (before the next turn of the event loop).
    let queued = 0;
    const immediate = () => new Promise<number>((resolve) => setImmediate(() => resolve(0)));
    while ((await Promise.race([reader.read().then(() => 1), immediate()])) === 1) queued++;
    expect(queued).toBeLessThanOrEqual(1); // the queue held a ping or two, not forty
    await reader.cancel();
  });

  it("a client that goes away aborts a run that is not durable", async () => {
    const { stream, pulled, controller } = countingStream({ count: 1000, delayMs: 1 });
    const reader = (toSSEResponse(stream).body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    expect(controller.signal.aborted).toBe(true);
    expect((await stream.result).stopReason).toBe("aborted");
    expect(pulled.count).toBeLessThan(10);
  });

  it("detaches a durable run (runId): it runs to its end, kept in the log, and the response names it", async () => {
    const { stream, pulled, controller } = countingStream({ count: 50 });
    const log = new RunEventLog();
    const response = toSSEResponse(stream, { runId: "run-1", log, headers: { "x-extra": "1" } });
    expect(response.headers.get("x-agentloop-run-id")).toBe("run-1");
    expect(response.headers.get("x-extra")).toBe("1");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    expect((await stream.result).stopReason).toBe("completed");
    expect(controller.signal.aborted).toBe(false);
    expect(pulled.count).toBe(52);
    expect(log.has("run-1")).toBe(true);
  });

  it("onDisconnect: abort aborts a durable run too", async () => {
    const { stream, controller } = countingStream({ count: 50, delayMs: 1 });
    const body = toSSEResponse(stream, {
      runId: "run-2",
      log: new RunEventLog(),
      onDisconnect: "abort",
    }).body;
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    expect(controller.signal.aborted).toBe(true);
  });

  it("refuses bad options", () => {
    const { stream } = countingStream();
    for (const options of [{ heartbeatMs: -1 }, { onDisconnect: "close" }, { runId: "" }]) {
      expect(() => toSSEResponse(stream, options as never)).toThrow(InvalidArgumentError);
    }
  });
});
