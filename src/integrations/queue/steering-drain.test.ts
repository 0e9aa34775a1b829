// The Redis side of `queue.send` on the real Redis at 127.0.0.1:6379, without BullMQ workers: the send
// script's refusals and bounds, and the drain's exactly-once hand-over across attempts (the journal's
// `user_message` records say which messages earlier attempts added).
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { JOURNAL_RECORD_VERSION, type JournalRecord } from "../../durable/journal-record.js";
import { MemoryJournal } from "../../durable/memory-journal.js";
import { journalRecords } from "../../durable/run-journal-contract.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { closeSteeringInbox, takeSteeringMessages } from "../../loop/steering-inbox.js";
import type { QueueKeyspace } from "./agent-job.js";
import { closeQueuedSteering, steeringKey, steeringStateKey } from "./queued-steering.js";
import { sendSteeringMessage } from "./send-steering-message.js";
import { SteeringDrain } from "./steering-drain.js";

const admin = new Redis({ host: "127.0.0.1", port: 6379 });
const keyspace: QueueKeyspace = { prefix: `steer-test-${randomUUID().slice(0, 8)}`, name: "q" };
const journal = new MemoryJournal();

afterAll(async () => {
  const keys = await admin.keys(`${keyspace.prefix}:*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

/** A run whose job is waiting (a job hash without `finishedOn`). */
async function queuedRun(): Promise<string> {
  const runId = `run-${randomUUID().slice(0, 8)}`;
  await admin.hset(jobKey(runId), "name", "agent");
  return runId;
}
const jobKey = (runId: string) => `${keyspace.prefix}:${keyspace.name}:${runId}`;

function send(runId: string, message: unknown, bounds: { maxPendingMessages?: number } = {}) {
  return sendSteeringMessage({
    client: admin,
    keyspace,
    jobKey: jobKey(runId),
    runId,
    message,
    journal: () => journal,
    maxMessageChars: 50,
    maxPendingMessages: bounds.maxPendingMessages ?? 10,
    ttlSeconds: 60,
  });
}

const drainOf = (runId: string, pollMs = 10_000) =>
  new SteeringDrain({ client: admin, keyspace, runId, journal, pollMs });
const waiting = (runId: string) => admin.lrange(steeringKey(keyspace, runId), 0, -1);
const userMessage = (content: string): JournalRecord => ({
  v: JOURNAL_RECORD_VERSION,
  kind: "user_message",
  turn: 2,
  content,
  at: Date.now(),
});
/** What the loop does at a turn boundary: takes the inbox's messages, then reports them added (or not). */
async function applyAll(drain: SteeringDrain, added: boolean): Promise<string[]> {
  const taken = takeSteeringMessages(drain.inbox);
  for (const message of taken) message.settle(added);
  await new Promise((resolve) => setTimeout(resolve, 20)); // the removals run after the settles
  return taken.map((message) => String(message.content));
}

describe("queue.send's Redis side", () => {
  it("numbers the messages of a run and keeps them in Redis until a worker drains them", async () => {
    const runId = await queuedRun();
    expect(await send(runId, "first")).toEqual({ queued: true, seq: 1 });
    expect(await send(runId, "second")).toEqual({ queued: true, seq: 2 });
    expect(await waiting(runId)).toEqual(["1 first", "2 second"]);
    const ttl = await admin.ttl(steeringKey(keyspace, runId));
    expect(ttl).toBeGreaterThan(50);
    expect(await admin.ttl(steeringStateKey(keyspace, runId))).toBeGreaterThan(50);
  });

  it("refuses messages to unknown and finished runs, with the reason", async () => {
    expect(await send("never-enqueued", "hi")).toEqual({ queued: false, reason: "unknown_run" });
    const finished = await queuedRun();
    await admin.hset(jobKey(finished), "finishedOn", Date.now());
    expect(await send(finished, "hi")).toEqual({ queued: false, reason: "finished" });
    // The job was removed (retention), the journal has the run's end.
    await journal.append("removed", [journalRecords.start("removed"), journalRecords.end("removed")]);
    expect(await send("removed", "hi")).toEqual({ queued: false, reason: "finished" });
    expect(await admin.exists(steeringKey(keyspace, finished), steeringKey(keyspace, "removed"))).toBe(0);
  });

  it("bounds the message's size and the messages waiting (InvalidArgumentError), and checks the message", async () => {
    const runId = await queuedRun();
    for (const bad of ["", "   ", "x".repeat(51), 42, ["parts"]]) {
      await expect(send(runId, bad)).rejects.toSatisfy(InvalidArgumentError.isInstance);
    }
    expect(await send(runId, "x".repeat(50))).toMatchObject({ queued: true, seq: 1 });
    expect(await send(runId, "two", { maxPendingMessages: 2 })).toMatchObject({ queued: true, seq: 2 });
    const full = await send(runId, "three", { maxPendingMessages: 2 }).catch((error: unknown) => error);
    expect(InvalidArgumentError.isInstance(full)).toBe(true);
    expect((full as Error).message).toMatch(/2 messages waiting/);
    expect(await waiting(runId)).toHaveLength(2);
  });

  it("hands waiting messages to the attempt's inbox on start, and removes each only once it is added", async () => {
    const runId = await queuedRun();
    await send(runId, "before start");
    const drain = drainOf(runId);
    await drain.start();
    expect(drain.inbox.pending).toBe(1);
    expect(await waiting(runId)).toEqual(["1 before start"]); // not journaled yet: still in Redis
    expect(await applyAll(drain, true)).toEqual(["before start"]);
    expect(await waiting(runId)).toEqual([]);
    await drain.stop();
  });

  it("polls while the run goes on", async () => {
    const runId = await queuedRun();
    const drain = drainOf(runId, 20);
    await drain.start();
    expect(drain.inbox.pending).toBe(0);
    await send(runId, "mid-run");
    await expect.poll(() => drain.inbox.pending, { timeout: 2_000 }).toBe(1);
    await drain.stop();
    await send(runId, "after stop");
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(drain.inbox.pending).toBe(1);
  });

  it("a message handed to an attempt that ended before adding it is handed to the next attempt", async () => {
    const runId = await queuedRun();
    await send(runId, "keep me");
    const first = drainOf(runId);
    await first.start();
    closeSteeringInbox(first.inbox); // the attempt ended (an error, a lost lock): the message was not added
    await first.stop();
    expect(await waiting(runId)).toEqual(["1 keep me"]);
    const second = drainOf(runId);
    await second.start();
    expect(await applyAll(second, true)).toEqual(["keep me"]);
    await second.stop();
  });

  it("a message journaled by an attempt that died before removing it is not handed again", async () => {
    const runId = await queuedRun();
    await send(runId, "journaled");
    await send(runId, "not yet");
    // The dead attempt journaled message 1 (the loop's user_message record), then died before its removal.
    await journal.append(runId, [journalRecords.start(runId), userMessage("journaled")]);
    const next = drainOf(runId);
    await next.start();
    expect(await applyAll(next, true)).toEqual(["not yet"]);
    expect(await waiting(runId)).toEqual([]);
    await next.stop();
  });

  it("close: later sends are refused, and the messages that came too late are counted and removed", async () => {
    const runId = await queuedRun();
    await send(runId, "applied");
    await journal.append(runId, [journalRecords.start(runId), userMessage("applied")]);
    await send(runId, "too late");
    const close = { client: admin, keyspace, runId, journal, ttlSeconds: 60 };
    expect(await closeQueuedSteering({ ...close, reason: "paused" })).toBe(1); // "applied" was journaled
    expect(await waiting(runId)).toEqual([]);
    expect(await send(runId, "now")).toEqual({ queued: false, reason: "paused" });
    expect(await closeQueuedSteering({ ...close, reason: "finished" })).toBe(0);
    expect(await send(runId, "now")).toEqual({ queued: false, reason: "finished" });
  });
});
