// What one agentloop/queue run costs in Redis and in worker CPU (issue #22, "Throughput").
//
//   npm run build && node bench/queue-cost.mjs [--phases io,traffic,cpu] [--workers 1,2,3,4] [--concurrency 4]
//     [--latency 100] [--runs 200] [--turns 4] [--cpu-runs 400] [--model http|scripted] [--repeat 3]
//     [--redis-url redis://127.0.0.1:6379] [--json]
//
// By default it starts its own redis-server (/usr/bin/redis-server, or REDIS_SERVER) on a free port with no
// persistence, so nothing else disturbs the counters; `--redis-url` measures on a shared Redis instead (keys
// under a unique prefix, deleted at the end; other clients' traffic then shows in the deltas). Uses the built
// package (dist/). Phases, each with fresh worker processes (this file with --worker):
//
// - io: the I/O-bound agent of queue-throughput.mjs (3 model calls of `--latency` ms over HTTP to the mock
//   server in this process, 2 tool calls); runs/s and % of linear for each worker count, and Redis commands
//   and bytes per run (INFO deltas around the timed batch, the cost of the INFO calls themselves subtracted).
// - traffic: 1 worker, the io agent; `--repeat` batches of `--runs` runs: Redis commands per run by command
//   name (`INFO commandstats`, counts the commands scripts run too) and bytes in/out per run (`INFO stats`);
//   the worker's requests per run (round trips: its socket writes to Redis, counted in the worker process; a
//   command, a pipeline or a MULTI is one write); then one batch under MONITOR: the requests clients sent
//   (top-level commands, scripts by name, MULTI..EXEC counted once, an EXPIRE right after an XADD folded in; the
//   other commands of a pipeline show apart), split into worker and producer, and the commands scripts ran.
// - cpu: a CPU-bound agent (zero model latency: `--turns` model calls with one tool call each, then the answer;
//   `--model http` through the real OpenAI provider against the mock server, `scripted` through ScriptedModel,
//   no HTTP); for each worker count, runs/s, worker CPU ms per run (process.cpuUsage of every worker), Redis
//   CPU ms per run (own server only) and this process's CPU per run (producer + mock server).
import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { tallyTool } from "./lib/tally-tool.mjs";

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { values } = parseArgs({
  options: {
    worker: { type: "boolean", default: false },
    phases: { type: "string", default: "io,traffic,cpu" },
    workers: { type: "string", default: "1,2,3,4" },
    concurrency: { type: "string", default: "4" },
    latency: { type: "string", default: "100" },
    runs: { type: "string", default: "200" },
    turns: { type: "string", default: "4" },
    "cpu-runs": { type: "string", default: "400" },
    "cpu-warmup": { type: "string", default: "100" },
    model: { type: "string", default: "http" },
    repeat: { type: "string", default: "3" },
    "redis-url": { type: "string" },
    json: { type: "boolean", default: false },
    "max-minutes": { type: "string", default: "30" },
  },
});
/** Child processes (workers, redis-server), killed if this process exits early. */
const spawned = new Set();
process.on("exit", () => {
  for (const child of spawned) child.kill("SIGKILL");
});

if (values.worker) await runWorker();
else {
  setTimeout(() => {
    console.error(`queue-cost: stopped after --max-minutes ${values["max-minutes"]}`);
    process.exit(2);
  }, Number(values["max-minutes"]) * 60_000).unref();
  await main();
}

