import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { pipeToNodeResponse } from "./pipe-to-node-response.js";
import { RunEventLog } from "./run-event-log.js";
import { countingStream } from "./test-utils/counting-stream.js";

/** A ServerResponse stand-in: records writes; `full` makes `write` return false until `drain()`. */
class FakeResponse extends EventEmitter {
  readonly req = { httpVersionMajor: 1, httpVersionMinor: 1 };
  headersSent = false;
  status = 0;
  headers: Record<string, string> = {};
  chunks: string[] = [];
  full = false;
  closed = false;
  destroyed = false;
  writableFinished = false;
  failWrites = false;
  get writableNeedDrain() {
    return this.full;
  }
  writeHead(status: number, headers: Record<string, string>) {
    this.status = status;
    this.headers = headers;
    this.headersSent = true;
    return this;
  }
  flushHeaders() {}
  write(text: string) {
    if (this.failWrites) throw new Error("write EPIPE");
    this.chunks.push(text);
    return !this.full;
  }
  drain() {
    this.full = false;
    this.emit("drain");
  }
  end(callback?: () => void) {
    this.writableFinished = true;
    callback?.();
    this.close();
  }
  destroy() {
    this.destroyed = true;
    this.close();
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    this.emit("close");
  }
  get text() {
    return this.chunks.join("");
  }
}

const asRes = (res: FakeResponse) => res as unknown as ServerResponse;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("pipeToNodeResponse", () => {
  it("writes the headers, each event, then the result, and resolves when ended", async () => {
    const res = new FakeResponse();
    await pipeToNodeResponse(countingStream({ count: 2 }).stream, asRes(res));
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      "content-type": "text/event-stream; charset=utf-8",
      connection: "keep-alive",
    });
    expect(res.text).toMatch(/^id: 1\ndata: \{"type":"loop_start".*\n\nid: 1\.1\.[a-z0-9]+\ndata: /s);
    expect(res.text).toMatch(/\n\nevent: result\ndata: \{"stopReason":"completed".*\}\n\n$/s);
    expect(res.writableFinished).toBe(true);
  });

  it("respects backpressure: while write says false, no further event is read", async () => {
    const res = new FakeResponse();
    const { stream, pulled } = countingStream({ count: 100 });
    res.full = true;
    const done = pipeToNodeResponse(stream, asRes(res));
    await sleep(30);
    expect(pulled.count).toBe(1); // one event written, then waiting for 'drain'
    expect(res.chunks).toHaveLength(1);
    res.drain();
    await done;
    expect(pulled.count).toBe(102);
  });

  it("a client that goes away aborts the run (and the promise resolves)", async () => {
    const res = new FakeResponse();
    const { stream, controller } = countingStream({ count: 100, delayMs: 2 });
    const done = pipeToNodeResponse(stream, asRes(res));
    await sleep(20);
    res.close();
    await done;
    expect(controller.signal.aborted).toBe(true);
    expect((await stream.result).stopReason).toBe("aborted");
  });

  it("a durable run (runId) is detached instead: it runs to its end", async () => {
    const res = new FakeResponse();
    const { stream, controller } = countingStream({ count: 20, delayMs: 1 });
    const done = pipeToNodeResponse(stream, asRes(res), { runId: "r", log: new RunEventLog() });
    await sleep(10);
    res.close();
    await done;
    expect(res.headers["x-agentloop-run-id"]).toBe("r");
    expect((await stream.result).stopReason).toBe("completed");
    expect(controller.signal.aborted).toBe(false);
  });

  it("a socket that fails on write: no rejection, the response is destroyed and the run aborted", async () => {
    const res = new FakeResponse();
    const { stream } = countingStream({ count: 10 });
    res.failWrites = true;
    res.headersSent = true; // already sent by the caller: not written again
    await expect(pipeToNodeResponse(stream, asRes(res))).resolves.toBeUndefined();
    expect(res.status).toBe(0);
    expect(res.destroyed).toBe(true);
    expect((await stream.result).stopReason).toBe("aborted");
  });

  it("a response already closed: the run is aborted at once", async () => {
    const res = new FakeResponse();
    res.close();
    const { stream } = countingStream({ count: 10 });
    await pipeToNodeResponse(stream, asRes(res));
    expect((await stream.result).stopReason).toBe("aborted");
    expect(res.chunks).toEqual([]);
  });

  it("sends : ping while waiting for an event, not while the socket is full", async () => {
    const res = new FakeResponse();
    const { stream } = countingStream({ count: 0, delayMs: 120 });
    await pipeToNodeResponse(stream, asRes(res), { heartbeatMs: 20 });
    expect(res.chunks.filter((c) => c === ": ping\n\n").length).toBeGreaterThanOrEqual(4);

    const full = new FakeResponse();
    full.full = true;
    const slow = countingStream({ count: 0, delayMs: 100 });
    const done = pipeToNodeResponse(slow.stream, asRes(full), { heartbeatMs: 10 });
    await sleep(250);
    expect(full.chunks.filter((c) => c === ": ping\n\n")).toEqual([]);
    full.drain();
    await done;
  });
});
