// Issue #20: clients that go away mid-stream. A run that is not durable is aborted (its model call's signal
// aborts, the result says "aborted"), promptly even while the model is silent; a durable run goes on to its end,
// and a reconnect with Last-Event-ID gets exactly the events the client missed — by hand (fetch) and by
// streamRun after the server cut its connection.
import type { IncomingMessage } from "node:http";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentStream } from "../../src/agent-stream.js";
import { streamRun } from "../../src/client/stream-run.js";
import { MemoryJournal } from "../../src/durable/memory-journal.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import { createAgentHandler } from "../../src/web/create-agent-handler.js";
import { pipeToNodeResponse } from "../../src/web/pipe-to-node-response.js";
import { RunEventLog } from "../../src/web/run-event-log.js";
import { listen, serveFetch, type TestServer } from "../../src/web/test-utils/serve-fetch.js";
import { createTestAgent, WEATHER_ANSWER } from "../../src/web/test-utils/sse-test-agent.js";
import { toSSEResponse } from "../../src/web/to-sse-response.js";

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function start(server: Promise<TestServer>): Promise<TestServer> {
  const started = await server;
  servers.push(started);
  return started;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as Record<string, unknown>;
}

/** The SSE messages of a response body, read until `stop` says so (then the request is aborted). */
async function readMessages(
  response: Response,
  stop: (messages: string[]) => boolean = () => false,
): Promise<string[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const messages: string[] = [];
  let buffer = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) return messages;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!message.startsWith(":")) messages.push(message);
      if (stop(messages)) {
        await reader.cancel();
        return messages;
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

const idOf = (message: string) => /^id: (.+)$/m.exec(message)?.[1];
const post = (url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal,
  });

describe.each(["node:http", "fetch-style"] as const)("a client that disconnects mid-stream (%s)", (kind) => {
  /** A server streaming each request's run; `streams` holds them. */
  async function serve(agent: ReturnType<typeof createTestAgent>["agent"]) {
    const streams: AgentStream[] = [];
    const server = await start(
      kind === "node:http"
        ? listen(async (req, res) => {
            const { input } = await readJson(req);
            const stream = agent.stream(input as string);
            streams.push(stream);
            await pipeToNodeResponse(stream, res);
          })
        : serveFetch(async (request) => {
            const { input } = (await request.json()) as { input: string };
            const stream = agent.stream(input);
            streams.push(stream);
            return toSSEResponse(stream);
          }),
    );
    return { server, streams };
  }

  it("aborts a run that is not durable: the model's signal aborts, the result says aborted", async () => {
    const { agent, signals } = createTestAgent({ streamDelayMs: 20 });
    const { server, streams } = await serve(agent);
    const controller = new AbortController();
    const response = await post(server.url, { input: "Weather?" }, {}, controller.signal);
    const seen = await readMessages(response, (messages) => messages.some((m) => m.includes('"text_delta"')));
    controller.abort();
    expect(seen.length).toBeGreaterThan(0);
    const result = await (streams[0] as AgentStream).result;
    expect(result.stopReason).toBe("aborted");
    expect(signals[0]?.aborted).toBe(true);
    expect(result.events.some((e) => e.type === "observation")).toBe(false); // it stopped in the first turn
  });

  it("aborts at once while the model is silent (not at its next event)", async () => {
    const { agent, signals } = createTestAgent({ steps: [{ text: "late", delayMs: 30_000 }] });
    const { server, streams } = await serve(agent);
    const controller = new AbortController();
    const response = await post(server.url, { input: "Weather?" }, {}, controller.signal);
    await readMessages(response, (messages) => messages.some((m) => m.includes('"turn_start"')));
    const left = Date.now();
    controller.abort();
    const result = await (streams[0] as AgentStream).result;
    expect(result.stopReason).toBe("aborted");
    expect(signals[0]?.aborted).toBe(true);
    expect(Date.now() - left).toBeLessThan(2_000);
  });
});

describe("a client that disconnects from a durable run", () => {
  async function serveDurable(options: { streamDelayMs?: number } = {}) {
    const journal = new MemoryJournal();
    const test = createTestAgent({ journal, streamDelayMs: options.streamDelayMs ?? 15 });
    const log = new RunEventLog();
    const server = await start(serveFetch(createAgentHandler(test.agent, { log })));
    return { ...test, journal, log, server };
  }

  it("detaches: the run finishes anyway, and Last-Event-ID gets exactly the missing events", async () => {
    const { server, journal, signals } = await serveDurable();
    const controller = new AbortController();
    const first = await post(server.url, { input: "Weather?" }, {}, controller.signal);
    const runId = first.headers.get("x-agentloop-run-id") as string;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const seen = await readMessages(
      first,
      (messages) => messages.filter((m) => m.includes("text_delta")).length >= 2,
    );
    controller.abort();
    // The run goes on without its client, to its end (the journal's end record).
    await expect
      .poll(async () => (await journal.load(runId))?.some((r) => r.kind === "end"), { timeout: 10_000 })
      .toBe(true);
    expect(signals.every((signal) => !signal.aborted)).toBe(true);

    const rest = await readMessages(
      await post(server.url, { runId }, { "last-event-id": idOf(seen.at(-1) as string) as string }),
    );
    const whole = await readMessages(await post(server.url, { runId }));
    expect([...seen, ...rest]).toEqual(whole);
    expect(rest.at(-1)).toMatch(/^event: result\n/);
    expect(JSON.parse((rest.at(-1) as string).split("data: ")[1] as string)).toMatchObject({
      runId,
      stopReason: "completed",
      text: WEATHER_ANSWER,
    });
  });

  it("streamRun reconnects after the server cut it off and gets each event exactly once", async () => {
    const journal = new MemoryJournal();
    const { agent } = createTestAgent({ journal, streamDelayMs: 10 });
    const log = new RunEventLog();
    const handler = createAgentHandler(agent, { log });
    let connections = 0;
    const app = new Hono();
    app.post("/agent", async (c) => {
      connections++;
      const response = await handler(c.req.raw);
      if (connections > 1) return response;
      // The first connection breaks after a few messages (a proxy timing out, a network change).
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let chunks = 0;
      const cut = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
          if (++chunks === 6) controller.error(new Error("connection reset"));
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return new Response(cut, { headers: response.headers });
    });
    const server = await start(serveFetch(app.fetch));
    const run = streamRun(`${server.url}/agent`, "Weather?", { reconnectDelayMs: 10 });
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;
    expect(connections).toBe(2);
    expect(result).toMatchObject({ stopReason: "completed", text: WEATHER_ANSWER, runId: run.runId });
    // The whole run, from the log: what streamRun yielded is exactly it.
    const whole = await readMessages(await post(`${server.url}/agent`, { runId: run.runId }));
    const wholeEvents = whole
      .filter((m) => !m.startsWith("event:"))
      .map((m) => JSON.parse(m.split("data: ")[1] as string));
    expect(events).toEqual(wholeEvents);
  });
});
