// Sessions and approvals through the queue, on the real Redis at 127.0.0.1:6379: runs of one session start in
// the order they were enqueued, and a run paused for approval is decided from another queue object (as a web
// request would) and continued by another worker, its events readable with a cursor.
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import {
  type AgentQueue,
  type AgentWorker,
  createAgentQueue,
  createAgentWorker,
} from "../../src/integrations/queue/index.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";

const connection = { host: "127.0.0.1", port: 6379 };
const prefix = `aq-sess-${randomUUID().slice(0, 8)}`;
const admin = new Redis(connection);
const store = new RedisStore({ client: admin, prefix: `${prefix}:sessions:`, lockTtlMs: 5_000 });
let server: MockOpenAIServer;

/** Per session: the runs whose `note` tool started, in order. */
const started = new Map<string, string[]>();
/** Real executions of the gated `pay` tool, by recipient. */
const paid: string[] = [];

const note = tool<{ run: string; session: string }>({
  name: "note",
  description: "Notes that a run started",
  parameters: {
    type: "object",
    properties: { run: { type: "string" }, session: { type: "string" } },
    required: ["run", "session"],
  },
  execute: ({ run, session }) => {
    started.set(session, [...(started.get(session) ?? []), run]);
    return "noted";
  },
});
const pay = tool<{ to: string }>({
  name: "pay",
  description: "Pays someone",
  parameters: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
  needsApproval: true,
  execute: ({ to }) => {
    paid.push(to);
    return `paid ${to}`;
  },
});

/**
 * The script: a user message `note <run> <session>` → call `note`; `pay <who>` → call `pay`; after a tool
 * result → the text `done <last user message>`.
 */
function reply(body: { messages: unknown }) {
  const messages = body.messages as Array<{ role: string; content?: unknown }>;
  const last = messages.at(-1);
  const user = messages.findLast((message) => message.role === "user");
  const text = typeof user?.content === "string" ? user.content : "";
  if (last?.role === "tool") return { delayMs: 5, text: `done ${text}` };
  const [verb, a = "", b = ""] = text.split(" ");
  if (verb === "pay") return { toolCalls: [{ id: `pay-${a}`, name: "pay", arguments: { to: a } }] };
  return { delayMs: 5, toolCalls: [{ id: `note-${a}`, name: "note", arguments: { run: a, session: b } }] };
}

const agent = () =>
  new Agent({
    model: createOpenAI({ baseURL: server.url, apiKey: "k", retry: { maxRetries: 0 } })("mock-model"),
    tools: [note, pay],
    pricing: { "mock-model": { inputPerMTok: 0, outputPerMTok: 0 } },
  });

const resources: Array<{ close(): Promise<void> }> = [];
const queue = (name: string): AgentQueue => {
  const created = createAgentQueue({ connection, prefix, name });
  resources.push(created);
  return created;
};
const worker = (name: string): AgentWorker => {
  const created = createAgentWorker({
    connection,
    prefix,
    name,
    agents: { chat: agent },
    store,
    sessionRetryDelayMs: 30,
  });
  resources.push(created);
  return created;
};
const uniqueName = () => `q-${randomUUID().slice(0, 8)}`;
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
const kinds = (events: readonly AgentEvent[]) => events.map((event) => event.type);

beforeAll(async () => {
  server = await startMockOpenAIServer({ script: reply });
});

