// agentloop/queue on a real local Redis Cluster (three redis-server processes started here, joined with
// `redis-cli --cluster create`): a queue and a worker on an ioredis `Cluster` with a hash-tagged prefix run
// agent runs on the scripted model: results, run events read back, steering with `queue.send`, the order of a
// session's runs (their history in the default RedisStore, spread over the cluster), the default journal.
import { randomUUID } from "node:crypto";
import type { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { InvalidArgumentError } from "../../src/errors/invalid-argument-error.js";
import {
  type AgentQueue,
  type AgentWorker,
  createAgentQueue,
  createAgentWorker,
} from "../../src/integrations/queue/index.js";
import { RedisJournal, RedisStore } from "../../src/integrations/redis/index.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import type { ModelRequest } from "../../src/models/model.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";
import { tool } from "../../src/tools/tool.js";
import {
  type LocalRedisCluster,
  REDIS_CLUSTER_SKIP_REASON,
  startRedisCluster,
} from "../test-utils/start-redis-cluster.js";

if (REDIS_CLUSTER_SKIP_REASON !== undefined) console.warn(REDIS_CLUSTER_SKIP_REASON);

/** Per run (by its input `run=<id>`): how long its `wait` tool takes. */
const waits = new Map<string, number>();
/** Every model request, by run, with its messages as role: text. */
const requests = new Map<string, string[][]>();
/** The order in which runs' tools started and ended. */
const timeline: string[] = [];

/** The run a request belongs to: the last `run=<id>` input in it (a session's later run sees earlier ones). */
const runOf = (request: ModelRequest): string => {
  const inputs = request.messages.flatMap((message) =>
    message.role === "user" && typeof message.content === "string"
      ? (/run=(\S+)/.exec(message.content)?.[1] ?? [])
      : [],
  );
  return inputs.at(-1) ?? "?";
};

/** Two turns: a `wait` call, then (once its result follows the run's input) the answer `done <run id>`. */
function makeAgent(): Agent {
  const model = new ScriptedModel((request) => {
    const runId = runOf(request);
    const seen = request.messages.map((message) => `${message.role}: ${String(message.content)}`);
    requests.set(runId, [...(requests.get(runId) ?? []), seen]);
    const after = request.messages.slice(indexOfInput(request, runId) + 1);
    if (after.some((message) => message.role === "tool")) return { text: `done ${runId}` };
    return { toolCalls: [{ id: `w-${runId}`, name: "wait", arguments: { runId } }] };
  });
  const wait = tool({
    name: "wait",
    description: "waits",
    parameters: z.object({ runId: z.string() }),
    execute: async ({ runId }) => {
      timeline.push(`start ${runId}`);
      await new Promise((resolve) => setTimeout(resolve, waits.get(runId) ?? 5));
      timeline.push(`end ${runId}`);
      return "waited";
    },
  });
  return new Agent({ model, tools: [wait] });
}

function indexOfInput(request: ModelRequest, runId: string): number {
  return request.messages.findIndex(
    (message) => message.role === "user" && String(message.content).includes(`run=${runId}`),
  );
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe.skipIf(REDIS_CLUSTER_SKIP_REASON !== undefined)("agentloop/queue on a Redis Cluster", () => {
  let cluster: LocalRedisCluster;
  let queue: AgentQueue;
  let worker: AgentWorker;
  /** A client of the test's own, to look at the keys (all on the cluster, none on a server elsewhere). */
  let admin: Cluster;
  const prefix = "{agentloop}";
  const name = `q-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    // BullMQ's workers need maxRetriesPerRequest: null on the nodes' connections.
    const connection = cluster.connect({ redisOptions: { maxRetriesPerRequest: null } });
    admin = cluster.connect();
    queue = createAgentQueue({ connection, prefix, name });
    worker = createAgentWorker({
      connection,
      prefix,
      name,
      agents: { waiter: makeAgent },
      concurrency: 4,
      sessionRetryDelayMs: 50,
      steeringPollMs: 20,
    });
  }, 60_000);
  afterAll(async () => {
    await queue?.close();
    await worker?.close();
    await cluster?.stop();
  });

  it("refuses a prefix and name without a hash tag on a cluster (BullMQ's scripts would fail with CROSSSLOT)", () => {
    const connection = cluster.connect();
    expect(() => createAgentQueue({ connection, name: "plain" })).toThrow(InvalidArgumentError);
    expect(() => createAgentQueue({ connection, prefix: "bull", name: "plain" })).toThrow(/hash tag/);
    expect(() => createAgentWorker({ connection, agents: { waiter: makeAgent } })).toThrow(/hash tag/);
    // A tag in the name is as good as one in the prefix.
    const tagged = createAgentQueue({ connection, name: "{plain}" });
    return tagged.close();
  });

  it("runs agent runs: results and their events read back", async () => {
    const runIds = ["a", "b", "c"].map((label) => `${label}-${randomUUID().slice(0, 8)}`);
    await Promise.all(
      runIds.map((runId) => queue.enqueue({ agent: "waiter", input: `go run=${runId}`, runId })),
    );
    for (const runId of runIds) {
      const summary = await queue.result(runId, { timeoutMs: 15_000 });
      expect(summary).toMatchObject({ runId, stopReason: "completed", text: `done ${runId}`, turns: 2 });
      const events = await collect(queue.events(runId));
      expect(events.map((event) => event.type)).toContain("observation");
      expect(events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "completed" } });
      // The stream and the job are on the cluster, in the slot of the queue's hash tag.
      expect(await admin.exists(`${prefix}:${name}:events:${runId}`, `${prefix}:${name}:${runId}`)).toBe(2);
    }
    // The default journal (under the queue's hash-tagged prefix) lists them as finished.
    const journal = new RedisJournal({ client: admin, prefix: `${prefix}:${name}:durable:` });
    const finished = (await journal.list()).filter((info) => runIds.includes(info.runId));
    expect(finished.map((info) => info.finished)).toEqual([true, true, true]);
  });

  it("delivers a message sent with queue.send mid-run at the next turn", async () => {
    const runId = `steer-${randomUUID().slice(0, 8)}`;
    waits.set(runId, 600);
    await queue.enqueue({ agent: "waiter", input: `go run=${runId}`, runId });
    await expect.poll(() => timeline.includes(`start ${runId}`), { timeout: 10_000 }).toBe(true);
    expect(await queue.send(runId, "Only flights before noon.")).toEqual({ queued: true, seq: 1 });
    await queue.result(runId, { timeoutMs: 15_000 });
    const second = requests.get(runId)?.[1];
    expect(second?.at(-1)).toBe("user: Only flights before noon.");
    const events = await collect(queue.events(runId));
    expect(events.filter((event) => event.type === "user_message")).toMatchObject([
      { data: { content: "Only flights before noon." } },
    ]);
    expect(await queue.send(runId, "Too late.")).toEqual({ queued: false, reason: "finished" });
    expect(await admin.hget(`${prefix}:${name}:steering-state:${runId}`, "closed")).toBe("finished");
  });

  it("runs a session's runs one at a time in enqueue order, its history in the default RedisStore", async () => {
    const sessionId = `s-${randomUUID().slice(0, 8)}`;
    const [first, second] = ["one", "two"].map((label) => `${label}-${randomUUID().slice(0, 8)}`) as [
      string,
      string,
    ];
    waits.set(first, 500);
    await queue.enqueue({ agent: "waiter", input: `go run=${first}`, runId: first, sessionId });
    await queue.enqueue({ agent: "waiter", input: `go run=${second}`, runId: second, sessionId });
    await queue.result(second, { timeoutMs: 20_000 });
    expect(timeline.indexOf(`start ${second}`)).toBeGreaterThan(timeline.indexOf(`end ${first}`));
    // The second run's first request carries the first run's whole exchange.
    expect(requests.get(second)?.[0]?.filter((line) => line.startsWith("user:"))).toEqual([
      `user: go run=${first}`,
      `user: go run=${second}`,
    ]);
    const store = new RedisStore({ client: admin });
    const stored = await store.load(sessionId);
    expect(stored?.messages.filter((message) => message.role === "assistant")).toHaveLength(4);
  });
});
