#!/usr/bin/env node
// What each agentloop feature costs per turn, and what it costs when off: the agent of peers/agentloop.mjs (4
// model turns, 6 tool calls per run) against the bench mock server, in these variants, each built once:
//   raw-http  peers/raw-http.mjs, the hand-written node:http loop (the floor; not an Agent)
//   off       every feature that can be off is off: no loop detection, no run timeout (timeoutMs: Infinity),
//             no tool timeout (toolTimeoutMs: Infinity), no per-turn call cap (maxToolCallsPerTurn: Infinity),
//             no hooks, store, journal, trace, cost cap, budget, context, guardrails. (The cost meter cannot be
//             turned off: every run prices its calls.)
//   timeouts  `off` + the default limits back: run timeout 300 s, tool timeout 30 s, 128 calls per turn
//             (what peers/agentloop.mjs runs with)
//   loop      `off` + loop detection (window 4, threshold 4: the default threshold 3 stops the mock's
//             repeated calls, which is right, but then the run would not be the same run)
//   cost      `off` + limits.maxCostUsd (a per-run cap: each call reserves its worst case first)
//   budget    `off` + a shared Budget (in memory, limit far above what the bench spends)
//   context   `off` + context: { maxContextTokens: 128000 } (token counting before each call; no compaction)
//   hook      `off` + an empty onEvent hook
//   trace     `off` + trace: true (result.trace: hash-chained requests, responses, events)
//   session   `off` + a MemoryStore, a new sessionId per run
//   runlog    `off` + a MemoryJournal, a new runId per run (durable run)
//   all       every feature above at once (a durable run of a session)
//   context-est  (only with --only context-est) `context` with createEstimatingCounter() instead of gpt-tokenizer
// Each round runs every variant --runs-per-round times, interleaved run by run in a seeded random order; each
// run's client CPU (process.cpuUsage around it, user+system, all threads incl. GC) ÷ 4 turns is one sample.
// Reports per variant the median CPU µs/turn, its mean (which carries GC the median may skip), wall ms/run,
// and the paired per-run difference against `off` (median, bootstrap 95% CI). Every run is checked (completed,
// 4 turns, the feature did its thing: a trace, a stored session, a journaled end, counted events).
// Sessions and journal runs are deleted between rounds (outside the measured runs).
// Imports the built package (dist/): `npm run build` first (or BENCH_DIST=/abs/dir for another build).
//   node bench/features.mjs [--mode run|stream|both] [--rounds 15] [--runs-per-round 20] [--warmup 30]
//                           [--only off,trace,...] [--json]
//   node bench/features.mjs --profile trace [--stream] [--runs 300]
//     V8 CPU profiles of `off` and of the named variant (--runs each, after a warm-up), and the functions whose
//     self time per turn grew the most from one to the other, with the src/ file each comes from; writes the
//     profiles to bench/results/features-<variant>-<mode>.cpuprofile.
import fs from "node:fs";
import inspector from "node:inspector/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import {
  mean,
  measureRun,
  median,
  pairedDelta,
  quantile,
  seededRandom,
  shuffled,
  sortNum,
  startMockServer,
} from "./lib/paired-ab.mjs";
import { MAX_STEPS, MODEL, PROMPT, SYSTEM_PROMPT } from "./peers/common.mjs";
import { runAgent as runRawHttp } from "./peers/raw-http.mjs";
import { agentloopTools } from "./lib/agentloop-tools.mjs";

// BENCH_DIST=/abs/dir: import another build of agentloop (e.g. one made elsewhere to compare before/after; name
// the directory `.../dist` so --profile can map its chunks back to src/ files).
const distRoot =
  process.env.BENCH_DIST === undefined ? new URL("../dist/", import.meta.url) : pathToFileURL(`${process.env.BENCH_DIST}/`);
