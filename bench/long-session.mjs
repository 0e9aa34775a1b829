// Long-session cost: is a session's CPU per run flat in conversation length, for every store?
//
// For each store (MemoryStore, FileStore in a temp dir, RedisStore on 127.0.0.1:6379, PostgresStore on
// 127.0.0.1:5432 db test), a fresh child process (`node --expose-gc`) drives ONE session for --runs runs
// (default 1,000). A run is one user message -> one model turn, answered in-process by agentloop/testing's
// ScriptedModel with zero latency (no HTTP), so what is measured is the agent loop + session path + store:
// lock, load (the whole history), append, context compaction + `replace`, state, release. Context
// compaction is on, as a deployment would configure it (sliding window, compactAt 0.75 of --max-context
// tokens), so the history the model sees stays bounded and the store's `replace` runs every few runs.
//
// Reported per store: CPU µs per run (process.cpuUsage, all threads, incl. GC and the libuv pool; the
// Redis/PostgreSQL servers' own CPU is not included) as the median of 10-run windows at runs 1-10, 91-100,
// 491-500, 991-1000; the ratio last/first window; the sawtooth = max/min of all window medians after the
// first (10-run windows); for FileStore the file size at the end of each reported window. Then memory per
// idle session: the heap (after GC) of holding --idle sessions (default 1,000) of 3 runs each, minus the
// heap before them, per session; plus what the store itself holds per session (file bytes, Redis
// MEMORY USAGE, PostgreSQL table size).
//
// The process first warms up on another session (--warmup runs, default 100: compaction and `replace`
// included), so the first window is not JIT warm-up.
//
// Imports the repo's build (dist/): run `node scripts/build.mjs` first, then
//   node bench/long-session.mjs [--runs 1000] [--stores memory,file,redis,postgres] [--max-context 4000]
//                               [--idle 1000] [--warmup 100] [--json out.json]

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

// BENCH_DIST=/abs/dir: import another build of agentloop (e.g. one made elsewhere to compare before/after).
const distRoot = process.env.BENCH_DIST === undefined ? new URL("../dist/", import.meta.url) : pathToFileURL(`${process.env.BENCH_DIST}/`);
const dist = (path) => new URL(path, distRoot).href;

const { values: args } = parseArgs({
  options: {
    worker: { type: "string" },
    runs: { type: "string", default: "1000" },
    warmup: { type: "string", default: "100" },
    idle: { type: "string", default: "1000" },
    window: { type: "string", default: "10" },
    "max-context": { type: "string", default: "4000" },
    stores: { type: "string", default: "memory,file,redis,postgres" },
    json: { type: "string" },
  },
});

const RUNS = Number(args.runs);
const WARMUP = Number(args.warmup);
const IDLE = Number(args.idle);
const WINDOW = Number(args.window);
const MAX_CONTEXT = Number(args["max-context"]);
const REDIS_URL = "redis://127.0.0.1:6379";
const PG_URL = "postgres://postgres@127.0.0.1:5432/test";