/** Worker mode: one queue worker with the bench agent until SIGTERM; answers CPU-usage requests over IPC. */
async function runWorker() {
  // Requests this process sends to Redis: ioredis writes a command, a pipeline or a MULTI with one socket write.
  const { Socket } = await import("node:net");
  const socketWrite = Socket.prototype.write;
  let redisWrites = 0;
  Socket.prototype.write = function write(...args) {
    if (this.remotePort === Number(process.env.REDIS_PORT)) redisWrites += 1;
    return socketWrite.apply(this, args);
  };
  const { Agent, createOpenAI, tool } = await import(dist("index.js"));
  const { createAgentWorker } = await import(dist("integrations/queue/index.js"));
  const { MemoryStore } = await import(dist("index.js"));
  const { ScriptedModel } = await import(dist("testing/index.js"));
  const env = process.env;
  const tally = tallyTool(tool);
  const turns = Number(env.TURNS);
  // A price, as production models have one (an unpriced model adds an `UnpricedModel` warning event per run).
  const price = { inputPerMTok: 0.15, outputPerMTok: 0.6 };
  const pricing = { "mock-model": price, scripted: price };
  const http = env.MOCK_URL ? createOpenAI({ baseURL: env.MOCK_URL, apiKey: "bench" })("mock-model") : undefined;
  const model = () =>
    http ??
    new ScriptedModel((_request, call) =>
      call < turns ? { toolCalls: [{ name: "tally", arguments: { n: call + 1 } }] } : { text: "done" },
    );
  if (env.BASELINE) {
    // The same agent without the queue: N runs, 4 at a time, with no journal and then with a RedisJournal.
    const { RedisJournal } = await import(dist("integrations/redis/index.js"));
    const { Redis: Client } = await import("ioredis");
    const client = new Client({ host: env.REDIS_HOST, port: Number(env.REDIS_PORT) });
    const n = Number(env.BASELINE);
    const measureRuns = async (journal) => {
      const agent = () => new Agent({ model: model(), tools: [tally], system: "You tally.", pricing, journal });
      const runMany = async (count) => {
        let next = 0;
        const slot = async () => {
          while (next++ < count) {
            const result = await agent().run("tally", journal ? { runId: randomUUID() } : {});
            if (result.text !== "done") throw new Error("a baseline run did not finish as scripted");
          }
        };
        await Promise.all(Array.from({ length: Number(env.CONCURRENCY) }, slot));
      };
      await runMany(Math.min(n, 50)); // warm-up
      const before = process.cpuUsage();
      const started = performance.now();
      await runMany(n);
      const cpu = process.cpuUsage(before);
      return { cpuMs: (cpu.user + cpu.system) / 1000 / n, seconds: (performance.now() - started) / 1000 };
    };
    const bare = await measureRuns(undefined);
    const journaled = await measureRuns(new RedisJournal({ client, prefix: `${env.QUEUE_PREFIX}:baseline:` }));
    client.disconnect();
    process.send({ baseline: { bare, journaled } });
    return;
  }
  const worker = createAgentWorker({
    connection: { host: env.REDIS_HOST, port: Number(env.REDIS_PORT) },
    prefix: env.QUEUE_PREFIX,
    name: env.QUEUE_NAME,
    agents: { bench: () => new Agent({ model: model(), tools: [tally], system: "You tally.", pricing }) },
    concurrency: Number(env.CONCURRENCY),
    store: new MemoryStore(),
  });
  process.on("message", (message) => {
    if (message === "cpu") process.send({ cpu: process.cpuUsage() });
    if (message === "writes") process.send({ writes: redisWrites });
  });
  process.on("SIGTERM", () => worker.close().then(() => process.exit(0)));
  process.send({ ready: true });
}

function startWorker(env) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--worker"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  spawned.add(child);
  child.once("exit", () => spawned.delete(child));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
    child.once("message", () => {
      child.removeAllListeners("exit");
      resolve(child);
    });
  });
}

/** Total user+system CPU µs of the workers so far. */
async function workersCpu(children) {
  const usages = await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          child.once("message", (message) => resolve(message.cpu.user + message.cpu.system));
          child.send("cpu");
        }),
    ),
  );
  return usages.reduce((a, b) => a + b, 0);
}

/** Requests the workers sent to Redis so far (socket writes: a command, a pipeline or a MULTI each). */
async function workersWrites(children) {
  const counts = await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          child.once("message", (message) => resolve(message.writes));
          child.send("writes");
        }),
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}

async function stopWorker(child) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a throw-away redis-server (no persistence); resolves with its port and a stop function. */
async function startRedis() {
  const port = await freePort();
  const child = spawn(
    process.env.REDIS_SERVER ?? "/usr/bin/redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  spawned.add(child);
  child.once("exit", (code) => {
    spawned.delete(child);
    if (code !== 0 && code !== null) console.error(`redis-server exited with ${code}`);
  });
  await new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error("redis-server did not start in 10 s")), 10_000);
    child.once("error", reject);
    child.stdout.on("data", (chunk) => {
      seen = (seen + chunk.toString()).slice(-4096);
      if (!seen.includes("Ready to accept connections")) return;
      clearTimeout(timer);
      child.stdout.resume();
      resolve();
    });
  });
  const stop = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  return { host: "127.0.0.1", port, stop };
}

