// Load: thousands of concurrent agent runs in one process against the bundled mock OpenAI server, through the
// real OpenAI provider and HTTP stack, with injected faults so the retry paths run under load.
//
//   npm run load                      # = npm run build && node bench/load.mjs
//   node bench/load.mjs [--runs 2000] [--concurrency 2000] [--mode both|run|stream] [--fault-rate 0.02]
//                       [--seed 1] [--json] [--no-save]
//
// Every run: one model turn with two tool calls (`multiply`, synchronous; `lookup`, async with a timer), then
// one answer turn that quotes both tool results. A run passes when it completes and its answer contains both
// results. `--fault-rate` of the chat requests (seeded, default 2%) get a fault instead of an answer: a 429
// with `retry-after: 0`, a socket dropped before the headers, or a body/stream dropped half-way. Reports wall
// time, runs/s, run latency percentiles, peak RSS/heap, retries, and the process's hygiene: unhandled
// rejections, MaxListenersExceededWarning, and active resources before the server started vs after it closed.
// Exits 1 on any failed run, unhandled rejection, listener warning or leaked resource.
import { parseArgs } from "node:util";
import {
  baselineResources,
  excessResources,
  mib,
  peakSampler,
  percentile,
  printTable,
  seededRandom,
  settleResources,
  watchProcess,
  writeResult,
} from "./lib/leak-watch.mjs";

const { values: flags } = parseArgs({
  options: {
    runs: { type: "string", default: "2000" },
    concurrency: { type: "string" },
    mode: { type: "string", default: "both" },
    "fault-rate": { type: "string", default: "0.02" },
    seed: { type: "string", default: "1" },
    json: { type: "boolean", default: false },
    "no-save": { type: "boolean", default: false },
  },
});
const runs = Number(flags.runs);
const concurrency = flags.concurrency === undefined ? runs : Number(flags.concurrency);
const faultRate = Number(flags["fault-rate"]);
const modes = flags.mode === "both" ? ["run", "stream"] : [flags.mode];
if (!(runs > 0) || !(concurrency > 0) || !(faultRate >= 0 && faultRate < 1)) {
  console.error("load: --runs and --concurrency must be > 0, --fault-rate in [0, 1)");
  process.exit(2);
}
if (modes.some((mode) => mode !== "run" && mode !== "stream")) {
  console.error("load: --mode is run, stream or both");
  process.exit(2);
}

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { Agent, createOpenAI, tool } = await import(dist("index.js"));
const { startMockOpenAIServer } = await import(dist("testing/index.js"));

const watch = watchProcess();
const resourcesBefore = await baselineResources();

// --- the model's script: a function of the request -------------------------------------------------------

const random = seededRandom(Number(flags.seed));
const FAULTS = [
  { status: 429, retryAfter: "0" },
  { type: "drop_before_headers" },
  { type: "drop_mid_stream", afterEvents: 2 },
];
const faultsInjected = { total: 0, byKind: {} };
const PROMPT = /^run (\d+): multiply (\d+) by (\d+), then look up "(\w+)"/;

function script(body) {
  const user = body.messages.find((m) => m.role === "user");
  const [, , a, b, key] = PROMPT.exec(String(user?.content)) ?? [];
  const results = body.messages.filter((m) => m.role === "tool").map((m) => m.content);
  const reply =
    results.length === 0
      ? {
          text: "Let me work that out.",
          toolCalls: [
            { name: "multiply", arguments: { a: Number(a), b: Number(b) } },
            { name: "lookup", arguments: { key } },
          ],
        }
      : { text: `The product is ${results[0]} and ${key} is ${results[1]}.` };
  if (faultRate > 0 && random() < faultRate) {
    const fault = FAULTS[Math.floor(random() * FAULTS.length)];
    const kind = fault.status === undefined ? fault.type : `status-${fault.status}`;
    faultsInjected.total++;
    faultsInjected.byKind[kind] = (faultsInjected.byKind[kind] ?? 0) + 1;
    return { ...reply, fault };
  }
  return reply;
}

// --- the agent -------------------------------------------------------------------------------------------

const multiply = tool({
  name: "multiply",
  description: "Multiplies two integers",
  parameters: {
    type: "object",
    properties: { a: { type: "integer" }, b: { type: "integer" } },
    required: ["a", "b"],
  },
  execute: ({ a, b }) => String(a * b),
});
const lookup = tool({
  name: "lookup",
  description: "Looks up the value stored under a key",
  parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  execute: async ({ key }) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return `value-of-${key}`;
  },
});

const server = await startMockOpenAIServer({ script });
// Request retries follow the provider's policy, stream retries the agent's: short backoff for both.
const retry = { maxRetries: 4, baseDelayMs: 5, maxDelayMs: 100 };
const model = createOpenAI({ baseURL: server.url, apiKey: "test", retry })("gpt-4o-mini");
const agent = new Agent({
  model,
  tools: [multiply, lookup],
  system: "You are a careful assistant. Use the tools.",
  retry,
  limits: { maxTurns: 4, timeoutMs: 120_000 },
});

// --- one run, and one mode of N runs ---------------------------------------------------------------------

function task(i) {
  const a = 100 + (i % 900);
  const b = 7 + (i % 13);
  const key = `k${i}`;
  return { prompt: `run ${i}: multiply ${a} by ${b}, then look up "${key}"`, expected: [`${a * b}`, key] };
}

