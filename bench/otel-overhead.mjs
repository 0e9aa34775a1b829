#!/usr/bin/env node
// What agentloop/otel costs per turn: the same agentloop agent as peers/agentloop.mjs (4 model turns, 6 tool
// calls per run) against the bench mock server, in four variants built once each in this process:
//   none    no hooks
//   hook    an empty onEvent hook (what any onEvent hook costs: the loop's events pass through withHooks)
//   noop    ...otelHooks() with no tracer or meter provider registered (the @opentelemetry/api no-ops)
//   sdk     ...otelHooks() with a real SDK tracer provider (SimpleSpanProcessor + InMemorySpanExporter) and an
//           SDK meter provider (a metric reader attached, so the histograms aggregate)
// Each round runs every variant --runs-per-round times, interleaved run by run (in a random order); each run's
// client CPU (process.cpuUsage around it, user+system, all threads incl. GC) ÷ 4 turns is one sample. Reports
// per variant the median and interquartile range of the samples, their mean (which carries the GC work the
// median may skip), and the paired per-run difference against `none` (and noop − hook: what otelHooks adds
// beyond any onEvent hook) as a median with a bootstrap 95% CI. Every run is checked (completed, 4 turns);
// each round, `sdk` must have exported 11 spans per run (invoke_agent + 4 chat + 6 execute_tool) and the others
// none; no global tracer or meter provider may be registered.
// Imports the built package (dist/): `npm run build` first.
//   node bench/otel-overhead.mjs [--mode run|stream|both] [--rounds 30] [--runs-per-round 20] [--warmup 50]
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { metrics, trace } from "@opentelemetry/api";
import { AggregationTemporality, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { Agent, createOpenAI, tool } from "../dist/index.js";
import { otelHooks } from "../dist/otel/index.js";
import { MAX_STEPS, MODEL, PROMPT, SYSTEM_PROMPT } from "./peers/common.mjs";
import { agentloopTools } from "./lib/agentloop-tools.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const mode = flag("--mode", "both");
const rounds = Number(flag("--rounds", 30));
const perRound = Number(flag("--runs-per-round", 20));
const warmup = Number(flag("--warmup", 50));
const TURNS = 4;
const SPANS_PER_RUN = 1 + TURNS + 6;

const server = spawn(process.execPath, [path.join(here, "mock-openai-server.mjs"), "0"], {
  stdio: ["pipe", "pipe", "inherit"],
});
const baseURL = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("mock server did not start in 10 s")), 10_000);
  server.stdout.on("data", (d) => {
    const m = /listening on (http:\/\/\S+)/.exec(String(d));
    if (m) {
      clearTimeout(timer);
      resolve(`${m[1]}/v1`);
    }
  });
});

const tools = agentloopTools({ tool, z });
const agentOf = (hooks) =>
  new Agent({
    ...hooks,
    model: createOpenAI({ baseURL, apiKey: "k" })(MODEL),
    tools,
    system: SYSTEM_PROMPT,
    limits: { maxTurns: MAX_STEPS },
    loopDetection: false, // as in peers/agentloop.mjs: the mock repeats the same calls by design
  });

class Reader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  async onShutdown() {}
  async onForceFlush() {}
}
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const meterProvider = new MeterProvider({ readers: [new Reader()] });

// `noop` relies on nothing being registered globally: its spans must not record.
if (trace.getTracer("check").startSpan("check").isRecording()) throw new Error("a global tracer is registered");
if (metrics.getMeterProvider().constructor.name !== "NoopMeterProvider")
  throw new Error(`a global meter provider is registered: ${metrics.getMeterProvider().constructor.name}`);

const VARIANTS = [
  { name: "none", agent: agentOf({}) },
  { name: "hook", agent: agentOf({ onEvent: () => {} }) },
  { name: "noop", agent: agentOf(otelHooks()) },
  { name: "sdk", agent: agentOf(otelHooks({ tracerProvider, meterProvider })) },
];

async function runOnce(agent, stream) {
  let r;
  if (stream) {
    const s = agent.stream(PROMPT);
    for await (const event of s) if (event.type === "text_delta") void event.data.delta;
    r = await s.result;
  } else {
    r = await agent.run(PROMPT);
  }
  if (r.stopReason !== "completed" || r.turns !== TURNS)
    throw new Error(`run ended ${r.stopReason} after ${r.turns} turns: ${r.error?.message ?? ""}`);
}

