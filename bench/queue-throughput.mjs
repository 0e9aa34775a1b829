// Throughput of agentloop/queue: runs per second with 1 to 4 worker processes on an I/O-bound agent.
// (bench/queue-cost.mjs measures the same on a private redis-server, plus Redis commands and bytes per run and
// worker CPU per run on a CPU-bound agent.)
//
//   npm run build && node bench/queue-throughput.mjs [--runs 150] [--latency 100] [--concurrency 4] [--workers 1,2,3,4]
//
// Needs Redis at 127.0.0.1:6379 (REDIS_URL overrides). The mock OpenAI server (in this process) answers every
// chat request after `--latency` ms; each run makes 3 model calls (tool call, tool call, final answer) and 2
// trivial tool calls, so a run is ~3 x latency of waiting: the workers' throughput is bounded by
// workers x concurrency / (3 x latency). Each configuration starts fresh worker processes (this file with
// --worker), warms them up with one run per slot, then times `--runs` runs enqueued at once, from the first
// enqueue to the last result. Keys live under a unique prefix, deleted at the end.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { tallyTool } from "./lib/tally-tool.mjs";

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { values } = parseArgs({
  options: {
    worker: { type: "boolean", default: false },
    runs: { type: "string", default: "150" },
    latency: { type: "string", default: "100" },
    concurrency: { type: "string", default: "4" },
    workers: { type: "string", default: "1,2,3,4" },
  },
});
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const connection = { host: new URL(redisUrl).hostname, port: Number(new URL(redisUrl).port || 6379) };

if (values.worker) await runWorker();
else await main();

/** Worker mode: one queue worker with the bench agent, until SIGTERM. */
async function runWorker() {
  const { Agent, createOpenAI, tool } = await import(dist("index.js"));
  const { createAgentWorker } = await import(dist("integrations/queue/index.js"));
  const { MemoryStore } = await import(dist("index.js"));
  const env = process.env;
  const tally = tallyTool(tool);
  const model = createOpenAI({ baseURL: env.MOCK_URL, apiKey: "bench" })("mock-model");
  const worker = createAgentWorker({
    connection,
    prefix: env.QUEUE_PREFIX,
    name: env.QUEUE_NAME,
    agents: { bench: () => new Agent({ model, tools: [tally], system: "You tally." }) },
    concurrency: Number(env.CONCURRENCY),
    store: new MemoryStore(),
  });
  process.on("SIGTERM", () => worker.close().then(() => process.exit(0)));
  process.stdout.write("ready\n");
}

function startWorker(env) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--worker"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
    child.stdout.on("data", (chunk) => {
      if (!chunk.toString().includes("ready")) return;
      child.removeAllListeners("exit");
      resolve(child);
    });
  });
}

async function stopWorker(child) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function main() {
  const { startMockOpenAIServer } = await import(dist("testing/index.js"));
  const { createAgentQueue } = await import(dist("integrations/queue/index.js"));
  const runs = Number(values.runs);
  const latency = Number(values.latency);
  const concurrency = Number(values.concurrency);
  const counts = values.workers.split(",").map(Number);
  let requests = 0;
  const server = await startMockOpenAIServer({
    script: (body) => {
      requests++;
      const messages = body.messages;
      const lastUser = messages.findLastIndex((message) => message.role === "user");
      const tools = messages.slice(lastUser + 1).filter((message) => message.role === "tool").length;
      if (tools < 2) return { delayMs: latency, toolCalls: [{ name: "tally", arguments: { n: tools + 1 } }] };
      return { delayMs: latency, text: "done" };
    },
  });
  const prefix = `bench-queue-${randomUUID().slice(0, 8)}`;
  const rows = [];
  try {
    for (const count of counts) {
      const name = `w${count}`;
      const env = { MOCK_URL: server.url, QUEUE_PREFIX: prefix, QUEUE_NAME: name, CONCURRENCY: String(concurrency) };
      const children = await Promise.all(Array.from({ length: count }, () => startWorker(env)));
      const queue = createAgentQueue({ connection, prefix, name });
      const batch = async (n) => {
        const ids = await Promise.all(Array.from({ length: n }, () => queue.enqueue({ agent: "bench", input: "tally" })));
        const summaries = await Promise.all(ids.map((id) => queue.result(id, { timeoutMs: 600_000 })));
        if (summaries.some((summary) => summary.text !== "done")) throw new Error("a run did not finish as scripted");
      };
      await batch(count * concurrency); // warm-up: every slot once
      const before = requests;
      const started = performance.now();
      await batch(runs);
      const seconds = (performance.now() - started) / 1000;
      const calls = requests - before;
      const ideal = (count * concurrency * 1000) / (3 * latency);
      rows.push({
        workers: count,
        "slots (workers x concurrency)": count * concurrency,
        runs,
        "model calls": calls,
        "wall s": seconds.toFixed(2),
        "runs/s": (runs / seconds).toFixed(1),
        "ideal runs/s": ideal.toFixed(1),
        efficiency: `${Math.round((100 * runs) / seconds / ideal)}%`,
      });
      await queue.close();
      await Promise.all(children.map(stopWorker));
    }
  } finally {
    await server.close();
    const admin = new Redis(connection);
    let cursor = "0";
    do {
      const [next, keys] = await admin.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await admin.del(...keys);
    } while (cursor !== "0");
    await admin.quit();
  }
  console.log(`agentloop/queue throughput: ${latency} ms per model call, 3 model calls per run, Node ${process.version}`);
  console.table(rows);
}
