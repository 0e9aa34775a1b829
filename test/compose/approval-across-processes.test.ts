import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

/**
 * A durable run of a session pauses for approval in one process; a web request to ANOTHER process decides;
 * the run goes on there. Both processes use the built package through its public entry points, a RedisStore
 * for the session and a PostgresJournal for the run log; tool side effects are counted in Redis.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const built = existsSync(resolve(root, "dist/index.js"));
const REDIS = "redis://127.0.0.1:6379";
const POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const tag = `xproc_${process.pid}_${randomUUID().slice(0, 8)}`;
const prefix = `agentloop-test:${tag}:`;
const children: ChildProcess[] = [];

/** The agent both processes build: the same tools, a scripted model with the steps each process answers. */
const agentSource = (steps: unknown[]) => `
import { Agent, tool } from "agentloop";
import { RedisStore } from "agentloop/redis";
import { PostgresJournal } from "agentloop/postgres";
import { ScriptedModel } from "agentloop/testing";
import { Redis } from "ioredis";
import { z } from "zod";
const counter = new Redis(${JSON.stringify(REDIS)});
const effect = (name) => counter.incr(${JSON.stringify(prefix)} + "effect:" + name);
const tools = [
  tool({ name: "lookup", description: "looks up", parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => { await effect("lookup"); return "found " + q; } }),
  tool({ name: "pay", description: "pays", parameters: z.object({ to: z.string() }), needsApproval: true,
    execute: async ({ to }) => { await effect("pay"); return "paid " + to; } }),
];
const store = new RedisStore({ url: ${JSON.stringify(REDIS)}, prefix: ${JSON.stringify(prefix)} });
const journal = new PostgresJournal({ connectionString: ${JSON.stringify(POSTGRES)}, table: ${JSON.stringify(`${tag}_journal`)} });
const agent = new Agent({ model: new ScriptedModel(${JSON.stringify(steps)}), tools, store, journal });
const close = async () => { await store.close(); await journal.close(); counter.disconnect(); };
`;

/** Runs a module in a child process; resolves with its stdout (rejects on a non-zero exit). */
function runNode(source: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", source], { cwd: root });
    children.push(child);
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("exit", (code) =>
      code === 0 ? resolvePromise(out) : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
}

/** Starts the "web" process: POST /runs/:id/decision resumes the run; resolves with its base URL. */
function startWebProcess(): Promise<{ url: string; child: ChildProcess }> {
  const source = `${agentSource([{ text: "Paid acme." }])}
import { createServer } from "node:http";
// (The scripted model has no price: its "unpriced model" warnings are error events, left out here.)
const kinds = (events) => events.filter((e) => e.type !== "error").map((e) => e.type);
const server = createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  const runId = decodeURIComponent(req.url.split("/")[2] ?? "");
  try {
    const { approve, deny, user } = JSON.parse(body);
    const result = await agent.resume(runId, { approve, deny, decidedBy: user });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ stopReason: result.stopReason, text: result.text, replayed: kinds(result.events.filter((e) => e.replayed)), live: kinds(result.events.filter((e) => !e.replayed)) }));
  } catch (error) {
    res.writeHead(409, { "content-type": "application/json" });
    res.end(JSON.stringify({ name: error.name, message: error.message }));
  }
});
server.listen(0, "127.0.0.1", () => console.log("listening " + server.address().port));
process.on("SIGTERM", async () => { server.close(); await close(); process.exit(0); });
`;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", source], { cwd: root });
    children.push(child);
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (port !== undefined) resolvePromise({ url: `http://127.0.0.1:${port}`, child });
    });
    child.on("exit", (code) => reject(new Error(`web process exited ${code}: ${err}`)));
  });
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  const redis = new Redis(REDIS);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  const { rows } = await client.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE tablename LIKE $1",
    [`${tag}%`],
  );
  for (const { tablename } of rows) await client.query(`DROP TABLE IF EXISTS "${tablename}"`);
  await client.end();
});

describe.skipIf(!built)("a durable session run decided from another process (built package)", () => {
  it("pauses in process A, a web request to process B approves, B finishes it; every effect once", async () => {
    const steps = [
      { toolCalls: [{ id: "l1", name: "lookup", arguments: { q: "bill" } }] },
      { toolCalls: [{ id: "p1", name: "pay", arguments: { to: "acme" } }] },
    ];
    const paused = JSON.parse(
      await runNode(`${agentSource(steps)}
const result = await agent.run("Pay the bill", { sessionId: "chat-1", runId: "run-1" });
console.log(JSON.stringify({ stopReason: result.stopReason, pending: result.pendingApprovals }));
await close();`),
    ) as { stopReason: string; pending: Array<{ toolCallId: string }> };
    expect(paused).toEqual({
      stopReason: "awaiting_approval",
      pending: [{ toolCallId: "p1", toolName: "pay", arguments: { to: "acme" } }],
    });

    const web = await startWebProcess();
    const decide = (body: unknown) =>
      fetch(`${web.url}/runs/run-1/decision`, { method: "POST", body: JSON.stringify(body) });
    const bad = await decide({ approve: ["nope"], user: "mallory" });
    expect(bad.status).toBe(409);
    expect(await bad.json()).toMatchObject({ name: "InvalidArgumentError" });

    const ok = await decide({ approve: ["p1"], user: "alice" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      stopReason: "completed",
      text: "Paid acme.",
      replayed: [
        "loop_start",
        "turn_start",
        "model_call",
        "action",
        "observation",
        "turn_start",
        "model_call",
      ],
      live: ["action", "observation", "turn_start", "model_call", "loop_end"],
    });
    // The same decision again (a retried web request) is applied once: the finished run's result, nothing runs.
    const again = await decide({ approve: ["p1"], user: "alice" });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      stopReason: "completed",
      text: "Paid acme.",
      live: ["loop_end"],
    });
    const other = await decide({ deny: ["p1"], user: "bob" });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ message: expect.stringMatching(/has finished/) });

    const redis = new Redis(REDIS);
    expect(await redis.get(`${prefix}effect:lookup`)).toBe("1");
    expect(await redis.get(`${prefix}effect:pay`)).toBe("1");
    redis.disconnect();
    const history = JSON.parse(
      await runNode(`import { RedisStore } from "agentloop/redis";
const store = new RedisStore({ url: ${JSON.stringify(REDIS)}, prefix: ${JSON.stringify(prefix)} });
const data = await store.load("chat-1");
console.log(JSON.stringify(data.messages.map((m) => m.role + ":" + m.content)));
await store.close();`),
    ) as string[];
    expect(history).toEqual([
      "user:Pay the bill",
      "assistant:",
      "tool:found bill",
      "assistant:",
      "tool:paid acme",
      "assistant:Paid acme.",
    ]);
    web.child.kill("SIGTERM");
  }, 30_000);
});