// Seeded, so two runs of the bench use the same orders.
let orderSeed = 7;
/** A random permutation (Fisher–Yates): which variant runs after which is balanced over the runs. */
function shuffled(xs) {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    orderSeed = (orderSeed * 1103515245 + 12345) % 2 ** 31;
    const j = Math.floor((orderSeed / 2 ** 31) * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * One round: `runs` runs of every variant, interleaved run by run (in a random order each time, so neither a
 * burst of load from other processes nor what the previous run left behind, e.g. garbage, favours a variant). Appends each run's CPU µs/turn and wall ms to
 * `samples[variant]` (index i of every variant: the same slot of adjacent runs).
 */
async function round(stream, runs, samples) {
  exporter.reset();
  for (let i = 0; i < runs; i++) {
    for (const v of shuffled(VARIANTS)) {
      const wall0 = performance.now();
      const cpu0 = process.cpuUsage();
      await runOnce(v.agent, stream);
      const used = process.cpuUsage(cpu0);
      samples?.[v.name].wall.push(performance.now() - wall0);
      samples?.[v.name].cpu.push((used.user + used.system) / TURNS);
    }
  }
  const spans = exporter.getFinishedSpans().length;
  if (spans !== runs * SPANS_PER_RUN) throw new Error(`${spans} spans exported, expected ${runs * SPANS_PER_RUN}`);
}

const quantile = (sorted, q) => {
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (i - lo);
};
const sortNum = (xs) => Float64Array.from(xs).sort();
const median = (xs) => quantile(sortNum(xs), 0.5);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A bootstrap 95% CI of the median (seeded, so a run's report is reproducible from its samples). */
function bootstrapMedianCI(xs, iterations = 1000) {
  let seed = 1;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const medians = new Float64Array(iterations);
  const sample = new Float64Array(xs.length);
  for (let i = 0; i < iterations; i++) {
    for (let j = 0; j < xs.length; j++) sample[j] = xs[Math.floor(random() * xs.length)];
    medians[i] = quantile(sample.sort(), 0.5);
  }
  medians.sort();
  return [quantile(medians, 0.025), quantile(medians, 0.975)];
}

const f1 = (x) => x.toFixed(1);
const signed = (x) => `${x >= 0 ? "+" : ""}${f1(x)}`;
/** "median [95% CI]" of the per-run differences a[i] − b[i], and the median as a % of b's median. */
function pairedDelta(a, b) {
  const diffs = a.map((x, i) => x - b[i]);
  const [lo, hi] = bootstrapMedianCI(diffs);
  return { median: median(diffs), lo, hi, pct: (100 * median(diffs)) / median(b) };
}

async function measure(stream) {
  const label = stream ? "stream" : "run";
  await round(stream, warmup);
  const samples = Object.fromEntries(VARIANTS.map((v) => [v.name, { cpu: [], wall: [] }]));
  for (let r = 0; r < rounds; r++) await round(stream, perRound, samples);
  const n = rounds * perRound;
  console.log(`\n${label}: ${n} runs (${n * TURNS} turns) per variant, interleaved run by run, ${rounds} rounds`);
  console.log(
    "variant  CPU µs/turn per run: median [p25–p75]   mean (incl. GC)  wall ms/run p50   Δ vs none per run: median [95% CI]",
  );
  for (const v of VARIANTS) {
    const s = sortNum(samples[v.name].cpu);
    const range = `[${f1(quantile(s, 0.25))}–${f1(quantile(s, 0.75))}]`;
    let delta = "";
    if (v.name !== "none") {
      const d = pairedDelta(samples[v.name].cpu, samples.none.cpu);
      delta = `${signed(d.median)} µs (${signed(d.pct)}%) [${f1(d.lo)}, ${f1(d.hi)}]`;
    }
    console.log(
      `${v.name.padEnd(8)} ${f1(quantile(s, 0.5)).padStart(27)} ${range.padEnd(15)} ${f1(mean(samples[v.name].cpu)).padStart(14)}  ${f1(median(samples[v.name].wall)).padStart(15)}   ${delta}`,
    );
  }
  // What otelHooks itself adds with no provider, beyond the cost of having any onEvent hook.
  const own = pairedDelta(samples.noop.cpu, samples.hook.cpu);
  console.log(`otelHooks' own part (noop − hook): ${signed(own.median)} µs/turn [95% CI ${f1(own.lo)}, ${f1(own.hi)}]`);
}

try {
  if (mode === "run" || mode === "both") await measure(false);
  if (mode === "stream" || mode === "both") await measure(true);
} finally {
  server.kill();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
}