const { createEstimatingCounter } = await import(new URL("context/public.js", distRoot).href);
const { Agent, Budget, createOpenAI, MemoryJournal, MemoryStore, tool } = await import(
  new URL("index.js", distRoot).href
);

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const mode = flag("--mode", "both");
const rounds = Number(flag("--rounds", 15));
const perRound = Number(flag("--runs-per-round", 20));
const warmup = Number(flag("--warmup", 30));
const only = flag("--only", undefined)?.split(",");
const asJson = args.includes("--json");
const profileOf = flag("--profile", undefined);
const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
const TURNS = 4;

const { baseURL, server } = await startMockServer();

const tools = agentloopTools({ tool, z });
const model = createOpenAI({ baseURL, apiKey: "k" })(MODEL);
const OFF_LIMITS = { maxTurns: MAX_STEPS, timeoutMs: Infinity, maxToolCallsPerTurn: Infinity };
const DEFAULT_LIMITS = { maxTurns: MAX_STEPS };
const LOOP = { window: 4, threshold: 4 };
const CONTEXT = { maxContextTokens: 128_000 };
const MAX_COST = 1_000;

/** An agent with every feature off, then `extra` on top. */
const agentOf = (extra = {}) =>
  new Agent({
    model,
    tools,
    system: SYSTEM_PROMPT,
    loopDetection: false,
    toolTimeoutMs: Infinity,
    ...extra,
    limits: { ...OFF_LIMITS, ...extra.limits },
  });

let events = 0;
const onEvent = () => {
  events++;
};
const store = new MemoryStore();
const journal = new MemoryJournal();
let ids = 0;
const nextId = (prefix) => `${prefix}-${++ids}`;
const budget = new Budget({ limitUsd: 1e9 });

/** Checks what a feature must have done in a run (beyond completed + 4 turns). */
const checks = {
  trace: (r) => {
    if (r.trace === undefined) throw new Error("trace: no result.trace");
  },
  session: async (r, o) => {
    const s = await store.load(o.sessionId);
    if (s === undefined || s.messages.length < 9) throw new Error("session: not stored");
  },
  runlog: async (r, o) => {
    const records = await journal.load(o.runId);
    if (records?.at(-1)?.kind !== "end") throw new Error("runlog: no end record");
  },
};

const VARIANTS = [
  { name: "raw-http", raw: true },
  { name: "off", agent: agentOf() },
  { name: "timeouts", agent: agentOf({ toolTimeoutMs: undefined, limits: DEFAULT_LIMITS }) },
  { name: "loop", agent: agentOf({ loopDetection: LOOP }) },
  { name: "cost", agent: agentOf({ limits: { maxCostUsd: MAX_COST } }) },
  { name: "budget", agent: agentOf({ budget }) },
  { name: "context", agent: agentOf({ context: CONTEXT }) },
  // Opt-in (--only context-est): `context` with the character estimate instead of gpt-tokenizer's count.
  {
    name: "context-est",
    agent: agentOf({ context: { ...CONTEXT, counter: createEstimatingCounter() } }),
    optIn: true,
  },
  { name: "hook", agent: agentOf({ onEvent }), hook: true },
  { name: "trace", agent: agentOf({ trace: true }), check: checks.trace },
  {
    name: "session",
    agent: agentOf({ store }),
    options: () => ({ sessionId: nextId("s") }),
    check: checks.session,
  },
  {
    name: "runlog",
    agent: agentOf({ journal }),
    options: () => ({ runId: nextId("r") }),
    check: checks.runlog,
  },
  {
    name: "all",
    agent: agentOf({
      toolTimeoutMs: undefined,
      limits: { ...DEFAULT_LIMITS, maxCostUsd: MAX_COST },
      loopDetection: LOOP,
      budget,
      context: CONTEXT,
      onEvent,
      trace: true,
      store,
      journal,
    }),
    hook: true,
    options: () => ({ sessionId: nextId("s"), runId: nextId("r") }),
    check: async (r, o) => {
      checks.trace(r);
      await checks.session(r, o);
      await checks.runlog(r, o);
    },
  },
].filter(
  (v) => v.name === "off" || v.name === profileOf || (only === undefined ? !v.optIn : only.includes(v.name)),
);

