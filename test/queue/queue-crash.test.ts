// Crash test: 200 runs over 20 sessions on 3 worker PROCESSES (test/queue/crash-worker.ts, bundled from src/
// with esbuild before the test), with workers SIGKILLed while they run and replaced. Every run must complete
// with the right text, every tally call must have had its effect exactly once, no session may have run two runs
// at once, each session's runs must have run in the order they were enqueued, and no job may fail. Needs Redis
// at 127.0.0.1:6379.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentQueue } from "../../src/integrations/queue/index.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "../../src/testing/index.js";
import { parseTallyRequest, tallyCallId, tallyInput, tallyReply } from "./tally-script.js";

const RUNS = 200;
const SESSIONS = 20;
const KILLS = 4;
/** Sessions whose last run is gated: it pauses for approval, and the test approves it while workers die. */
const GATED_SESSIONS = 5;
const connection = { host: "127.0.0.1", port: 6379 };
const prefix = `aq-crash-${randomUUID().slice(0, 8)}`;
const name = "crash";
// Bundled next to node_modules' packages (kept external), so that the worker resolves bullmq and ioredis.
const workerScript = fileURLToPath(
  new URL(`../../node_modules/.cache/${prefix}-worker.mjs`, import.meta.url),
);
const admin = new Redis(connection);

/** One model call as the mock server saw it: which run, which worker process, when. */
interface Call {
  runId: string;
  sessionId: string;
  pid: number;
  start: number;
  end: number;
}
const calls: Call[] = [];
let server: MockOpenAIServer;
const workers = new Map<number, ChildProcess>();
const killedAt = new Map<number, number>();
const stderr: string[] = [];

function spawnWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [workerScript], {
    env: {
      ...process.env,
      MOCK_URL: server.url,
      QUEUE_PREFIX: prefix,
      QUEUE_NAME: name,
      LOCK_MS: "2000",
      STALLED_MS: "1000",
      CONCURRENCY: "4",
      TALLY_DELAY_MS: "25",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`worker exited early (${code}): ${stderr.join("")}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (!chunk.toString().includes("ready")) return;
      child.removeAllListeners("exit");
      workers.set(child.pid!, child);
      child.once("exit", () => workers.delete(child.pid!));
      resolve(child);
    });
  });
}

async function stopWorker(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

async function scanKeys(pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await admin.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys;
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

beforeAll(async () => {
  await build({
    entryPoints: [fileURLToPath(new URL("./crash-worker.ts", import.meta.url))],
    outfile: workerScript,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  server = await startMockOpenAIServer({
    script: (body) => {
      const request = parseTallyRequest(body);
      // 20-50 ms, a deterministic function of the request.
      const delayMs =
        20 + ((request.runId.length * 7 + request.toolResults * 13 + request.messageCount) % 31);
      const start = Date.now();
      calls.push({
        runId: request.runId,
        sessionId: request.sessionId ?? "?",
        pid: Number(request.user?.replace("pid:", "")),
        start,
        end: start + delayMs,
      });
      return tallyReply(request, delayMs);
    },
  });
});

afterAll(async () => {
  await Promise.all([...workers.values()].map((child) => stopWorker(child, "SIGKILL")));
  rmSync(workerScript, { force: true });
  await server?.close();
  const keys = await scanKeys(`${prefix}:*`);
  for (let i = 0; i < keys.length; i += 500) await admin.del(...keys.slice(i, i + 500));
  expect(await scanKeys(`${prefix}:*`)).toEqual([]);
  await admin.quit();
});

describe("queue crash test (3 worker processes, SIGKILL)", () => {
  it("completes 200 runs over 20 sessions exactly once per tool call while workers are killed", async () => {
    const started = Date.now();
    await Promise.all([spawnWorker(), spawnWorker(), spawnWorker()]);
    const queue = createAgentQueue({ connection, prefix, name });
    // Ten runs per session, in shuffled order: runs of one session are often next to each other in the queue.
    const sessions = Array.from({ length: RUNS }, (_, i) => i % SESSIONS);
    for (let i = sessions.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [sessions[i], sessions[j]] = [sessions[j]!, sessions[i]!];
    }
    const runs = sessions.map((session, i) => ({
      runId: `run${String(i).padStart(3, "0")}-${randomUUID().slice(0, 8)}`,
      sessionId: `session${session}`,
      gated: session < GATED_SESSIONS && sessions.lastIndexOf(session) === i,
    }));
    // Five runs followed from the start (subscribed before they are enqueued), five more after they finished.
    const early = runs.slice(0, 5).map((run) => collect(queue.events(run.runId)));
    for (const { runId, sessionId, gated } of runs) {
      await queue.enqueue({ agent: "tally", input: tallyInput(runId, sessionId, gated), runId, sessionId });
    }
    // A gated run's job completes paused; the decision comes from another queue object (a web request, say),
    // and the run goes on on whichever worker takes the resume job.
    const approver = createAgentQueue({ connection, prefix, name });
    const paused: string[] = [];
    const results = runs.map(async (run) => {
      const first = await queue.result(run.runId, { timeoutMs: 90_000 });
      if (!run.gated) return first;
      expect(first.stopReason).toBe("awaiting_approval");
      paused.push(run.runId);
      await approver.resume(run.runId, { approve: [tallyCallId(run.runId, 2)], decidedBy: "test" });
      return queue.result(run.runId, { timeoutMs: 90_000 });
    });
    let finished = 0;
    results.forEach((result) => {
      result.then(
        () => finished++,
        () => undefined,
      );
    });

    // Kill a random worker (with runs in flight) every ~0.8 s and start a replacement.
    let kills = 0;
    let finishedAtLastKill = 0;
    while (kills < KILLS && finished < RUNS) {
      await new Promise((resolve) => setTimeout(resolve, 800));
      const busy = [...workers.keys()].filter((pid) =>
        calls.some((call) => call.pid === pid && call.start > Date.now() - 500),
      );
      const victims = busy.length > 0 ? busy : [...workers.keys()];
      const pid = victims[Math.floor(Math.random() * victims.length)]!;
      killedAt.set(pid, Date.now());
      finishedAtLastKill = finished;
      await stopWorker(workers.get(pid)!, "SIGKILL");
      kills++;
      await spawnWorker();
    }

    const summaries = await Promise.all(results);
    const elapsedMs = Date.now() - started;
    // Resumes take seconds (lock 2 s + stalled check 1 s); nothing may wait for result()'s timeout.
    expect(elapsedMs).toBeLessThan(45_000);
    // 1. Every run completed with the right text.
    expect(summaries.map((summary) => summary.text)).toEqual(runs.map((run) => `done ${run.runId}`));
    expect(summaries.every((summary) => summary.stopReason === "completed")).toBe(true);
    expect(paused.sort()).toEqual(
      runs
        .filter((run) => run.gated)
        .map((run) => run.runId)
        .sort(),
    );
    expect(paused).toHaveLength(GATED_SESSIONS);
    // 2. Every tally call had its effect exactly once (2 calls per run, the approved ones included).
    const effects = await admin.mget(...runs.map((run) => `${prefix}:fx:effects:${run.runId}`));
    expect(effects).toEqual(runs.map(() => "2"));
    const executions = (await admin.mget(...runs.map((run) => `${prefix}:fx:calls:${run.runId}`))).map(
      Number,
    );
    // 3. No job failed, and all completed.
    expect(await admin.zcard(`${prefix}:${name}:failed`)).toBe(0);
    expect(await admin.zcard(`${prefix}:${name}:completed`)).toBe(RUNS + GATED_SESSIONS); // + the resume jobs
    // 4. No session ran two runs at once: per attempt (run, worker process), the span from its first model
    // request to its last reply (cut at the kill of its process) never overlaps another run's in the session.
    const spans = new Map<string, { runId: string; sessionId: string; start: number; end: number }>();
    for (const call of calls) {
      const key = `${call.runId}/${call.pid}`;
      const end = Math.min(call.end, killedAt.get(call.pid) ?? Number.POSITIVE_INFINITY);
      const span = spans.get(key);
      if (span === undefined)
        spans.set(key, { runId: call.runId, sessionId: call.sessionId, start: call.start, end });
      else {
        span.start = Math.min(span.start, call.start);
        span.end = Math.max(span.end, end);
      }
    }
    const overlaps: string[] = [];
    const bySession = new Map<string, Array<{ runId: string; start: number; end: number }>>();
    for (const span of spans.values())
      bySession.set(span.sessionId, [...(bySession.get(span.sessionId) ?? []), span]);
    for (const [sessionId, list] of bySession) {
      const sorted = list.sort((a, b) => a.start - b.start);
      for (let i = 1; i < sorted.length; i++) {
        const before = sorted.slice(0, i).filter((span) => span.runId !== sorted[i]!.runId);
        const latestEnd = Math.max(...before.map((span) => span.end), 0);
        if (latestEnd > sorted[i]!.start) overlaps.push(`${sessionId}: ${sorted[i]!.runId}`);
      }
    }
    expect(overlaps).toEqual([]);
    expect(bySession.size).toBe(SESSIONS);
    // 5. Every session's stored history holds each of its runs once (10 runs x 6 messages, no duplicates), in
    // the order they were enqueued.
    const store = new RedisStore({ client: admin, prefix: `${prefix}:sessions:` });
    for (let session = 0; session < SESSIONS; session++) {
      const sessionId = `session${session}`;
      const history = (await store.load(sessionId))?.messages ?? [];
      const inputs = history.filter((message) => message.role === "user").map((message) => message.content);
      const expected = runs
        .filter((run) => run.sessionId === sessionId)
        .map((run) => tallyInput(run.runId, sessionId, run.gated));
      expect(history).toHaveLength(expected.length * 6);
      expect(inputs).toEqual(expected);
      expect(await admin.exists(`${prefix}:${name}:session-order:${sessionId}`)).toBe(0);
    }
    // 6. Events across processes: from the start, and for a late subscriber; one loop_end each, at the end.
    const streamed = [
      ...(await Promise.all(early)),
      ...(await Promise.all(runs.slice(5, 10).map((run) => collect(queue.events(run.runId))))),
    ];
    streamed.forEach((events, i) => {
      expect(events.at(-1)).toMatchObject({
        type: "loop_end",
        data: { stopReason: "completed", text: `done ${runs[i]!.runId}` },
      });
      expect(events.filter((event) => event.type === "loop_end")).toHaveLength(1);
      expect(events.filter((event) => event.type === "action").length).toBeGreaterThanOrEqual(2);
    });
    expect(kills).toBeGreaterThanOrEqual(3);
    expect(finishedAtLastKill).toBeLessThan(RUNS); // the kills hit runs in flight

    const modelRequests = calls.length;
    const pidsByRun = new Map<string, Set<number>>();
    for (const call of calls)
      pidsByRun.set(call.runId, (pidsByRun.get(call.runId) ?? new Set()).add(call.pid));
    const resumed = [...pidsByRun.values()].filter((pids) => pids.size > 1).length;
    console.info(
      `[queue-crash] ${RUNS} runs, ${SESSIONS} sessions, ${kills} SIGKILLs, ${elapsedMs} ms; ` +
        `runs resumed on another worker: ${resumed}; model requests: ${modelRequests} (${RUNS * 3} without crashes); ` +
        `tally executions: ${executions.reduce((a, b) => a + b, 0)} (${RUNS * 2} effects); finished before the last kill: ${finishedAtLastKill}`,
    );
    await approver.close();
    await queue.close();
  }, 120_000);
});