/** INFO commandstats + stats + cpu, parsed: calls by command, net bytes, Redis CPU seconds. */
async function snapshot(admin) {
  const text = await admin.info("commandstats", "stats", "cpu", "memory");
  const calls = {};
  let bytesIn = 0;
  let bytesOut = 0;
  let cpu = 0;
  let memory = 0;
  for (const line of text.split("\r\n")) {
    const cmd = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (cmd) calls[cmd[1]] = Number(cmd[2]);
    const [key, value] = line.split(":");
    if (key === "total_net_input_bytes") bytesIn = Number(value);
    if (key === "total_net_output_bytes") bytesOut = Number(value);
    if (key === "used_cpu_user" || key === "used_cpu_sys") cpu += Number(value);
    if (key === "used_memory") memory = Number(value);
  }
  return { calls, bytesIn, bytesOut, cpu, memory };
}

function diff(before, after) {
  const calls = {};
  for (const [name, n] of Object.entries(after.calls)) {
    const delta = n - (before.calls[name] ?? 0);
    if (delta !== 0) calls[name] = delta;
  }
  return {
    calls,
    bytesIn: after.bytesIn - before.bytesIn,
    bytesOut: after.bytesOut - before.bytesOut,
    cpu: after.cpu - before.cpu,
    memory: after.memory - before.memory,
  };
}

/** Measures `task` by INFO deltas, minus what one INFO round costs (measured right before). */
async function measure(admin, task) {
  const a = await snapshot(admin);
  const b = await snapshot(admin);
  const self = diff(a, b);
  const started = performance.now();
  await task();
  const seconds = (performance.now() - started) / 1000;
  const delta = diff(b, await snapshot(admin));
  delete delta.calls.info;
  delta.bytesIn -= self.bytesIn;
  delta.bytesOut -= self.bytesOut;
  return { ...delta, seconds, commands: Object.values(delta.calls).reduce((x, y) => x + y, 0) };
}

/** SHA-1 → name of BullMQ's scripts and agentloop's own (from dist/), for MONITOR's EVALSHA lines. */
function scriptNames() {
  const names = new Map();
  const sha = (lua) => createHash("sha1").update(lua).digest("hex");
  const bullDir = fileURLToPath(new URL("../node_modules/bullmq/dist/esm/scripts/", import.meta.url));
  for (const file of readdirSync(bullDir).filter((f) => f.endsWith(".js") && f !== "index.js")) {
    const match = /const content = `([\s\S]*?)`;\s*export const/.exec(readFileSync(bullDir + file, "utf8"));
    if (match) names.set(sha(match[1].replaceAll("\\`", "`").replaceAll("\\\\", "\\")), `bull:${file.replace(/\.js$/, "")}`);
  }
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith(".js")) {
        for (const m of readFileSync(path, "utf8").matchAll(/(\w+) = redisScript\(\s*`([\s\S]*?)`\s*\)/g)) {
          names.set(sha(m[2]), `agentloop:${m[1]}`);
        }
      }
    }
  };
  walk(fileURLToPath(new URL("../dist", import.meta.url)));
  return names;
}

/** Where a request comes from, by command and key (agentloop's key names; the rest is BullMQ's). */
function origin(args, scripts) {
  const [command, ...rest] = args;
  const name = command.toLowerCase();
  if (name === "evalsha" || name === "eval") return scripts.get(rest[0]) ?? `script ${rest[0].slice(0, 8)}`;
  if (name === "xadd" && rest.at(-2) === "event") {
    const type = /"type":"([a-z_]+)"/.exec(rest.at(-1))?.[1] ?? "?";
    return `xadd (event stream: ${type})`;
  }
  const keys = rest.join(" ");
  const what = keys.includes(":events:")
    ? "event stream"
    : keys.includes(":durable:journal-lock:")
      ? "run lock"
      : keys.includes(":durable:")
        ? "journal"
        : keys.includes(":steering")
          ? "steering"
          : keys.includes(":resumes:")
            ? "resume counter"
            : "bullmq";
  return `${name} (${what})`;
}

/**
 * Runs `task` under MONITOR and counts the requests of each client role (addresses in `roles`): MULTI..EXEC
 * counted once (named by its commands), an EXPIRE right after an XADD (the event writer's pipeline) folded in;
 * commands run by scripts are counted apart.
 */