/** One run of a variant (checked); resolves what must be checked after the CPU was read. */
async function runOnce(v, stream) {
  if (v.raw) {
    const r = await runRawHttp({ baseURL, apiKey: "k", prompt: PROMPT, stream });
    if (r.turns !== TURNS) throw new Error(`raw-http: ${r.turns} turns`);
    return undefined;
  }
  const options = v.options?.() ?? {};
  const before = events;
  let r;
  if (stream) {
    const s = v.agent.stream(PROMPT, options);
    for await (const event of s) if (event.type === "text_delta") void event.data.delta;
    r = await s.result;
  } else {
    r = await v.agent.run(PROMPT, options);
  }
  if (r.stopReason !== "completed" || r.turns !== TURNS)
    throw new Error(`${v.name}: run ended ${r.stopReason} after ${r.turns} turns: ${r.error?.message ?? ""}`);
  if (v.hook && events === before) throw new Error(`${v.name}: onEvent never called`);
  return v.check === undefined ? undefined : () => v.check(r, options);
}

/** Deletes what the session/runlog variants stored (not measured). */
async function cleanUp() {
  for (const s of await store.list()) await store.delete(s.sessionId);
  for (const r of await journal.list()) await journal.delete(r.runId);
}

/** `runs` runs of every variant, interleaved run by run in a random order; appends samples when given. */
async function round(stream, runs, random, samples) {
  for (let i = 0; i < runs; i++) {
    for (const v of shuffled(VARIANTS, random)) {
      let check;
      const m = await measureRun(async () => {
        check = await runOnce(v, stream);
      });
      await check?.();
      samples?.[v.name].cpu.push(m.cpuUs / TURNS);
      samples?.[v.name].wall.push(m.wallMs);
    }
  }
  await cleanUp();
}

const f1 = (x) => x.toFixed(1);
const f0 = (x) => x.toFixed(0);
const signed = (x, f = f1) => `${x >= 0 ? "+" : ""}${f(x)}`;

async function measure(stream) {
  const label = stream ? "stream" : "run";
  const random = seededRandom(stream ? 11 : 7);
  await round(stream, warmup, random);
  const samples = Object.fromEntries(VARIANTS.map((v) => [v.name, { cpu: [], wall: [] }]));
  for (let r = 0; r < rounds; r++) await round(stream, perRound, random, samples);
  const n = rounds * perRound;
  const rows = VARIANTS.map((v) => {
    const s = sortNum(samples[v.name].cpu);
    const row = {
      variant: v.name,
      median: quantile(s, 0.5),
      p25: quantile(s, 0.25),
      p75: quantile(s, 0.75),
      mean: mean(samples[v.name].cpu),
      wallMs: median(samples[v.name].wall),
    };
    if (v.name !== "off") row.delta = pairedDelta(samples[v.name].cpu, samples.off.cpu);
    return row;
  });
  if (asJson) {
    console.log(JSON.stringify({ mode: label, runsPerVariant: n, rows }));
    return;
  }
  console.log(
    `\n${label}: ${n} runs (${n * TURNS} turns) per variant, interleaved run by run, ${rounds} rounds`,
  );
  console.log(
    "variant   CPU µs/turn: median [p25–p75]   mean   wall ms/run   Δ vs off per run: median [95% CI]",
  );
  for (const row of rows) {
    const range = `[${f0(row.p25)}–${f0(row.p75)}]`;
    const d = row.delta;
    const delta =
      d === undefined ? "" : `${signed(d.median)} µs (${signed(d.pct, f0)}%) [${f1(d.lo)}, ${f1(d.hi)}]`;
    console.log(
      `${row.variant.padEnd(9)} ${f0(row.median).padStart(19)} ${range.padEnd(13)} ${f0(row.mean).padStart(6)} ${f1(row.wallMs).padStart(13)}   ${delta}`,
    );
  }
}