async function oneRun(mode, i, stats) {
  const { prompt, expected } = task(i);
  const t0 = performance.now();
  let result;
  try {
    if (mode === "run") {
      result = await agent.run(prompt);
    } else {
      const stream = agent.stream(prompt);
      for await (const event of stream) if (event.type === "text_delta") stats.deltas++;
      result = await stream.result;
    }
  } catch (error) {
    stats.failures.push(`run ${i} threw: ${error?.message ?? String(error)}`);
    return;
  }
  stats.latencies.push(performance.now() - t0);
  stats.retries += result.events.filter((e) => e.type === "retry").length;
  const [product, key] = expected;
  const ok =
    result.stopReason === "completed" &&
    result.text.includes(product) &&
    result.text.includes(`value-of-${key}`) &&
    result.toolCalls.length === 2;
  if (!ok && stats.failures.length < 1_000) {
    const why = result.error?.message ?? result.text;
    stats.failures.push(`run ${i} (${mode}): ${result.stopReason}: ${why.slice(0, 200)}`);
  }
}

async function runMode(mode) {
  const stats = { latencies: [], failures: [], retries: 0, deltas: 0 };
  const faultsBefore = faultsInjected.total;
  const requestsBefore = server.requests.length;
  const sampler = peakSampler();
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < runs) await oneRun(mode, next++, stats);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, runs) }, worker));
  const wallMs = performance.now() - started;
  const peak = sampler.stop();
  const sorted = stats.latencies.sort((x, y) => x - y);
  const round = (ms) => Math.round(ms * 10) / 10;
  const summary = {
    mode,
    runs,
    concurrency: Math.min(concurrency, runs),
    wallMs: Math.round(wallMs),
    runsPerSecond: Math.round((runs / wallMs) * 1000),
    latencyMs: { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) },
    peakRssMiB: mib(peak.rss),
    peakHeapUsedMiB: mib(peak.heapUsed),
    chatRequests: server.requests.length - requestsBefore,
    faultsInjected: faultsInjected.total - faultsBefore,
    retries: stats.retries,
    failures: stats.failures.length,
    failureSamples: stats.failures.slice(0, 5),
  };
  summary.latencyMs.p99 = round(percentile(sorted, 99));
  if (mode === "stream") summary.textDeltas = stats.deltas;
  server.requests.length = 0; // the mock server records every request; not part of what is measured
  return summary;
}

// --- main ------------------------------------------------------------------------------------------------

const results = [];
for (const mode of modes) results.push(await runMode(mode));
await server.close();
const resourcesAfter = await settleResources(resourcesBefore);
const leaked = excessResources(resourcesBefore, resourcesAfter);

const summary = {
  kind: "load",
  date: new Date().toISOString(),
  node: process.version,
  faultRate,
  faultsByKind: faultsInjected.byKind,
  modes: results,
  processMaxRssMiB: mib(process.resourceUsage().maxRSS * 1024),
  resourcesBefore,
  resourcesAfter,
  leakedResources: leaked,
  unhandledRejections: watch.unhandledRejections,
  maxListenersWarnings: watch.maxListenersWarnings,
  otherWarnings: watch.otherWarnings,
  processEvents: watch.samples,
};
const failed =
  results.some((r) => r.failures > 0) ||
  watch.unhandledRejections > 0 ||
  watch.maxListenersWarnings > 0 ||
  Object.keys(leaked).length > 0;
summary.ok = !failed;
if (!flags["no-save"]) summary.file = writeResult("load", summary);

if (flags.json) {
  console.log(JSON.stringify(summary));
} else {
  for (const r of results) {
    printTable(`load: ${r.mode} mode`, [
      ["runs / concurrency", `${r.runs} / ${r.concurrency}`],
      ["wall time", `${(r.wallMs / 1000).toFixed(2)} s (${r.runsPerSecond} runs/s)`],
      ["run latency p50/p95/p99", `${r.latencyMs.p50} / ${r.latencyMs.p95} / ${r.latencyMs.p99} ms`],
      ["peak RSS / heapUsed", `${r.peakRssMiB} / ${r.peakHeapUsedMiB} MiB`],
      ["chat requests", `${r.chatRequests} (${r.faultsInjected} faults injected, ${r.retries} retries seen)`],
      ["failures", `${r.failures}${r.failures > 0 ? `: ${r.failureSamples.join(" | ")}` : ""}`],
    ]);
  }
  printTable("load: process", [
    ["process peak RSS (maxRSS)", `${summary.processMaxRssMiB} MiB`],
    ["resources before", JSON.stringify(resourcesBefore)],
    ["resources after close", JSON.stringify(resourcesAfter)],
    ["leaked resources", JSON.stringify(leaked)],
    ["unhandled rejections", String(watch.unhandledRejections)],
    ["MaxListeners warnings", `${watch.maxListenersWarnings} (other warnings: ${watch.otherWarnings})`],
    ["result", summary.ok ? "OK" : "FAILED"],
  ]);
  for (const line of watch.samples) console.log(`  ${line}`);
  if (summary.file) console.log(`  written to ${summary.file}`);
}
process.exitCode = failed ? 1 : 0;
