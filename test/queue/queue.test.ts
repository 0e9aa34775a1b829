// The queue and its worker in one process, on the real Redis at 127.0.0.1:6379 (the crash test runs workers
// as separate processes): enqueue idempotency, result(), events(), sessions, retries, graceful close.
import { randomUUID } from "node:crypto";
import { getEventListeners } from "node:events";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Agent, type AgentOptions } from "../../src/agent.js";
import { InvalidArgumentError } from "../../src/errors/invalid-argument-error.js";
import {
  type AgentQueue,
  type AgentWorker,
  createAgentQueue,
  createAgentWorker,
  RunFailedError,
  RunTimeoutError,
} from "../../src/integrations/queue/index.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { type MockOpenAIServer, type MockReply, startMockOpenAIServer } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";
import { parseTallyRequest, type TallyRequest, tallyInput, tallyReply } from "./tally-script.js";

const connection = { host: "127.0.0.1", port: 6379 };
const prefix = `aq-test-${randomUUID()}`;
const admin = new Redis(connection);
let server: MockOpenAIServer;
/** Every request the mock server answered, parsed. */
const requests: TallyRequest[] = [];
/** Per run: replies to use instead of the tally script's (consumed in order). */
const overrides = new Map<string, MockReply[]>();
const delayMs = 10;
/** Per run: the tally calls executed, in order. */
const tallies = new Map<string, number[]>();

const tally = tool<{ n: number }>({
  name: "tally",
  description: "Counts",
  parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  idempotent: true,
  execute: ({ n }, ctx) => {
    const runId = ctx.idempotencyKey?.split(":")[0] ?? "?";
    tallies.set(runId, [...(tallies.get(runId) ?? []), n]);
    return `tallied ${n}`;
  },
});

function makeAgent(extra: Partial<AgentOptions> = {}): Agent {
  return new Agent({
    model: createOpenAI({ baseURL: server.url, apiKey: "k", retry: { maxRetries: 0 } })("mock-model"),
    tools: [tally],
    system: "You tally.",
    // A known price: an unpriced model adds a non-fatal UnpricedModel event to every run's stream.
    pricing: { "mock-model": { inputPerMTok: 0, outputPerMTok: 0 } },
    ...extra,
  });
}

const resources: Array<{ close(): Promise<void> }> = [];
function queue(name: string): AgentQueue {
  const created = createAgentQueue({ connection, prefix, name });
  resources.push(created);
  return created;
}
function worker(name: string, extra: { agents?: Record<string, () => Agent>; concurrency?: number } = {}) {
  const created: AgentWorker = createAgentWorker({
    connection,
    prefix,
    name,
    agents: extra.agents ?? { tally: () => makeAgent() },
    concurrency: extra.concurrency ?? 4,
    store: new RedisStore({ client: admin, prefix: `${prefix}:sessions:` }),
    sessionRetryDelayMs: 50,
  });
  resources.push(created);
  return created;
}
const uniqueName = () => `q-${randomUUID().slice(0, 8)}`;
async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

beforeAll(async () => {
  server = await startMockOpenAIServer({
    script: (body) => {
      const request = parseTallyRequest(body);
      requests.push(request);
      const override = overrides.get(request.runId)?.shift();
      return override ?? tallyReply(request, delayMs);
    },
  });
});