if (args.worker !== undefined) {
  const result = await worker(args.worker);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------------------

/** A user message of about 45 words and an answer of about 90 words, varying with the run. */
function userText(i) {
  const city = ["Lisbon", "Paris", "Tokyo", "Nairobi", "Lima"][i % 5];
  return `Run ${i}: I am planning a trip to ${city} next month with two friends. What should we pack, which neighbourhoods are worth a walk, and is there anything about local transport or tipping we should know before we arrive? Keep it short please.`;
}
function answerText(i) {
  return `For run ${i}: pack light layers, a compact umbrella and comfortable walking shoes; evenings can be cool. Walk the old town early in the morning before the crowds, then the market district for lunch, and the riverside in the evening. Buy a reloadable transit card at the airport: it covers buses, trams and the metro and is cheaper than single tickets. Tipping is modest: round up in cafés and leave about ten percent in restaurants when service is not included. Carry some cash for small shops and keep copies of your documents.`;
}

async function createStore(kind, id) {
  const root = await import(dist("index.js"));
  switch (kind) {
    case "memory":
      return { store: new root.MemoryStore(), cleanup: async () => {} };
    case "file": {
      const dir = await mkdtemp(join(tmpdir(), "agentloop-long-session-"));
      return {
        store: new root.FileStore({ dir }),
        dir,
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    }
    case "redis": {
      const { RedisStore } = await import(dist("integrations/redis/index.js"));
      const prefix = `bench-long-session-${id}:`;
      const store = new RedisStore({ url: REDIS_URL, prefix });
      return {
        store,
        prefix,
        cleanup: async () => {
          await store.close();
          const { Redis } = await import("ioredis");
          const admin = new Redis(REDIS_URL);
          let cursor = "0";
          do {
            const [next, keys] = await admin.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
            cursor = next;
            if (keys.length > 0) await admin.del(...keys);
          } while (cursor !== "0");
          await admin.quit();
        },
      };
    }
    case "postgres": {
      const { PostgresStore } = await import(dist("integrations/postgres/index.js"));
      const pg = (await import("pg")).default;
      const schema = `bench_long_session_${id.replace(/-/g, "_")}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const store = new PostgresStore({ connectionString: PG_URL, table: `${schema}.records` });
      return {
        store,
        schema,
        admin,
        cleanup: async () => {
          await store.close();
          await admin.query(`DROP SCHEMA ${schema} CASCADE`);
          await admin.end();
        },
      };
    }
    default:
      throw new Error(`unknown store ${kind}`);
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The bytes the store holds for a set of sessions (undefined for the memory store: that is the heap). */
async function storeBytes(kind, handle) {
  switch (kind) {
    case "file": {
      let total = 0;
      for (const name of await readdir(handle.dir)) total += (await stat(join(handle.dir, name))).size;
      return total;
    }
    case "redis": {
      const { Redis } = await import("ioredis");
      const admin = new Redis(REDIS_URL);
      let total = 0;
      let cursor = "0";
      do {
        const [next, keys] = await admin.scan(cursor, "MATCH", `${handle.prefix}*`, "COUNT", 1000);
        cursor = next;
        for (const key of keys) total += Number((await admin.memory("USAGE", key)) ?? 0);
      } while (cursor !== "0");
      await admin.quit();
      return total;
    }
    case "postgres": {
      const { rows } = await handle.admin.query(
        `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [handle.schema],
      );
      return Number(rows[0].bytes);
    }
    default:
      return undefined;
  }
}

async function worker(kind) {
  const { Agent } = await import(dist("index.js"));
  const { ScriptedModel } = await import(dist("testing/index.js"));
  const id = randomUUID().slice(0, 8);
  const handle = await createStore(kind, id);
  try {
    let call = 0;
    const model = new ScriptedModel((request) => {
      call++;
      const last = request.messages.at(-1);
      const match = /^Run (\d+):/.exec(typeof last?.content === "string" ? last.content : "");
      return { text: answerText(match === null ? call : Number(match[1])) };
    });
    const agent = new Agent({
      model,
      system: "You are a concise travel assistant.",
      store: handle.store,
      context: {
        maxContextTokens: MAX_CONTEXT,
        compactAt: 0.75,
        targetRatio: 0.7,
        strategy: "sliding_window",
        keepLastMessages: 6,
      },
    });
    // Context compactions reach the store as `replace` calls: count them.
    let compactions = 0;
    const replace = handle.store.replace.bind(handle.store);
    handle.store.replace = (...call) => {
      compactions++;
      return replace(...call);
    };
    const runOnce = async (sessionId, i) => {
      const result = await agent.run(userText(i), { sessionId });
      model.calls.length = 0; // the model double records every call: keep it from growing
      if (result.text !== answerText(i)) throw new Error(`run ${i}: unexpected answer ${result.text}`);
    };

    for (let i = 1; i <= WARMUP; i++) await runOnce(`warm-${id}`, i);
    compactions = 0;

    const sessionId = `long-${id}`;
    const cpu = [];
    const fileBytes = [];
    const file = kind === "file" ? join(handle.dir, `${sessionId}.jsonl`) : undefined;
    for (let i = 1; i <= RUNS; i++) {
      const before = process.cpuUsage();
      await runOnce(sessionId, i);
      const used = process.cpuUsage(before);
      cpu.push(used.user + used.system);
      if (file !== undefined && i % WINDOW === 0) fileBytes.push(await findSize(file));
    }
    const loaded = await handle.store.load(sessionId);
    const windows = [];
    for (let start = 0; start + WINDOW <= cpu.length; start += WINDOW) {
      windows.push(median(cpu.slice(start, start + WINDOW)));
    }

    // Memory per idle session: sessions of 3 runs each, then nothing holds them but the store / agent.
    globalThis.gc();
    globalThis.gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const bytesBefore = await storeBytes(kind, handle);
    for (let s = 0; s < IDLE; s++) {
      for (let i = 1; i <= 3; i++) await runOnce(`idle-${id}-${s}`, i);
    }
    globalThis.gc();
    globalThis.gc();
    const heapAfter = process.memoryUsage().heapUsed;
    const bytesAfter = await storeBytes(kind, handle);
    return {
      kind,
      windows,
      fileBytes,
      compactions,
      loadedMessages: loaded?.messages.length,
      loadedRecords: loaded?.records,
      heapPerIdleSession: (heapAfter - heapBefore) / IDLE,
      storeBytesPerIdleSession: bytesAfter === undefined ? undefined : (bytesAfter - bytesBefore) / IDLE,
    };
  } finally {
    await handle.cleanup();
  }
}

async function findSize(file) {
  return stat(file).then(
    (stats) => stats.size,
    () => 0,
  );
}

function runWorker(kind) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", fileURLToPath(import.meta.url), "--worker", kind, ...forwarded()],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 15 * 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${kind} worker exited with ${code}`));
      resolve(JSON.parse(out.trim().split("\n").at(-1)));
    });
  });
}

