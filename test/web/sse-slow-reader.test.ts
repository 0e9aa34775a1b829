// Issue #20: a client that stops reading (a frozen tab, a stalled proxy) must not make the server buffer the
// run: the response is pulled one event at a time, so once the socket buffers are full the run pauses — the model
// is not called again — instead of running on into memory. Both server kinds, from a raw TCP client that sends
// its request and never reads; closing it then aborts the run.
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentStream } from "../../src/agent-stream.js";
import { pipeToNodeResponse } from "../../src/web/pipe-to-node-response.js";
import { listen, serveFetch, type TestServer } from "../../src/web/test-utils/serve-fetch.js";
import { createTestAgent } from "../../src/web/test-utils/sse-test-agent.js";
import { toSSEResponse } from "../../src/web/to-sse-response.js";

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** Sends a POST and never reads the answer. */
function stalledClient(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      const body = JSON.stringify({ input: "Go" });
      socket.write(
        `POST / HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
      socket.pause(); // read nothing: the kernel buffers fill, then the server's writes stall
      resolve(socket);
    });
    socket.on("error", reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(["node:http", "fetch-style"] as const)("a client that stops reading (%s)", (kind) => {
  it("pauses the run by backpressure: the number of model calls stops growing", async () => {
    // Each turn streams ~64 KB of text and calls a tool: 1 000 turns would be ~64 MB of events.
    const chunk = `${"lorem ipsum dolor sit amet ".repeat(2_400)}`;
    const { agent, scripted, signals } = createTestAgent({
      steps: (_request, call) => ({
        text: chunk,
        toolCalls: [{ name: "lookup", arguments: { city: `c${call}` } }],
      }),
      maxTurns: 1_000,
    });
    const streams: AgentStream[] = [];
    const handle = (stream: AgentStream) => {
      streams.push(stream);
      return stream;
    };
    const server = await (kind === "node:http"
      ? listen((req, res) => {
          req.resume();
          req.on("end", () => void pipeToNodeResponse(handle(agent.stream("Go")), res));
        })
      : serveFetch(async (request) => {
          await request.text();
          return toSSEResponse(handle(agent.stream("Go")));
        }));
    servers.push(server);
    const socket = await stalledClient(server.url);
    // Wait until the run stalls: the call count holds still for a while.
    let calls = -1;
    for (let i = 0; i < 100 && scripted.calls.length !== calls; i++) {
      calls = scripted.calls.length;
      await sleep(150);
    }
    expect(scripted.calls.length).toBe(calls);
    expect(calls).toBeGreaterThan(1); // it did run until the buffers were full
    expect(calls).toBeLessThan(300); // ~64 KB a turn: the socket buffers hold a few MB, not 64
    await sleep(300);
    expect(scripted.calls.length).toBe(calls); // still paused

    socket.destroy(); // the client goes away: the paused run is aborted
    const result = await (streams[0] as AgentStream).result;
    expect(result.stopReason).toBe("aborted");
    expect(signals.at(-1)?.aborted ?? true).toBe(true);
    expect(scripted.calls.length).toBeLessThanOrEqual(calls + 1);
  }, 30_000);
});
