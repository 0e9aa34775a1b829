// Issue #20: agentloop/client's streamRun against servers that misbehave, over real sockets: garbage, a 100 MB
// line, an error status, an event stream that is not one, a server that never answers or goes silent, one that
// keeps dropping the connection. Each fails with a clear RunStreamError (or AbortError), in bounded time and
// memory, and the request is closed.
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { streamRun } from "../../src/client/stream-run.js";
import { RunStreamError } from "../../src/errors/run-stream-error.js";
import { listen, type TestServer } from "../../src/web/test-utils/serve-fetch.js";

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(handler: (res: ServerResponse, request: number) => void): Promise<string> {
  let requests = 0;
  const server = await listen((req, res) => {
    req.resume();
    req.on("end", () => handler(res, ++requests));
  });
  servers.push(server);
  return server.url;
}

const sse = { "content-type": "text/event-stream" };

/** The error a run fails with (its iteration and its result agree). */
async function failure(run: ReturnType<typeof streamRun>): Promise<unknown> {
  let thrown: unknown;
  try {
    for await (const _ of run) {
      // reading
    }
  } catch (error) {
    thrown = error;
  }
  await expect(run.result).rejects.toBe(thrown);
  return thrown;
}

describe("streamRun against a hostile server", () => {
  it("a 100 MB line fails with too_large once the limit is passed, without reading it all", async () => {
    let written = 0;
    let closedEarly = false;
    const url = await serve((res) => {
      res.writeHead(200, sse);
      res.on("close", () => {
        closedEarly = written < 100_000_000;
      });
      const block = "x".repeat(64 * 1024);
      const pump = () => {
        while (written < 100_000_000 && !res.destroyed) {
          written += block.length;
          if (!res.write(block)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    });
    const heapBefore = process.memoryUsage().heapUsed;
    const error = await failure(streamRun(url, "hi", { maxEventChars: 1_000_000 }));
    expect(RunStreamError.isInstance(error) && error.kind).toBe("too_large");
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(50_000_000);
    await expect.poll(() => closedEarly).toBe(true); // the client closed the request
    expect(written).toBeLessThan(50_000_000);
  });

  it("garbage lines: malformed (not JSON), and a stream that ends without a result: network", async () => {
    const garbage = await serve((res) => {
      res.writeHead(200, sse);
      res.end("data: {not json\n\n");
    });
    const error = await failure(streamRun(garbage, "hi"));
    expect(RunStreamError.isInstance(error) && error.kind).toBe("malformed");

    const noise = await serve((res) => {
      res.writeHead(200, sse);
      res.end("\u0000\u00ff binary noise\r\n: a comment\n\nevent: unknown\ndata: 1\n\n");
    });
    const cut = await failure(streamRun(noise, "hi"));
    expect(RunStreamError.isInstance(cut) && cut.kind).toBe("network");
    expect((cut as Error).message).toMatch(/closed the stream before the run's result/);
  });

  it("an error status: http, with the server's error name and message", async () => {
    const url = await serve((res) => {
      res.writeHead(429, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { name: "RateLimited", message: "slow down" } }));
    });
    const error = await failure(streamRun(url, "hi"));
    expect(error).toMatchObject({ kind: "http", status: 429, errorName: "RateLimited" });
    expect((error as Error).message).toContain("slow down");
  });

  it("an answer that is not an event stream: malformed", async () => {
    const url = await serve((res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>login</html>");
    });
    const error = await failure(streamRun(url, "hi"));
    expect(error).toMatchObject({ kind: "malformed" });
  });

  it("event: error: server, naming the server's error", async () => {
    const url = await serve((res) => {
      res.writeHead(200, sse);
      res.end('event: error\ndata: {"name":"SessionBusyError","message":"session s is busy"}\n\n');
    });
    const error = await failure(streamRun(url, "hi"));
    expect(error).toMatchObject({ kind: "server", errorName: "SessionBusyError" });
  });

  it("a server that never answers: timeout after timeoutMs, and the request is closed", async () => {
    let closed = false;
    const url = await serve((res) => {
      res.on("close", () => {
        closed = true;
      });
    });
    const started = Date.now();
    const error = await failure(streamRun(url, "hi", { timeoutMs: 200 }));
    expect(error).toMatchObject({ kind: "timeout" });
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect.poll(() => closed).toBe(true);
  });

  it("a server that goes silent after its headers: timeout after idleTimeoutMs", async () => {
    const url = await serve((res) => {
      res.writeHead(200, sse);
      res.write(
        'id: 1\ndata: {"type":"loop_start","turn":0,"timestamp":0,"data":{"task":"hi","model":"m"}}\n\n',
      );
    });
    const run = streamRun(url, "hi", { idleTimeoutMs: 200 });
    const events: unknown[] = [];
    const error = await (async () => {
      try {
        for await (const event of run) events.push(event);
      } catch (caught) {
        return caught;
      }
    })();
    expect(events).toHaveLength(1);
    expect(error).toMatchObject({ kind: "timeout" });
  });

  it("aborting the signal closes the request and fails with AbortError", async () => {
    let closed = false;
    const url = await serve((res) => {
      res.writeHead(200, sse);
      res.on("close", () => {
        closed = true;
      });
    });
    const controller = new AbortController();
    const run = streamRun(url, "hi", { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await failure(run);
    expect((error as Error).name).toBe("AbortError");
    await expect.poll(() => closed).toBe(true);
  });

  it("a durable run whose server keeps dropping: maxReconnects reconnects with Last-Event-ID, then fails", async () => {
    const lastEventIds: Array<string | undefined> = [];
    const server = await listen((req, res) => {
      lastEventIds.push(req.headers["last-event-id"] as string | undefined);
      req.resume();
      res.writeHead(200, { ...sse, "x-agentloop-run-id": "r1" });
      if (lastEventIds.length === 1) {
        res.write('id: 1\ndata: {"type":"turn_start","turn":1,"timestamp":0,"data":{"model":"m"}}\n\n');
        res.write('id: 2\ndata: {"type":"model_call","turn":1,"timestamp":0,"data":{"model":"m"}}\n\n');
      }
      setTimeout(() => res.destroy(), 10);
    });
    servers.push(server);
    const run = streamRun(server.url, "hi", { maxReconnects: 3, reconnectDelayMs: 10 });
    const types: string[] = [];
    const error = await (async () => {
      try {
        for await (const event of run) types.push(event.type);
      } catch (caught) {
        return caught;
      }
    })();
    expect(types).toEqual(["turn_start", "model_call"]);
    expect(run.runId).toBe("r1");
    expect(run.lastEventId).toBe("2");
    expect(lastEventIds).toEqual([undefined, "2", "2", "2"]); // 1 + maxReconnects requests
    expect(error).toMatchObject({ kind: "network" });
  });

  it("a server that drops every connection after one new event: at most 100 reconnects in all", async () => {
    let requests = 0;
    const server = await listen((req, res) => {
      requests++;
      req.resume();
      res.writeHead(200, { ...sse, "x-agentloop-run-id": "r2" });
      res.write(
        `id: ${requests}\ndata: {"type":"turn_start","turn":${requests},"timestamp":0,"data":{"model":"m"}}\n\n`,
      );
      setTimeout(() => res.destroy(), 2);
    });
    servers.push(server);
    const error = await failure(streamRun(server.url, "hi", { reconnectDelayMs: 1 }));
    expect(error).toMatchObject({ kind: "network" });
    expect(requests).toBe(101);
  });

  it("a run that is not durable is not resumed: the broken connection fails at once", async () => {
    let requests = 0;
    const url = await serve((res) => {
      requests++;
      res.writeHead(200, sse);
      res.write('id: 1\ndata: {"type":"turn_start","turn":1,"timestamp":0,"data":{"model":"m"}}\n\n');
      setTimeout(() => res.destroy(), 20);
    });
    const error = await failure(streamRun(url, "hi", { reconnectDelayMs: 10 }));
    expect(error).toMatchObject({ kind: "network" });
    expect(requests).toBe(1);
  });
});