/** `src/<file>.ts` of a line of a dist chunk (esbuild keeps `// src/<file>.ts` markers), or what else it is. */
const markers = new Map();
function sourceOf(url, line) {
  if (url === "") return "(native)";
  if (!url.includes("/dist/")) {
    if (url.startsWith("node:")) return "node";
    const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    return dep ? dep[1] : url.replace(/^.*\/bench\//, "bench/");
  }
  let list = markers.get(url);
  if (list === undefined) {
    list = [];
    fs.readFileSync(new URL(url), "utf8")
      .split("\n")
      .forEach((text, i) => {
        const m = /^\/\/ (src\/.+\.ts)$/.exec(text);
        if (m) list.push([i, m[1]]);
      });
    markers.set(url, list);
  }
  let found = "dist";
  for (const [start, file] of list) if (start <= line) found = file;
  return found;
}

/** Self µs per turn by "function  file", from a V8 CPU profile of `runs` runs (idle excluded). */
function selfTimes(profile, runs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = (profile.endTime - profile.startTime) / profile.samples.length;
  const out = new Map();
  for (const id of profile.samples) {
    const f = byId.get(id).callFrame;
    if (f.functionName === "(idle)") continue;
    const key = `${f.functionName || "(anonymous)"}  ${sourceOf(f.url, f.lineNumber)}`;
    out.set(key, (out.get(key) ?? 0) + dt / (runs * TURNS));
  }
  return out;
}

async function profileVariants(name, stream, runs) {
  const session = new inspector.Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  const times = {};
  for (const v of VARIANTS.filter((x) => x.name === "off" || x.name === name)) {
    for (let i = 0; i < warmup; i++) await (await runOnce(v, stream))?.();
    await cleanUp();
    await session.post("Profiler.start");
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < runs; i++) await runOnce(v, stream); // checks skipped: they are not the feature's cost
    const cpu = process.cpuUsage(cpu0);
    const { profile } = await session.post("Profiler.stop");
    await cleanUp();
    fs.mkdirSync(resultsDir, { recursive: true });
    const out = path.join(resultsDir, `features-${v.name}-${stream ? "stream" : "run"}.cpuprofile`);
    fs.writeFileSync(out, JSON.stringify(profile));
    times[v.name] = selfTimes(profile, runs);
    console.log(
      `${v.name}: ${((cpu.user + cpu.system) / (runs * TURNS)).toFixed(0)} CPU µs/turn under the profiler`,
    );
  }
  session.disconnect();
  const a = times.off;
  const b = times[name];
  const keys = new Set([...a.keys(), ...b.keys()]);
  const diff = [...keys].map((k) => [k, (b.get(k) ?? 0) - (a.get(k) ?? 0), b.get(k) ?? 0]);
  const sum = (m) => [...m.values()].reduce((x, y) => x + y, 0);
  console.log(`self time, µs/turn: off ${sum(a).toFixed(0)}, ${name} ${sum(b).toFixed(0)}; largest growth:`);
  for (const [k, d, abs] of diff.sort((x, y) => y[1] - x[1]).slice(0, 25))
    console.log(`${signed(d).padStart(7)} (${f1(abs).padStart(5)})  ${k}`);
  const byFile = new Map();
  for (const [k, d] of diff) {
    const file = k.split("  ")[1];
    byFile.set(file, (byFile.get(file) ?? 0) + d);
  }
  console.log("growth by file:");
  for (const [file, d] of [...byFile].sort((x, y) => y[1] - x[1]).slice(0, 15))
    console.log(`${signed(d).padStart(7)}  ${file}`);
}

try {
  if (profileOf !== undefined) {
    await profileVariants(profileOf, args.includes("--stream"), Number(flag("--runs", 300)));
  } else {
    if (mode === "run" || mode === "both") await measure(false);
    if (mode === "stream" || mode === "both") await measure(true);
  }
} finally {
  server.kill();
}
