// Steering queued runs (`queue.send`) on the real Redis at 127.0.0.1:6379: a worker running a slow agent gets
// a message sent from the producer side mid-run (the model's next request has it, once); messages sent before
// the job starts come right after the input; finished, paused and unknown runs refuse messages; the bounds; a
// retried attempt adds a journaled message once; a message that came after the last turn is reported; and a
// producer in a process of its own, on the built package (dist/: `npm test` builds it first).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { InvalidArgumentError } from "../../src/errors/invalid-argument-error.js";
import {
  type AgentQueue,
  type AgentQueueOptions,
  type AgentWorkerOptions,
  createAgentQueue,
  createAgentWorker,
} from "../../src/integrations/queue/index.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { type MockOpenAIServer, type MockReply, startMockOpenAIServer } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";

const connection = { host: "127.0.0.1", port: 6379 };
const prefix = `aq-steer-${randomUUID().slice(0, 8)}`;
const admin = new Redis(connection);
let server: MockOpenAIServer;

/** One chat request as the mock server saw it. */
interface Seen {
  runId: string;
  /** The request's messages, role and text. */
  messages: Array<{ role: string; content: string }>;
}
const seen: Seen[] = [];
/** Per run: each call's delay, a call answered with a 400, whether the tool needs approval. */
const plans = new Map<string, { delays?: number[]; failCall?: number; gated?: boolean }>();
const requestsOf = (runId: string) => seen.filter((request) => request.runId === runId);

/** A two-turn run: a `note` call (or `gated_note`, which needs approval), then the answer `done <run id>`. */
function reply(body: { messages: unknown[] }): MockReply {
  const messages = (body.messages as Array<{ role: string; content?: unknown }>).map((message) => ({
    role: message.role,
    content: typeof message.content === "string" ? message.content : "",
  }));
  const runId = /run=(\S+)/.exec(messages.find((m) => m.role === "user")?.content ?? "")?.[1] ?? "?";
  seen.push({ runId, messages });
  const call = requestsOf(runId).length;
  const plan = plans.get(runId) ?? {};
  if (plan.failCall === call) return { fault: { status: 400 } };
  const delayMs = plan.delays?.[call - 1] ?? 5;
  if (!messages.some((message) => message.role === "tool")) {
    const name = plan.gated ? "gated_note" : "note";
    return { delayMs, toolCalls: [{ id: `call-${runId}`, name, arguments: {} }] };
  }
  return { delayMs, text: `done ${runId}` };
}

const noteTool = (name: string, needsApproval: boolean) =>
  tool({
    name,
    description: "Takes a note",
    parameters: { type: "object", properties: {} },
    idempotent: true,
    needsApproval,
    execute: () => "noted",
  });

const makeAgent = () =>
  new Agent({
    model: createOpenAI({ baseURL: server.url, apiKey: "k", retry: { maxRetries: 0 } })("mock-model"),
    tools: [noteTool("note", false), noteTool("gated_note", true)],
    system: "You take notes.",
    pricing: { "mock-model": { inputPerMTok: 0, outputPerMTok: 0 } },
  });

const resources: Array<{ close(): Promise<void> }> = [];
function queue(name: string, extra: Partial<AgentQueueOptions> = {}): AgentQueue {
  const created = createAgentQueue({ connection, prefix, name, ...extra });
  resources.push(created);
  return created;
}
function worker(name: string, extra: Partial<AgentWorkerOptions> = {}) {
  const created = createAgentWorker({
    connection,
    prefix,
    name,
    agents: { notes: makeAgent },
    store: new RedisStore({ client: admin, prefix: `${prefix}:sessions:` }),
    steeringPollMs: 20,
    ...extra,
  });
  resources.push(created);
  return created;
}
const uniqueName = () => `q-${randomUUID().slice(0, 8)}`;
const newRunId = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const input = (runId: string) => `take a note run=${runId}`;
async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}
async function untilRequests(runId: string, count: number): Promise<void> {
  await expect
    .poll(() => requestsOf(runId).length, { timeout: 10_000, interval: 5 })
    .toBeGreaterThanOrEqual(count);
}
const roles = (request: Seen | undefined) => request?.messages.map((message) => message.role);
const occurrences = (request: Seen | undefined, text: string) =>
  request?.messages.filter((message) => message.content === text).length;

