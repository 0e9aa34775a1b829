import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { RunStreamError } from "../errors/run-stream-error.js";
import { streamRun } from "./stream-run.js";

const encoder = new TextEncoder();
const event = (id: string, type: string, turn = 1) =>
  `id: ${id}\ndata: ${JSON.stringify({ type, turn, timestamp: 0, data: type === "text_delta" ? { delta: id } : {} })}\n\n`;
const RESULT =
  'event: result\ndata: {"stopReason":"completed","text":"done","usage":{},"costUsd":0,"turns":1}\n\n';

/** A response streaming `chunks` (strings or bytes), then failing with `error` when given. */
function sseResponse(
  chunks: Array<string | Uint8Array>,
  options: { error?: Error; headers?: Record<string, string> } = {},
) {
  const queue = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = queue.shift();
      if (chunk !== undefined) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      else if (options.error !== undefined) controller.error(options.error);
      else controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", ...options.headers } });
}

interface Call {
  url: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** A fetch answering each call with the next response, recording the calls. */
function fakeFetch(responses: Array<() => Response>) {
  const calls: Call[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({
      url,
      body: JSON.parse(init.body as string),
      headers: init.headers as Record<string, string>,
      signal: init.signal as AbortSignal,
    });
    const next = responses[calls.length - 1];
    if (next === undefined) throw new TypeError("fetch failed");
    return next();
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

async function collect(run: AsyncIterable<{ type: string; data: unknown }>) {
  const out: string[] = [];
  for await (const e of run)
    out.push(e.type === "text_delta" ? `${e.type}:${(e.data as { delta: string }).delta}` : e.type);
  return out;
}

describe("streamRun", () => {
  it("posts { input, ...body } as JSON and yields the events, then resolves the result", async () => {
    const { fetch, calls } = fakeFetch([
      () => sseResponse([event("1", "loop_start"), ": ping\n\n", event("2", "loop_end"), RESULT]),
    ]);
    const run = streamRun("http://x/agent", "hi", {
      fetch,
      body: { sessionId: "s" },
      headers: { authorization: "Bearer t" },
    });
    expect(await collect(run)).toEqual(["loop_start", "loop_end"]);
    expect(await run.result).toMatchObject({ stopReason: "completed", text: "done" });
    expect(calls[0]?.body).toEqual({ input: "hi", sessionId: "s" });
    expect(calls[0]?.headers).toMatchObject({
      authorization: "Bearer t",
      accept: "text/event-stream",
      "content-type": "application/json",
    });
    expect(run.lastEventId).toBe("2");
  });

  it("decodes characters split across chunks, and CRLF line endings", async () => {
    const text =
      'id: 1\r\ndata: {"type":"text_delta","turn":1,"timestamp":0,"data":{"delta":"été ✓"}}\r\n\r\n';
    const bytes = encoder.encode(text);
    const cut = bytes.indexOf(0xc3) + 1; // inside "é"
    const { fetch } = fakeFetch([() => sseResponse([bytes.slice(0, cut), bytes.slice(cut), RESULT])]);
    expect(await collect(streamRun("http://x", "hi", { fetch }))).toEqual(["text_delta:été ✓"]);
  });

  it("result alone reads the stream to its end; a stream is iterated once", async () => {
    const { fetch } = fakeFetch([() => sseResponse([event("1", "loop_start"), RESULT])]);
    const run = streamRun("http://x", "hi", { fetch });
    expect(await run.result).toMatchObject({ text: "done" });
    await expect(collect(run)).rejects.toThrow(InvalidArgumentError);
  });

  it("leaving the iteration early closes the request; the result then rejects with AbortError", async () => {
    const { fetch, calls } = fakeFetch([
      () => sseResponse([event("1", "loop_start"), event("2", "turn_start")]),
    ]);
    const run = streamRun("http://x", "hi", { fetch });
    for await (const _ of run) break;
    expect(calls[0]?.signal.aborted).toBe(true);
    await expect(run.result).rejects.toMatchObject({ name: "AbortError" });
  });

  it("reconnects to a durable run with its id and Last-Event-ID, and goes on", async () => {
    const { fetch, calls } = fakeFetch([
      () =>
        sseResponse([event("1", "loop_start"), event("1.1.abcdef", "text_delta")], {
          error: new TypeError("terminated"),
          headers: { "x-agentloop-run-id": "r9" },
        }),
      () => sseResponse([event("1.2.abcdef", "text_delta"), event("2", "loop_end"), RESULT]),
    ]);
    const run = streamRun("http://x", "hi", { fetch, reconnectDelayMs: 1 });
    expect(await collect(run)).toEqual([
      "loop_start",
      "text_delta:1.1.abcdef",
      "text_delta:1.2.abcdef",
      "loop_end",
    ]);
    expect(calls[1]?.body).toEqual({ input: "hi", runId: "r9" });
    expect(calls[1]?.headers["last-event-id"]).toBe("1.1.abcdef");
    expect(run.runId).toBe("r9");
  });

  it("with body.runId it reconnects even when the first request failed before an answer", async () => {
    const { fetch, calls } = fakeFetch([
      () => {
        throw new TypeError("fetch failed");
      },
      () => sseResponse([event("1", "loop_start"), RESULT]),
    ]);
    const run = streamRun("http://x", "hi", { fetch, body: { runId: "mine" }, reconnectDelayMs: 1 });
    expect(await collect(run)).toEqual(["loop_start"]);
    expect(calls.map((c) => c.headers["last-event-id"])).toEqual([undefined, undefined]);
  });

  it("calls fetch unbound (a browser's fetch refuses another this)", async () => {
    let self: unknown = "unset";
    const fetch = function (this: unknown) {
      self = this;
      return Promise.resolve(sseResponse([RESULT]));
    } as unknown as typeof globalThis.fetch;
    await streamRun("http://x", "hi", { fetch }).result;
    expect(self).toBeUndefined();
  });

  it("an event without a type is malformed", async () => {
    const { fetch } = fakeFetch([() => sseResponse(['data: {"turn":1}\n\n'])]);
    const error = await streamRun("http://x", "hi", { fetch }).result.catch((e: unknown) => e);
    expect(RunStreamError.isInstance(error) && error.kind).toBe("malformed");
  });

  it("refuses bad options", () => {
    for (const options of [
      { maxReconnects: -1 },
      { timeoutMs: 0 },
      { maxEventChars: Number.NaN },
      { fetch: 3 },
    ]) {
      expect(() => streamRun("http://x", "hi", options as never)).toThrow(InvalidArgumentError);
    }
  });
});