afterAll(async () => {
  for (const resource of resources.reverse()) await resource.close();
  await server.close();
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await admin.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

describe("createAgentQueue / createAgentWorker", () => {
  it("runs an enqueued run; result() works from another queue handle", async () => {
    const name = uniqueName();
    const producer = queue(name);
    worker(name);
    const runId = await producer.enqueue({ agent: "tally", input: tallyInput("r1") });
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const summary = await queue(name).result(runId, { timeoutMs: 10_000 });
    expect(summary).toMatchObject({ runId, text: "done r1", stopReason: "completed", turns: 3 });
    expect(summary.toolCalls.map((call) => call.name)).toEqual(["tally", "tally"]);
    expect(tallies.get(runId)).toEqual([1, 2]);
  });

  it("works on an ioredis instance passed in, and leaves it open", async () => {
    const name = uniqueName();
    const instance = new Redis({ ...connection, maxRetriesPerRequest: null });
    const producer = createAgentQueue({ connection: instance, prefix, name });
    const running = createAgentWorker({
      connection: instance,
      prefix,
      name,
      agents: { tally: () => makeAgent() },
      store: new RedisStore({ client: admin, prefix: `${prefix}:sessions:` }),
    });
    const runId = await producer.enqueue({
      agent: "tally",
      input: tallyInput("instance"),
      sessionId: "inst",
    });
    expect((await producer.result(runId, { timeoutMs: 10_000 })).text).toBe("done instance");
    expect((await collect(producer.events(runId))).at(-1)?.type).toBe("loop_end");
    await running.close();
    await producer.close();
    expect(await instance.ping()).toBe("PONG");
    await instance.quit();
  });

  it("enqueue rejects within about a second while Redis is unreachable, instead of waiting", async () => {
    // A TCP proxy in front of Redis plays the outage.
    const sockets = new Set<Socket>();
    const proxy = createServer((socket) => {
      const upstream = connect(6379, "127.0.0.1");
      sockets.add(socket).add(upstream);
      socket.pipe(upstream).pipe(socket);
      const close = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on("error", close).on("close", close);
      upstream.on("error", close).on("close", close);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const { port } = proxy.address() as AddressInfo;
    const producer = createAgentQueue({
      connection: { host: "127.0.0.1", port },
      prefix,
      name: uniqueName(),
    });
    await producer.enqueue({ agent: "tally", input: "before" });
    await new Promise<void>((resolve) => {
      proxy.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    const started = Date.now();
    await expect(producer.enqueue({ agent: "tally", input: "during" })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_500);
    await producer.close();
  });

  it("enqueue is idempotent per run id: the same run id runs once", async () => {
    const name = uniqueName();
    const producer = queue(name);
    const runId = `idem-${randomUUID()}`;
    const ids = await Promise.all(
      [1, 2, 3].map(() => producer.enqueue({ agent: "tally", input: tallyInput(runId), runId })),
    );
    expect(ids).toEqual([runId, runId, runId]);
    worker(name);
    const summary = await producer.result(runId, { timeoutMs: 10_000 });
    expect(summary.text).toBe(`done ${runId}`);
    // Enqueued again after it finished: still one run (the job exists; its summary is the same).
    expect(await producer.enqueue({ agent: "tally", input: tallyInput(runId), runId })).toBe(runId);
    expect(await producer.result(runId, { timeoutMs: 10_000 })).toEqual(summary);
    expect(requests.filter((request) => request.runId === runId)).toHaveLength(3);
    expect(tallies.get(runId)).toEqual([1, 2]);
  });

  it("rejects run ids BullMQ cannot take and invalid runs", async () => {
    const producer = queue(uniqueName());
    for (const runId of ["a:b", "42", ""]) {
      await expect(producer.enqueue({ agent: "tally", input: "x", runId })).rejects.toSatisfy(
        InvalidArgumentError.isInstance,
      );
    }
    await expect(producer.enqueue({ agent: "", input: "x" })).rejects.toSatisfy(
      InvalidArgumentError.isInstance,
    );
    await expect(producer.result("never-enqueued")).rejects.toSatisfy(InvalidArgumentError.isInstance);
    expect(() => createAgentWorker({ connection, agents: {} })).toThrow(/agents/);
  });

  it("result() times out with RunTimeoutError while the run goes on, and reads the journal once the job is gone", async () => {
    const name = uniqueName();
    const producer = queue(name);
    const runId = `slow-${randomUUID()}`;
    overrides.set(runId, [{ ...tallyReply({ runId, toolResults: 0 } as TallyRequest, 600) }]);
    await producer.enqueue({ agent: "tally", input: tallyInput(runId), runId });
    worker(name);
    const error = await producer.result(runId, { timeoutMs: 200 }).catch((caught: unknown) => caught);
    expect(RunTimeoutError.isInstance(error)).toBe(true);
    const summary = await producer.result(runId, { timeoutMs: 10_000 });
    expect(summary.text).toBe(`done ${runId}`);
    // The job removed (retention): the summary comes from the journal's end record.
    await admin.del(`${prefix}:${name}:${runId}`);
    await admin.zrem(`${prefix}:${name}:completed`, runId);
    expect(await queue(name).result(runId)).toEqual(summary);
  });

  it("events() with a long-lived signal leaves nothing on it once each iteration ends (no AbortSignal.any)", async () => {
    const name = uniqueName();
    const producer = queue(name);
    worker(name);
    const runId = await producer.enqueue({ agent: "tally", input: tallyInput("sig") });
    await producer.result(runId, { timeoutMs: 10_000 });
    const shutdown = new AbortController();
    const any = vi.spyOn(AbortSignal, "any");
    try {
      for (let i = 0; i < 3; i++) {
        const events = await collect(producer.events(runId, { signal: shutdown.signal }));
        expect(events.at(-1)?.type).toBe("loop_end");
      }
      expect(any).not.toHaveBeenCalled();
    } finally {
      any.mockRestore();
    }
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });

  it("events() streams a run from the start until loop_end, also to a late subscriber", async () => {
    const name = uniqueName();
    const producer = queue(name);
    const runId = `events-${randomUUID()}`;
    const early = collect(producer.events(runId)); // subscribed before the run is even enqueued
    await producer.enqueue({ agent: "tally", input: tallyInput(runId), runId });
    worker(name);
    const live = await early;
    await producer.result(runId, { timeoutMs: 10_000 });
    const late = await collect(queue(name).events(runId));
    expect(late).toEqual(live);
    expect(live.map((event) => event.type)).toEqual([
      "loop_start",
      "turn_start",
      "model_call",
      "action",
      "observation",
      "turn_start",
      "model_call",
      "action",
      "observation",
      "turn_start",
      "model_call",
      "loop_end",
    ]);
    expect(live.at(-1)).toMatchObject({
      type: "loop_end",
      data: { stopReason: "completed", text: `done ${runId}` },
    });
  });

  it("keeps the agent's own onEvent hook next to the worker's event stream", async () => {
    const name = uniqueName();
    const seen: string[] = [];
    worker(name, { agents: { tally: () => makeAgent({ onEvent: (event) => void seen.push(event.type) }) } });
    const producer = queue(name);
    const runId = await producer.enqueue({ agent: "tally", input: tallyInput("hooked") });
    await producer.result(runId, { timeoutMs: 10_000 });
    expect(seen.at(-1)).toBe("loop_end");
    expect((await collect(producer.events(runId))).map((event) => event.type)).toEqual(seen);
  });

  it("runs the runs of one session one at a time, in order, each on the history of those before", async () => {
    const name = uniqueName();
    worker(name, { concurrency: 8 });
    const producer = queue(name);
    const sessionId = `s-${randomUUID().slice(0, 8)}`;
    const runIds = Array.from({ length: 4 }, (_, i) => `sess${i}-${randomUUID().slice(0, 8)}`);
    await Promise.all(
      runIds.map((runId) =>
        producer.enqueue({ agent: "tally", input: tallyInput(runId, sessionId), runId, sessionId }),
      ),
    );
    const summaries = await Promise.all(runIds.map((runId) => producer.result(runId, { timeoutMs: 20_000 })));
    expect(summaries.map((summary) => summary.text)).toEqual(runIds.map((runId) => `done ${runId}`));
    // Each run saw the whole history of the runs before it: 6 messages per run, plus the system prompt.
    const firstRequests = runIds.map((runId) => requests.find((request) => request.runId === runId)!);
    const sizes = firstRequests.map((request) => request.messageCount).sort((a, b) => a - b);
    expect(sizes).toEqual([2, 8, 14, 20]);
    const stored = await new RedisStore({ client: admin, prefix: `${prefix}:sessions:` }).load(sessionId);
    expect(stored?.messages).toHaveLength(24);
    expect(stored?.messages.some((message) => message.role === "system")).toBe(false);
    // The first run enqueued again after its job was removed: answered from the journal, history untouched.
    await admin.del(`${prefix}:${name}:${runIds[0]}`);
    await admin.zrem(`${prefix}:${name}:completed`, runIds[0]!);
    await producer.enqueue({
      agent: "tally",
      input: tallyInput(runIds[0]!, sessionId),
      runId: runIds[0],
      sessionId,
    });
    expect(await producer.result(runIds[0]!, { timeoutMs: 10_000 })).toEqual(summaries[0]);
    const again = await new RedisStore({ client: admin, prefix: `${prefix}:sessions:` }).load(sessionId);
    expect(again?.messages).toEqual(stored?.messages);
    expect(requests.filter((request) => request.runId === runIds[0])).toHaveLength(3);
  });

  it("retries a run that ended with an error and resumes it; an unknown agent fails the job", async () => {
    const name = uniqueName();
    worker(name);
    const producer = queue(name);
    const runId = `flaky-${randomUUID()}`;
    overrides.set(runId, [
      { ...tallyReply({ runId, toolResults: 0 } as TallyRequest, 5) },
      { fault: { status: 400 } },
    ]);
    await producer.enqueue({ agent: "tally", input: tallyInput(runId), runId });
    const summary = await producer.result(runId, { timeoutMs: 15_000 });
    expect(summary).toMatchObject({ text: `done ${runId}`, stopReason: "completed" });
    // The first model response was journaled: the retry did not ask for it again, nor re-run tally 1.
    expect(requests.filter((request) => request.runId === runId)).toHaveLength(4);
    expect(tallies.get(runId)).toEqual([1, 2]);
    const events = await collect(producer.events(runId));
    expect(events.filter((event) => event.type === "loop_end")).toHaveLength(1);
    // The resumed attempt did not write its replayed steps again: each step's events are in the stream once.
    expect(events.some((event) => event.replayed)).toBe(false);
    expect(events.filter((event) => event.type === "loop_start")).toHaveLength(1);
    const steps = events.flatMap((event) =>
      event.type === "action" || event.type === "observation"
        ? [`${event.type}:${event.data.toolCallId}`]
        : [],
    );
    expect(steps).toEqual([
      `action:call-${runId}-1`,
      `observation:call-${runId}-1`,
      `action:call-${runId}-2`,
      `observation:call-${runId}-2`,
    ]);

    const lost = await producer.enqueue({ agent: "nobody", input: "x" });
    await expect(producer.result(lost, { timeoutMs: 10_000 })).rejects.toSatisfy(RunFailedError.isInstance);
    const ended = await collect(producer.events(lost));
    expect(ended.map((event) => event.type)).toEqual(["error", "loop_end"]);
    expect(ended[0]).toMatchObject({
      data: { fatal: true, message: expect.stringContaining('unknown agent "nobody"') },
    });
  });

  it("events() ends with RunFailedError when the job failed without ending its stream", async () => {
    const name = uniqueName();
    const producer = queue(name);
    const runId = await producer.enqueue({ agent: "tally", input: tallyInput("stalled-out") });
    const iteration = collect(producer.events(runId));
    // Fail the job by hand, as BullMQ does for a job that stalled too often (no processor runs).
    const manual = new Worker(name, null, { connection, prefix });
    const job = await manual.getNextJob("manual-token");
    await job!.moveToFailed(new UnrecoverableError("job stalled more than allowable limit"), "manual-token");
    await manual.close();
    const error = await iteration.catch((caught: unknown) => caught);
    expect(RunFailedError.isInstance(error)).toBe(true);
    expect((error as RunFailedError).reason).toMatch(/stalled more than allowable limit/);
    await expect(producer.result(runId)).rejects.toSatisfy(RunFailedError.isInstance);
  });

  it("close() is graceful: the run in flight finishes, no new job is taken", async () => {
    const name = uniqueName();
    const producer = queue(name);
    const slow = `graceful-${randomUUID()}`;
    overrides.set(slow, [{ ...tallyReply({ runId: slow, toolResults: 0 } as TallyRequest, 400) }]);
    const running = worker(name);
    await producer.enqueue({ agent: "tally", input: tallyInput(slow), runId: slow });
    while (!requests.some((request) => request.runId === slow))
      await new Promise((resolve) => setTimeout(resolve, 10));
    await running.close();
    await running.closed;
    expect(await admin.zscore(`${prefix}:${name}:completed`, slow)).not.toBeNull();
    expect((await producer.result(slow)).text).toBe(`done ${slow}`);
    const later = await producer.enqueue({ agent: "tally", input: tallyInput("later") });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests.some((request) => request.runId === "later")).toBe(false);
    expect(await admin.lpos(`${prefix}:${name}:wait`, later)).not.toBeNull();
    worker(name);
    expect((await producer.result(later, { timeoutMs: 10_000 })).text).toBe("done later");
  });
});