afterAll(async () => {
  for (const resource of resources.reverse()) await resource.close();
  await server.close();
  const keys = await admin.keys(`${prefix}:*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

describe("queued sessions", () => {
  it("runs of one session start in the order they were enqueued, on two workers, also after waiting", async () => {
    const name = uniqueName();
    const producer = queue(name);
    const sessionId = `s-${randomUUID().slice(0, 8)}`;
    // The session is busy (a direct run holds its lock) while A, B, C are enqueued: they all wait and retry
    // with jitter; without the order, whichever retries first after the release would start first.
    const held = await store.lock(sessionId, { ttlMs: 5_000 });
    const runIds = ["A", "B", "C", "D"].map((run) => `${run}-${randomUUID().slice(0, 8)}`);
    worker(name);
    worker(name);
    for (const runId of runIds) {
      await producer.enqueue({ agent: "chat", input: `note ${runId} ${sessionId}`, runId, sessionId });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(started.get(sessionId)).toBeUndefined();
    await held?.release();
    const summaries = await Promise.all(runIds.map((runId) => producer.result(runId, { timeoutMs: 10_000 })));
    expect(summaries.map((summary) => summary.stopReason)).toEqual(runIds.map(() => "completed"));
    expect(started.get(sessionId)).toEqual(runIds);
    const history = (await store.load(sessionId))?.messages ?? [];
    expect(history.filter((m) => m.role === "user").map((m) => m.content)).toEqual(
      runIds.map((runId) => `note ${runId} ${sessionId}`),
    );
    expect(history).toHaveLength(runIds.length * 4);
    // Every run left the order.
    expect(await admin.exists(`${prefix}:${name}:session-order:${sessionId}`)).toBe(0);
  });

  it("a run paused for approval completes its job; resume from another queue object continues it on another worker", async () => {
    const name = uniqueName();
    const sessionId = `s-${randomUUID().slice(0, 8)}`;
    const web = queue(name);
    const first = worker(name);
    await web.enqueue({ agent: "chat", input: `note warmup-${sessionId} ${sessionId}`, sessionId });
    const runId = `pay-${randomUUID().slice(0, 8)}`;
    await web.enqueue({ agent: "chat", input: "pay bob", runId, sessionId });
    const paused = await web.result(runId, { timeoutMs: 10_000 });
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(paused.messages.at(-1)?.toolCalls?.map((call) => call.id)).toEqual(["pay-bob"]);
    const before = await collect(web.eventEntries(runId));
    expect(before.at(-1)?.event).toMatchObject({
      type: "loop_end",
      data: { stopReason: "awaiting_approval" },
    });
    expect(kinds(before.map((entry) => entry.event))).toContain("approval_requested");
    // The paused run left the session's order: a later run of the session is not blocked by it.
    expect(await admin.lpos(`${prefix}:${name}:session-order:${sessionId}`, runId)).toBeNull();
    await first.close();

    // A web request: a new queue object decides; another worker continues the run.
    const decider = queue(name);
    const jobId = await decider.resume(runId, { approve: [`pay-bob`], decidedBy: "alice" });
    expect(jobId).toBe(`${runId}:resume:1`);
    worker(name);
    const done = await decider.result(runId, { timeoutMs: 10_000 });
    expect(done).toMatchObject({ stopReason: "completed", text: "done pay bob" });
    expect(paid).toEqual(["bob"]);

    // A reader that saw everything up to the paused loop_end reads on from its id: the rest, once.
    const after = await collect(web.eventEntries(runId, { after: before.at(-1)?.id }));
    const rest = after.map((entry) => entry.event);
    expect(rest.some((event) => event.replayed)).toBe(false);
    expect(kinds(rest)).toEqual(["action", "observation", "turn_start", "model_call", "loop_end"]);
    expect(rest.at(-1)).toMatchObject({ data: { stopReason: "completed" } });
    // From the start, a reader stops at the paused run's loop_end; ids are strictly increasing and unique.
    const ids = [...before, ...after].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);

    const history = (await store.load(sessionId))?.messages ?? [];
    expect(history.map((m) => `${m.role}:${typeof m.content === "string" ? m.content : ""}`)).toEqual([
      `user:note warmup-${sessionId} ${sessionId}`,
      "assistant:",
      "tool:noted",
      `assistant:done note warmup-${sessionId} ${sessionId}`,
      "user:pay bob",
      "assistant:",
      "tool:paid bob",
      "assistant:done pay bob",
    ]);
    expect((await store.load(sessionId))?.state ?? {}).toEqual({});

    // The same decision again (a retried request): applied once, the run's result again; nothing runs twice.
    await decider.resume(runId, { approve: ["pay-bob"] });
    expect(await decider.result(runId, { timeoutMs: 10_000 })).toMatchObject({ text: "done pay bob" });
    // A different decision on the finished run: the resume job fails for good; nothing runs.
    await decider.resume(runId, { deny: ["pay-bob"] });
    await expect(decider.result(runId, { timeoutMs: 10_000 })).rejects.toThrow(/has finished/);
    expect(paid).toEqual(["bob"]);
  });

  it("resume checks its arguments", async () => {
    const producer = queue(uniqueName());
    await expect(producer.resume("nope", { approve: ["x"] })).rejects.toThrow(/name the agent/);
    await expect(producer.resume("a:b", {})).rejects.toThrow(/runId/);
    await expect(
      producer.resume("x", { approve: "g1" as unknown as string[], agent: "chat" }),
    ).rejects.toThrow(/approve/);
  });
});