beforeAll(async () => {
  server = await startMockOpenAIServer({ script: reply });
});

afterAll(async () => {
  for (const resource of resources.reverse()) await resource.close();
  await server.close();
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

describe("queue.send", () => {
  it("delivers a message sent mid-run: the model's next request has it after the tool result, once", async () => {
    const name = uniqueName();
    const producer = queue(name);
    worker(name);
    const runId = newRunId("mid");
    plans.set(runId, { delays: [400] }); // the first model call is slow: the message comes during it
    await producer.enqueue({ agent: "notes", input: input(runId), runId });
    await untilRequests(runId, 1);
    expect(await producer.send(runId, "Use bullet points.")).toEqual({ queued: true, seq: 1 });
    const summary = await producer.result(runId, { timeoutMs: 10_000 });
    expect(summary).toMatchObject({ stopReason: "completed", text: `done ${runId}`, turns: 2 });
    const [first, second] = requestsOf(runId);
    expect(occurrences(first, "Use bullet points.")).toBe(0);
    expect(roles(second)).toEqual(["system", "user", "assistant", "tool", "user"]);
    expect(second?.messages.at(-1)?.content).toBe("Use bullet points.");
    const events = await collect(producer.events(runId));
    expect(events.filter((event) => event.type === "user_message")).toMatchObject([
      { data: { content: "Use bullet points." } },
    ]);
    expect(await producer.send(runId, "Too late.")).toEqual({ queued: false, reason: "finished" });
  });

  it("applies messages sent before the job started at its first turn boundary, in order", async () => {
    const name = uniqueName();
    const producer = queue(name);
    const runId = newRunId("early");
    await producer.enqueue({ agent: "notes", input: input(runId), runId });
    expect(await producer.send(runId, "First: be brief.")).toEqual({ queued: true, seq: 1 });
    expect(await producer.send(runId, "Second: in French.")).toEqual({ queued: true, seq: 2 });
    worker(name);
    await producer.result(runId, { timeoutMs: 10_000 });
    const [first, second] = requestsOf(runId);
    expect(roles(first)).toEqual(["system", "user", "user", "user"]);
    expect(first?.messages.slice(2).map((message) => message.content)).toEqual([
      "First: be brief.",
      "Second: in French.",
    ]);
    expect(occurrences(second, "First: be brief.")).toBe(1);
  });

  it("refuses messages to unknown, paused and finished runs", async () => {
    const name = uniqueName();
    const producer = queue(name);
    worker(name);
    expect(await producer.send(newRunId("nobody"), "hello?")).toEqual({
      queued: false,
      reason: "unknown_run",
    });
    const runId = newRunId("gated");
    plans.set(runId, { gated: true });
    await producer.enqueue({ agent: "notes", input: input(runId), runId });
    expect((await producer.result(runId, { timeoutMs: 10_000 })).stopReason).toBe("awaiting_approval");
    // Paused for approval: its resume job takes no messages (agent.resume has no inbox).
    expect(await producer.send(runId, "hello?")).toEqual({ queued: false, reason: "paused" });
    await producer.resume(runId, { approve: [`call-${runId}`] });
    expect((await producer.result(runId, { timeoutMs: 10_000 })).text).toBe(`done ${runId}`);
    expect(await producer.send(runId, "hello?")).toEqual({ queued: false, reason: "finished" });
    // The job removed (retention) and the state expired: the journal's end says it finished.
    await admin.del(`${prefix}:${name}:${runId}`, `${prefix}:${name}:steering-state:${runId}`);
    expect(await producer.send(runId, "hello?")).toEqual({ queued: false, reason: "finished" });
    await expect(producer.send("a:b", "x")).rejects.toSatisfy(InvalidArgumentError.isInstance);
  });

  it("bounds a message's size and the messages waiting for a run (InvalidArgumentError)", async () => {
    const name = uniqueName();
    const producer = queue(name, { maxMessageChars: 20, maxPendingMessages: 2 });
    const runId = await producer.enqueue({ agent: "notes", input: input(newRunId("bounds")) });
    const rejected = async (message: string) => {
      const error = await producer.send(runId, message).catch((caught: unknown) => caught);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      return (error as Error).message;
    };
    expect(await rejected("x".repeat(21))).toMatch(/21 characters \(at most 20/);
    expect(await rejected("  ")).toMatch(/empty/);
    await producer.send(runId, "one");
    await producer.send(runId, "two");
    expect(await rejected("three")).toMatch(/2 messages waiting/);
    expect(() => createAgentQueue({ connection, maxPendingMessages: 0 })).toThrow(/maxPendingMessages/);
    expect(() => createAgentWorker({ connection, agents: { notes: makeAgent }, steeringPollMs: -1 })).toThrow(
      /steeringPollMs/,
    );
  });

  it("a retried attempt adds the journaled message again from the journal, not twice", async () => {
    const name = uniqueName();
    const producer = queue(name);
    worker(name);
    const runId = newRunId("retry");
    // Call 2 (the first with the message) fails: the attempt fails and BullMQ retries it, resuming the run.
    plans.set(runId, { delays: [400], failCall: 2 });
    await producer.enqueue({ agent: "notes", input: input(runId), runId });
    await untilRequests(runId, 1);
    await producer.send(runId, "Cite sources.");
    expect((await producer.result(runId, { timeoutMs: 15_000 })).text).toBe(`done ${runId}`);
    const requests = requestsOf(runId);
    expect(requests).toHaveLength(3); // the first response was journaled: not asked again
    for (const request of requests.slice(1)) {
      expect(roles(request)).toEqual(["system", "user", "assistant", "tool", "user"]);
      expect(occurrences(request, "Cite sources.")).toBe(1);
    }
    const events = await collect(producer.events(runId));
    expect(events.filter((event) => event.type === "user_message")).toHaveLength(1);
  });

  it("reports a message that reached the run after its last turn boundary (MessageNotDelivered)", async () => {
    const name = uniqueName();
    const producer = queue(name);
    worker(name, { steeringPollMs: 60_000 }); // read once at the start, then not before the run ends
    const runId = newRunId("late");
    plans.set(runId, { delays: [5, 300] });
    await producer.enqueue({ agent: "notes", input: input(runId), runId });
    await untilRequests(runId, 2);
    expect(await producer.send(runId, "Wait!")).toEqual({ queued: true, seq: 1 });
    expect((await producer.result(runId, { timeoutMs: 10_000 })).text).toBe(`done ${runId}`);
    const events = await collect(producer.events(runId));
    expect(events.slice(-2)).toMatchObject([
      { type: "error", data: { name: "MessageNotDelivered", fatal: false } },
      { type: "loop_end", data: { stopReason: "completed" } },
    ]);
    expect(events.at(-2)?.type === "error" && events.at(-2)?.data).toMatchObject({
      message: expect.stringContaining(`1 message sent to run "${runId}"`),
    });
    expect(await admin.exists(`${prefix}:${name}:steering:${runId}`)).toBe(0);
  });

  it("works from a producer in another process on the built package", async () => {
    const name = uniqueName();
    const producer = queue(name);
    worker(name);
    const runId = newRunId("proc");
    plans.set(runId, { delays: [1_500] });
    // The producer process loads first (its import alone can outlast the model call on a loaded machine) and
    // sends when told, during the run's first model call.
    const script = fileURLToPath(new URL("./send-from-process.mjs", import.meta.url));
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, QUEUE_PREFIX: prefix, QUEUE_NAME: name, RUN_ID: runId, MESSAGE: "From afar." },
      stdio: ["pipe", "pipe", "inherit"],
      timeout: 30_000,
    });
    let stdout = "";
    child.stdout.setEncoding("utf8");
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: string) => {
        stdout += chunk;
        if (stdout.startsWith("ready\n")) resolve();
      });
      void exited.then((code) =>
        reject(new Error(`the producer process exited (${code}) before it was ready`)),
      );
    });
    await producer.enqueue({ agent: "notes", input: input(runId), runId });
    await untilRequests(runId, 1);
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(JSON.parse(stdout.slice("ready\n".length))).toEqual({ queued: true, seq: 1 });
    await producer.result(runId, { timeoutMs: 10_000 });
    expect(requestsOf(runId)[1]?.messages.at(-1)).toEqual({ role: "user", content: "From afar." });
  });
});
