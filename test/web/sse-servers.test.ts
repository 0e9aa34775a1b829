// Issue #20: an agent streamed to HTTP clients over SSE from real servers — node:http with pipeToNodeResponse,
// a fetch-style Hono app with toSSEResponse and createAgentHandler — read by agentloop/client's streamRun and by
// plain fetch: every event in order (streamed text, the tool call, its result), the result, and 200 clients at
// once each getting their whole stream.
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
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

/** Reads a node request's JSON body. */
async function readJson(req: AsyncIterable<Buffer>): Promise<{ input: string }> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as { input: string };
}

/** The run's story, as a reader sees it: the text streamed per turn, the tool calls and their results. */
function story(events: readonly AgentEvent[]) {
  const text = events.flatMap((e) => (e.type === "text_delta" ? [e.data.delta] : [])).join("");
  return {
    types: [...new Set(events.map((e) => e.type))],
    text,
    actions: events.flatMap((e) => (e.type === "action" ? [[e.data.toolName, e.data.arguments]] : [])),
    observations: events.flatMap((e) => (e.type === "observation" ? [e.data.result] : [])),
    last: events.at(-1)?.type,
  };
}

const EXPECTED = {
  types: expect.arrayContaining(["loop_start", "turn_start", "text_delta", "tool_call_delta", "action"]),
  text: `Let me check.${WEATHER_ANSWER}`,
  actions: [["lookup", { city: "Paris" }]],
  observations: ["sunny"],
  last: "loop_end",
};

describe("an agent streamed over SSE from a node:http server (pipeToNodeResponse)", () => {
  it("streamRun gets every event in order, then the result", async () => {
    const { agent } = createTestAgent();
    const server = await start(
      listen(async (req, res) => {
        const { input } = await readJson(req);
        await pipeToNodeResponse(agent.stream(input), res);
      }),
    );
    const run = streamRun(server.url, "Weather in Paris?");
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(story(events)).toEqual(EXPECTED);
    const result = await run.result;
    expect(result).toMatchObject({ stopReason: "completed", text: WEATHER_ANSWER, turns: 2 });
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(result.costUsd).toBeGreaterThan(0);
    expect(run.runId).toBeUndefined();
  });

  it("writes the wire format: id and data per event, event: result last, the SSE headers", async () => {
    const { agent } = createTestAgent();
    const server = await start(listen((_req, res) => void pipeToNodeResponse(agent.stream("Weather?"), res)));
    const response = await fetch(server.url);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const text = await response.text();
    const messages = text.split("\n\n").filter((m) => m !== "");
    expect(messages[0]).toMatch(/^id: 1\ndata: \{"type":"loop_start",/);
    const result = messages.at(-1) as string;
    expect(result).toMatch(/^event: result\ndata: \{/);
    expect(JSON.parse(result.slice(result.indexOf("data: ") + 6))).toMatchObject({ stopReason: "completed" });
    // Every other message is one event: an id line and one data line.
    for (const message of messages.slice(0, -1))
      expect(message).toMatch(/^id: [0-9.a-z]+\ndata: \{[^\n]*\}$/);
  });
});

describe("an agent streamed from a fetch-style server (Hono app, toSSEResponse)", () => {
  it("streamRun gets every event in order, then the result", async () => {
    const { agent } = createTestAgent();
    const app = new Hono();
    app.post("/agent", async (c) => {
      const { input } = await c.req.json<{ input: string }>();
      return toSSEResponse(agent.stream(input));
    });
    const server = await start(serveFetch(app.fetch));
    const run = streamRun(`${server.url}/agent`, "Weather in Paris?");
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(story(events)).toEqual(EXPECTED);
    expect(await run.result).toMatchObject({ stopReason: "completed", text: WEATHER_ANSWER });
  });

  it("createAgentHandler makes a durable run of an agent with a journal: the client learns its id", async () => {
    const journal = new MemoryJournal();
    const { agent } = createTestAgent({ journal });
    const app = new Hono();
    app.post("/agent", (c) => createAgentHandler(agent, { log: new RunEventLog() })(c.req.raw));
    const server = await start(serveFetch(app.fetch));
    const run = streamRun(`${server.url}/agent`, "Weather in Paris?");
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(story(events)).toEqual(EXPECTED);
    const result = await run.result;
    expect(run.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.runId).toBe(run.runId);
    expect(await journal.load(run.runId as string)).toContainEqual(expect.objectContaining({ kind: "end" }));
  });
});

describe("200 SSE clients at once", () => {
  it.each([
    { server: "node:http", handler: "pipeToNodeResponse" },
    { server: "fetch-style", handler: "toSSEResponse" },
  ])(
    "each gets its whole stream ($server, $handler)",
    async ({ server: kind }) => {
      const { agent } = createTestAgent({
        steps: () => ({ text: "one two three four five six seven eight" }),
      });
      const server = await start(
        kind === "node:http"
          ? listen(async (req, res) => {
              const { input } = await readJson(req);
              await pipeToNodeResponse(agent.stream(input), res);
            })
          : serveFetch(async (request) => {
              const { input } = (await request.json()) as { input: string };
              return toSSEResponse(agent.stream(input));
            }),
      );
      const runs = Array.from({ length: 200 }, async (_, i) => {
        const run = streamRun(server.url, `client ${i}`);
        const events: AgentEvent[] = [];
        for await (const event of run) events.push(event);
        return { events, result: await run.result };
      });
      const outcomes = await Promise.all(runs);
      for (const [i, { events, result }] of outcomes.entries()) {
        expect(events[0]).toMatchObject({ type: "loop_start", data: { task: `client ${i}` } });
        expect(story(events).text).toBe("one two three four five six seven eight");
        expect(events.at(-1)?.type).toBe("loop_end");
        expect(result.stopReason).toBe("completed");
      }
    },
    60_000,
  );
});