async function monitorRequests({ port, roles, task, scripts }) {
  const base = new Redis({ port });
  const monitor = await base.monitor();
  const requests = {};
  const lua = {};
  const open = new Map(); // address -> commands of an open MULTI
  const last = new Map(); // address -> last request label
  const bytes = {};
  const count = (role, label) => {
    requests[role] ??= {};
    requests[role][label] = (requests[role][label] ?? 0) + 1;
  };
  /** Approximate request size in RESP: `*n` + `$len` + each argument + CRLFs. */
  const size = (args) => args.reduce((sum, arg) => sum + String(arg).length + 8, 4);
  monitor.on("monitor", (_time, args, source) => {
    if (source === "lua") {
      const name = args[0].toLowerCase();
      lua[name] = (lua[name] ?? 0) + 1;
      return;
    }
    const role = roles.get(source);
    if (role === undefined) return; // admin, monitor
    const name = args[0].toLowerCase();
    const what = name === "multi" || name === "exec" ? name : origin(args, scripts);
    bytes[role] ??= {};
    bytes[role][what] = (bytes[role][what] ?? 0) + size(args);
    if (name === "multi") return void open.set(source, []);
    const inMulti = open.get(source);
    if (inMulti !== undefined && name !== "exec") return void inMulti.push(origin(args, scripts));
    if (name === "exec") {
      open.delete(source);
      const label = `MULTI[${[...new Set(inMulti ?? [])].join(" + ")}]`;
      last.set(source, label);
      return count(role, label);
    }
    const label = origin(args, scripts);
    if (name === "expire" && last.get(source)?.startsWith("xadd (event stream")) {
      last.set(source, "");
      return count(role, "  (+ expire pipelined with xadd)");
    }
    last.set(source, label);
    count(role, label);
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  await task();
  await new Promise((resolve) => setTimeout(resolve, 200));
  monitor.disconnect();
  base.disconnect();
  return { requests, lua, bytes };
}

/** Addresses of the clients connected now (CLIENT LIST). */
async function clientAddresses(admin) {
  const list = await admin.client("LIST");
  return new Set(list.split("\n").flatMap((line) => /addr=(\S+)/.exec(line)?.[1] ?? []));
}

async function main() {
  const { startMockOpenAIServer } = await import(dist("testing/index.js"));
  const { createAgentQueue } = await import(dist("integrations/queue/index.js"));
  const phases = new Set(values.phases.split(","));
  const concurrency = Number(values.concurrency);
  const latency = Number(values.latency);
  const runs = Number(values.runs);
  const turns = Number(values.turns);
  const repeat = Number(values.repeat);
  const own = values["redis-url"] === undefined ? await startRedis() : undefined;
  const url = values["redis-url"] === undefined ? undefined : new URL(values["redis-url"]);
  const connection = own ?? { host: url.hostname, port: Number(url.port || 6379) };
  const admin = new Redis(connection);
  let modelLatency = latency;
  let toolTurns = 2;
  const server = await startMockOpenAIServer({
    script: (body) => {
      const lastUser = body.messages.findLastIndex((message) => message.role === "user");
      const tools = body.messages.slice(lastUser + 1).filter((message) => message.role === "tool").length;
      if (tools < toolTurns) return { delayMs: modelLatency, toolCalls: [{ name: "tally", arguments: { n: tools + 1 } }] };
      return { delayMs: modelLatency, text: "done" };
    },
  });
  const prefix = `bench-qcost-${randomUUID().slice(0, 8)}`;
  const out = { node: process.version, cores: cpus().length, redis: own ? "own" : values["redis-url"], phases: {} };
  let session = 0;
  /** Starts `count` workers and a queue; `fn({ queue, children, batch })`; stops them. */
  const withWorkers = async ({ count, http, turnsEnv }, fn) => {
    const name = `q${session++}`;
    const env = {
      MOCK_URL: http ? server.url : "",
      TURNS: String(turnsEnv),
      REDIS_HOST: connection.host,
      REDIS_PORT: String(connection.port),
      QUEUE_PREFIX: prefix,
      QUEUE_NAME: name,
      CONCURRENCY: String(concurrency),
    };
    const existing = await clientAddresses(admin);
    const children = await Promise.all(Array.from({ length: count }, () => startWorker(env)));
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the workers connect
    const workerAddrs = new Set([...(await clientAddresses(admin))].filter((addr) => !existing.has(addr)));
    const queue = createAgentQueue({ connection: { host: connection.host, port: connection.port }, prefix, name });
    const batch = async (n) => {
      const ids = await Promise.all(Array.from({ length: n }, () => queue.enqueue({ agent: "bench", input: "tally" })));
      const summaries = await Promise.all(ids.map((id) => queue.result(id, { timeoutMs: 600_000 })));
      if (summaries.some((summary) => summary.text !== "done")) throw new Error("a run did not finish as scripted");
    };
    try {
      await batch(count * concurrency); // warm-up: every slot once (also opens the producer's connections)
      return await fn({ queue, children, batch, workerAddrs });
    } finally {
      await queue.close();
      await Promise.all(children.map(stopWorker));
    }
  };
  try {
    if (phases.has("io")) {
      modelLatency = latency;
      toolTurns = 2;
      const rows = [];
      for (const count of values.workers.split(",").map(Number)) {
        await withWorkers({ count, http: true, turnsEnv: 2 }, async ({ batch }) => {
          const m = await measure(admin, () => batch(runs));
          const ideal = (count * concurrency * 1000) / (3 * latency);
          rows.push({
            workers: count,
            slots: count * concurrency,
            runs,
            "wall s": +m.seconds.toFixed(2),
            "runs/s": +(runs / m.seconds).toFixed(1),
            "ideal runs/s": +ideal.toFixed(1),
            "% of linear": Math.round((100 * runs) / m.seconds / ideal),
            "cmds/run": +(m.commands / runs).toFixed(1),
            "B in/run": Math.round(m.bytesIn / runs),
            "B out/run": Math.round(m.bytesOut / runs),
          });
        });
      }
      out.phases.io = { latency, concurrency, modelCalls: 3, rows };
      if (!values.json) {
        console.log(`\nio: ${latency} ms per model call, 3 model calls + 2 tool calls per run, concurrency ${concurrency} per worker`);
        console.table(rows);
      }
    }
    if (phases.has("traffic")) {
      modelLatency = latency;
      toolTurns = 2;
      const result = await withWorkers({ count: 1, http: true, turnsEnv: 2 }, async ({ batch, workerAddrs, children }) => {
        const samples = [];
        for (let i = 0; i < repeat; i++) {
          const writes = await workersWrites(children);
          const sample = await measure(admin, () => batch(runs));
          samples.push({ ...sample, workerRequests: (await workersWrites(children)) - writes });
        }
        let monitored;
        if (own) {
          // The worker's connections were listed when it started; every other one but this admin's is the producer's.
          const roles = new Map([...(await clientAddresses(admin))].map((addr) => [addr, workerAddrs.has(addr) ? "worker" : "producer"]));
          roles.delete(`127.0.0.1:${admin.stream.localPort}`);
          monitored = await monitorRequests({ port: connection.port, roles, scripts: scriptNames(), task: () => batch(runs) });
        }
        return { samples, monitored };
      });
      const perRun = (n) => +(n / runs).toFixed(2);
      const names = [...new Set(result.samples.flatMap((s) => Object.keys(s.calls)))].sort();
      const byCommand = names
        .map((name) => ({ command: name, "per run": result.samples.map((s) => perRun(s.calls[name] ?? 0)).join(" / ") }))
        .sort((a, b) => parseFloat(b["per run"]) - parseFloat(a["per run"]));
      const totals = result.samples.map((s) => ({
        "commands/run": perRun(s.commands),
        // Round trips: the worker's socket writes to Redis (BullMQ's connections included).
        "worker requests/run": perRun(s.workerRequests),
        "bytes in/run": Math.round(s.bytesIn / runs),
        "bytes out/run": Math.round(s.bytesOut / runs),
        "redis CPU µs/run": Math.round((s.cpu * 1e6) / runs),
        // What the batch left in Redis (journals, event streams, finished jobs until their TTLs / removal).
        "redis memory kept B/run": Math.round(s.memory / runs),
        "runs/s": +(runs / s.seconds).toFixed(1),
      }));
      const requests = {};
      for (const [role, labels] of Object.entries(result.monitored?.requests ?? {})) {
        requests[role] = Object.entries(labels)
          .map(([request, n]) => ({ request, "per run": perRun(n) }))
          .sort((a, b) => b["per run"] - a["per run"]);
      }
      const sizes = {};
      for (const [role, labels] of Object.entries(result.monitored?.bytes ?? {})) {
        sizes[role] = Object.entries(labels)
          .map(([command, n]) => ({ command, "bytes sent/run": Math.round(n / runs) }))
          .sort((a, b) => b["bytes sent/run"] - a["bytes sent/run"]);
      }
      const lua = Object.entries(result.monitored?.lua ?? {})
        .map(([command, n]) => ({ command, "per run": perRun(n) }))
        .sort((a, b) => b["per run"] - a["per run"]);
      out.phases.traffic = { runs, repeat, latency, totals, byCommand, requests, lua, sizes };
      if (!values.json) {
        console.log(`\ntraffic: 1 worker x ${concurrency}, ${repeat} batches of ${runs} runs (io agent), INFO deltas per run`);
        console.table(totals);
        console.log("commands per run by name (INFO commandstats; includes the commands scripts run), one value per batch");
        console.table(byCommand);
        for (const [role, rows] of Object.entries(requests)) {
          console.log(`requests (round trips) per run sent by the ${role}, under MONITOR (one batch)`);
          console.table(rows);
        }
        for (const [role, rows] of Object.entries(sizes)) {
          console.log(`approximate request bytes per run sent by the ${role} (RESP size of the MONITOR arguments)`);
          console.table(rows.filter((row) => row["bytes sent/run"] >= 10));
        }
        if (lua.length > 0) {
          console.log("commands run inside scripts, per run (MONITOR)");
          console.table(lua);
        }
      }
    }
    if (phases.has("cpu")) {
      modelLatency = 0;
      toolTurns = turns;
      const http = values.model === "http";
      const rows = [];
      const cpuRuns = Number(values["cpu-runs"]);
      for (const count of values.workers.split(",").map(Number)) {
        await withWorkers({ count, http, turnsEnv: turns }, async ({ batch, children }) => {
          await batch(Number(values["cpu-warmup"])); // let the JIT settle
          const workersBefore = await workersCpu(children);
          const mainBefore = process.cpuUsage();
          const m = await measure(admin, () => batch(cpuRuns));
          const workerMs = (await workersCpu(children)) - workersBefore;
          const main = process.cpuUsage(mainBefore);
          const perRunMs = workerMs / 1000 / cpuRuns;
          rows.push({
            workers: count,
            runs: cpuRuns,
            "runs/s": +(cpuRuns / m.seconds).toFixed(1),
            "runs/s per worker": +(cpuRuns / m.seconds / count).toFixed(1),
            "worker CPU ms/run": +perRunMs.toFixed(2),
            "runs per worker-CPU-s": Math.round(1000 / perRunMs),
            "worker cores busy": +(workerMs / 1e6 / m.seconds).toFixed(2),
            "redis CPU ms/run": own ? +((m.cpu * 1000) / cpuRuns).toFixed(2) : "n/a",
            "main CPU ms/run": +((main.user + main.system) / 1000 / cpuRuns).toFixed(2),
            "cmds/run": +(m.commands / cpuRuns).toFixed(1),
          });
        });
      }
      const baselineChild = spawn(process.execPath, [fileURLToPath(import.meta.url), "--worker"], {
        env: {
          ...process.env,
          BASELINE: String(cpuRuns),
          MOCK_URL: http ? server.url : "",
          TURNS: String(turns),
          REDIS_HOST: connection.host,
          REDIS_PORT: String(connection.port),
          QUEUE_PREFIX: prefix,
          CONCURRENCY: String(concurrency),
        },
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      spawned.add(baselineChild);
      const { baseline } = await new Promise((resolve, reject) => {
        baselineChild.once("message", resolve);
        baselineChild.once("exit", (code) => reject(new Error(`baseline exited with ${code}`)));
      });
      spawned.delete(baselineChild);
      const baselineRows = [
        { setup: "agent.run, no journal (the loop alone)", ...baseline.bare },
        { setup: "agent.run + RedisJournal (runId)", ...baseline.journaled },
      ].map(({ setup, cpuMs, seconds }) => ({
        setup,
        "CPU ms/run": +cpuMs.toFixed(2),
        "runs per CPU-s": Math.round(1000 / cpuMs),
        "runs/s": +(cpuRuns / seconds).toFixed(1),
      }));
      out.phases.cpu = { turns, model: values.model, concurrency, rows, baseline: baselineRows };
      if (!values.json) {
        console.log(
          `\ncpu: zero model latency, ${turns} model calls with a tool call each + the answer (${values.model} model), concurrency ${concurrency} per worker, ${cpus().length} cores`,
        );
        console.table(rows);
        console.log("the same agent in one process without the queue (4 runs at a time), for comparison");
        console.table(baselineRows);
      }
    }
  } finally {
    await server.close();
    if (own) {
      admin.disconnect();
      await own.stop();
    } else {
      let cursor = "0";
      do {
        const [next, keys] = await admin.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
        cursor = next;
        if (keys.length > 0) await admin.del(...keys);
      } while (cursor !== "0");
      await admin.quit();
    }
  }
  if (values.json) console.log(JSON.stringify(out));
}
