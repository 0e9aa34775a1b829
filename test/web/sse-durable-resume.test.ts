// Issue #20: Last-Event-ID resumption of a durable run across processes. Server A runs the run; its client
// goes away mid-turn; server B (another process: its own run event log and agent, the same file journal) is
// asked for the rest. B replays the finished run from the journal without calling the model or a tool, skips
// every stable event the client saw, and re-sends the turn the client saw part of after a `retry` event (source
// "stream"), so a reader that applies retries as usual ends with exactly the run's events and text.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileJournal } from "../../src/durable/file-journal.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import { createAgentHandler } from "../../src/web/create-agent-handler.js";
import { RunEventLog } from "../../src/web/run-event-log.js";
import { serveFetch, type TestServer } from "../../src/web/test-utils/serve-fetch.js";
import { createTestAgent, WEATHER_ANSWER } from "../../src/web/test-utils/sse-test-agent.js";

let dir: string;
let servers: TestServer[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-sse-resume-"));
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  await rm(dir, { recursive: true, force: true });
});

interface Message {
  id: string | undefined;
  event: string | undefined;
  data: unknown;
}

/** Reads SSE messages until `stop` holds (then aborts the request) or the stream ends. */
async function read(response: Response, stop?: (messages: Message[]) => boolean): Promise<Message[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const messages: Message[] = [];
  let buffer = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) return messages;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(":")) continue;
      const field = (name: string) => new RegExp(`^${name}: (.*)$`, "m").exec(block)?.[1];
      messages.push({ id: field("id"), event: field("event"), data: JSON.parse(field("data") as string) });
      if (stop?.(messages)) {
        await reader.cancel();
        return messages;
      }
    }
  }
}

const post = (url: string, body: unknown, lastEventId?: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(lastEventId !== undefined && { "last-event-id": lastEventId }),
    },
    body: JSON.stringify(body),
  });

const eventsOf = (messages: Message[]) =>
  messages.filter((m) => m.event === undefined).map((m) => m.data as AgentEvent);
const STABLE = ["loop_start", "turn_start", "model_call", "thought", "action", "observation", "loop_end"];
const stableOf = (events: AgentEvent[]) =>
  events.filter((e) => STABLE.includes(e.type)).map((e) => `${e.type}@${e.turn}`);

/** The text a reader shows: deltas per turn, a `retry` with source "stream" voids the turn's deltas so far. */
function shownText(events: AgentEvent[]): string {
  const turns = new Map<number, string>();
  for (const event of events) {
    if (event.type === "retry" && event.data.source === "stream") turns.set(event.turn, "");
    if (event.type === "text_delta") turns.set(event.turn, (turns.get(event.turn) ?? "") + event.data.delta);
  }
  return [...turns.values()].join("");
}

async function twoServers() {
  const a = createTestAgent({ journal: new FileJournal({ dir }), streamDelayMs: 10 });
  // Server B's model has no script: any call fails. A replay must not call it.
  const b = createTestAgent({ journal: new FileJournal({ dir }), steps: [] });
  const serverA = await serveFetch(createAgentHandler(a.agent, { log: new RunEventLog() }));
  const serverB = await serveFetch(createAgentHandler(b.agent, { log: new RunEventLog() }));
  servers.push(serverA, serverB);
  return { a, b, urlA: serverA.url, urlB: serverB.url };
}

describe("a durable run resumed from the run log in another process", () => {
  it("mid-turn: a retry marker, the turn again, then the rest: each stable event once, the same text", async () => {
    const { a, b, urlA, urlB } = await twoServers();
    const runId = "run-mid-turn";
    const turnTwoDeltas = (messages: Message[]) =>
      eventsOf(messages).filter((e) => e.type === "text_delta" && e.turn === 2).length;
    const seen = await read(await post(urlA, { input: "Weather?", runId }), (m) => turnTwoDeltas(m) >= 3);
    const whole = await read(await post(urlA, { runId })); // A's log: the run to its end (it went on detached)
    expect(whole.at(-1)?.event).toBe("result");

    const rest = await read(await post(urlB, { runId }, seen.at(-1)?.id));
    expect(b.scripted.calls).toHaveLength(0); // replayed: nothing called
    expect(b.lookups).toEqual([]); // nor executed
    expect(a.lookups).toEqual(["Paris"]);
    const restEvents = eventsOf(rest);
    expect(restEvents[0]).toMatchObject({ type: "retry", turn: 2, data: { source: "stream" } });
    const resumed = [...eventsOf(seen), ...restEvents];
    expect(stableOf(resumed)).toEqual(stableOf(eventsOf(whole)));
    expect(shownText(resumed)).toBe(shownText(eventsOf(whole)));
    expect(shownText(resumed)).toBe(`Let me check.${WEATHER_ANSWER}`);
    expect(rest.at(-1)).toMatchObject({
      event: "result",
      data: { runId, stopReason: "completed", text: WEATHER_ANSWER },
    });
  });

  it("after a stable event: exactly the events after it, no marker", async () => {
    const { a, urlA, urlB } = await twoServers();
    const runId = "run-after-observation";
    const seen = await read(await post(urlA, { input: "Weather?", runId }), (m) =>
      eventsOf(m).some((e) => e.type === "observation"),
    );
    await read(await post(urlA, { runId }, seen.at(-1)?.id)); // wait for the end (in A)
    expect(a.scripted.calls).toHaveLength(2);
    const rest = await read(await post(urlB, { runId }, seen.at(-1)?.id));
    const restEvents = eventsOf(rest);
    expect(restEvents.some((e) => e.type === "retry")).toBe(false);
    expect(restEvents[0]).toMatchObject({ type: "turn_start", turn: 2, replayed: true });
    expect(shownText(restEvents)).toBe(WEATHER_ANSWER);
    expect(stableOf([...eventsOf(seen), ...restEvents])).toEqual([
      "loop_start@0",
      "turn_start@1",
      "model_call@1",
      "thought@1",
      "action@1",
      "observation@1",
      "turn_start@2",
      "model_call@2",
      "loop_end@2",
    ]);
  });

  it("while the run still runs in the other process: event: error DurableRunBusyError", async () => {
    const { urlA, urlB } = await twoServers();
    const runId = "run-busy";
    const seen = await read(await post(urlA, { input: "Weather?", runId }), (m) => m.length >= 3);
    const rest = await read(await post(urlB, { runId }, seen.at(-1)?.id));
    expect(rest).toEqual([
      { id: undefined, event: "error", data: { name: "DurableRunBusyError", message: expect.any(String) } },
    ]);
  });

  it("a bad Last-Event-ID is a 400", async () => {
    const { urlB } = await twoServers();
    const response = await post(urlB, { runId: "r" }, "not-an-id");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { name: "InvalidArgumentError" } });
  });
});