function forwarded() {
  return ["runs", "warmup", "idle", "window", "max-context"].flatMap((name) => [`--${name}`, String(args[name])]);
}

async function main() {
  const kinds = args.stores.split(",").filter(Boolean);
  const results = [];
  for (const kind of kinds) {
    process.stderr.write(`${kind}...\n`);
    results.push(await runWorker(kind));
  }
  const at = (result, run) => result.windows[Math.floor((run - 1) / WINDOW)];
  const points = [1, 100, 500, RUNS].filter((run, index, all) => run <= RUNS && all.indexOf(run) === index);
  const label = (run) => {
    const w = Math.floor((run - 1) / WINDOW);
    return `runs ${w * WINDOW + 1}-${w * WINDOW + WINDOW}`;
  };
  const rows = results.map((result) => {
    const row = { store: result.kind };
    for (const run of points) row[`${label(run)} µs`] = Math.round(at(result, run));
    row[`ratio ${RUNS}/10`] = (at(result, RUNS) / at(result, 1)).toFixed(2);
    const later = result.windows.slice(1);
    row["sawtooth max/min"] = (Math.max(...later) / Math.min(...later)).toFixed(2);
    row["heap B/idle session"] = Math.round(result.heapPerIdleSession);
    row["store B/idle session"] =
      result.storeBytesPerIdleSession === undefined ? "-" : Math.round(result.storeBytesPerIdleSession);
    row["context compactions"] = result.compactions;
    row["records at end"] = result.loadedRecords;
    return row;
  });
  console.log(`\nCPU µs per run (median of ${WINDOW}-run windows), one session of ${RUNS} runs, maxContextTokens ${MAX_CONTEXT}, Node ${process.version}`);
  console.table(rows);
  const file = results.find((result) => result.kind === "file");
  if (file !== undefined) {
    console.log("FileStore session file bytes / CPU µs per run, every 50 runs:");
    const series = [];
    for (let w = 4; w < file.windows.length; w += 5) {
      series.push({ run: (w + 1) * WINDOW, "file bytes": file.fileBytes[w], "cpu µs": Math.round(file.windows[w]) });
    }
    console.table(series);
  }
  if (args.json !== undefined) await writeFile(args.json, JSON.stringify({ rows, results }, null, 2));
}
