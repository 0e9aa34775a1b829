// Soak: many sequential agent runs in one process — memory must stay flat, and nothing may leak (timers,
// sockets, listeners) or go unhandled.
//
//   npm run soak                      # = npm run build && node --expose-gc bench/soak.mjs
//   node --expose-gc bench/soak.mjs [--runs 20000] [--minutes M] [--sample-every 500] [--sessions 32]
//        [--session-runs 8] [--max-slope 16] [--json] [--no-save]
//
// Runs alternate between two agents — one over the bundled mock OpenAI server (real provider, real HTTP),
// one over ScriptedModel (the loop alone, no HTTP) — and between `run` and `stream`. Every run continues a
// session in a FileStore (temp dir): `--sessions` slots, each deleted and replaced by a fresh session id after
// `--session-runs` runs, as a service with returning users does, so files stay small. The mix, per 4 runs of
// each kind in turn: a normal run (tool call, answer), an aborted run (the caller aborts 5 ms in, during a
// slow tool or the model call), a tool timeout (a hanging tool that honours its signal), a tool timeout of a
// tool that ignores its signal (never settles), and a retried model call (a 429 or a stream that breaks
// off). Every run passes a long-lived "shutdown" AbortSignal (aborted runs: their own, which follows it), as
// a server does; its listener count must not grow.
//
// Every `--sample-every` runs: two forced GCs, then heapUsed. The trend is the least-squares slope of
// heapUsed over the second half of the samples (the first half is warm-up: JIT, pools, caches), in bytes per
// 1,000 runs. Fails (exit 1) when even slope - 3 standard errors exceeds `--max-slope` bytes per run (default
// 16: a flat heap measures 8 +- 5 B/run over 10,000 runs here; retaining one small object per run — a
// WeakRef, a closure, a Map entry — is 30-60 B/run; judged only when the second half spans >= 2,000 runs),
// when active resources after closing exceed those before starting, when a listener count grew, on any
// unhandled rejection or MaxListenersExceededWarning, or when a run ended other than expected.
import { getEventListeners } from "node:events";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  baselineResources,
  excessResources,
  linearTrend,
  mib,
  printTable,
  settleResources,
  watchProcess,
  writeResult,
} from "./lib/leak-watch.mjs";

const { values: flags } = parseArgs({
  options: {
    runs: { type: "string", default: "20000" },
    minutes: { type: "string" },
    "sample-every": { type: "string", default: "500" },
    sessions: { type: "string", default: "32" },
    "session-runs": { type: "string", default: "8" },
    "max-slope": { type: "string", default: "16" },
    json: { type: "boolean", default: false },
    "no-save": { type: "boolean", default: false },
  },
});
const maxRuns = Number(flags.runs);
const deadline = flags.minutes === undefined ? Infinity : Date.now() + Number(flags.minutes) * 60_000;
const sampleEvery = Number(flags["sample-every"]);
const slots = Number(flags.sessions);
const sessionRuns = Number(flags["session-runs"]);
const maxSlopePerRun = Number(flags["max-slope"]);
const MIN_TREND_RUNS = 2_000;
if (typeof globalThis.gc !== "function") {
  console.error("soak: run with node --expose-gc (npm run soak does)");
  process.exit(2);
}
if (![maxRuns, sampleEvery, slots, sessionRuns].every((n) => Number.isInteger(n) && n > 0)) {
  console.error("soak: --runs, --sample-every, --sessions and --session-runs must be positive integers");
  process.exit(2);
}

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { Agent, FileStore, StreamInterruptedError, createOpenAI, tool } = await import(dist("index.js"));
const { ScriptedModel, startMockOpenAIServer } = await import(dist("testing/index.js"));

const watch = watchProcess();
const resourcesBefore = await baselineResources();
const processListeners = () => process.eventNames().reduce((n, e) => n + process.listenerCount(e), 0);
const processListenersBefore = processListeners();
const shutdown = new AbortController(); // long-lived, shared by every run
const shutdownListeners = () => getEventListeners(shutdown.signal, "abort").length;
const shutdownListenersBefore = shutdownListeners();

// --- tools -----------------------------------------------------------------------------------------------

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
const object = (properties) => ({ type: "object", properties, required: Object.keys(properties) });
const tools = [
  tool({
    name: "multiply",
    description: "Multiplies two integers",
    parameters: object({ a: { type: "integer" }, b: { type: "integer" } }),
    execute: ({ a, b }) => String(a * b),
  }),
  tool({
    name: "slow",
    description: "Takes 50 ms (honours its signal)",
    parameters: object({}),
    execute: async (_args, { signal }) => {
      await sleep(50, signal);
      return "slow done";
    },
  }),
  tool({
    name: "hang",
    description: "Never finishes unless aborted",
    parameters: object({}),
    timeoutMs: 10,
    execute: (_args, { signal }) =>
      new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
  }),
  tool({
    name: "hang_deaf",
    description: "Never finishes and ignores its signal",
    parameters: object({}),
    timeoutMs: 10,
    execute: () => new Promise(() => {}),
  }),
];

// --- the model's script, shared by the mock server and ScriptedModel --------------------------------------

const KINDS = ["normal", "abort", "timeout", "timeout-deaf", "retry"];
const TOOL_OF = { normal: "multiply", abort: "slow", timeout: "hang", "timeout-deaf": "hang_deaf" };
const PROMPT = /^soak (\d+) (\S+) (\w+): (\d+) times (\d+)/;
const faulted = new Set(); // "<run>:<turn>" keys that got their one fault (deleted on the retry)

/** The reply to a request: a tool call for the last user message, then an answer quoting the results. */
function decide(messages) {
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const [, run, kind, mode, a, b] = PROMPT.exec(messages[lastUser].content);
  const results = messages.slice(lastUser).filter((m) => m.role === "tool");
  const turnKey = `${run}:${results.length}`;
  let fault;
  if (kind === "retry" && !faulted.delete(turnKey)) {
    faulted.add(turnKey);
    fault = mode === "stream" ? "break-stream" : "429";
  }
  if (results.length > 0) return { fault, text: `Result: ${results.map((m) => m.content).join(" | ")}` };
  const name = TOOL_OF[kind] ?? "multiply";
  const args = name === "multiply" ? { a: Number(a), b: Number(b) } : {};
  return { fault, toolCalls: [{ name, arguments: args }] };
}

const mockScript = (body) => {
  const { fault, ...reply } = decide(body.messages);
  if (fault === "429") return { ...reply, fault: { status: 429, retryAfter: "0" } };
  if (fault === "break-stream") return { ...reply, fault: { type: "drop_mid_stream", afterEvents: 1 } };
  return reply;
};
const scriptedSteps = (request) => {
  const { fault, ...step } = decide(request.messages);
  if (fault === undefined) return step;
  // ScriptedModel: a stream that breaks after its first part (the loop retries it); see `retry` below.
  return {
    ...step,
    error: new StreamInterruptedError({ message: "soak: stream broke off" }),
    errorAfterParts: 1,
  };
};

// --- agents ----------------------------------------------------------------------------------------------

const dir = await mkdtemp(join(tmpdir(), "agentloop-soak-"));
const store = new FileStore({ dir });
const server = await startMockOpenAIServer({ script: mockScript });
const retry = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 20 };
const scripted = new ScriptedModel(scriptedSteps, { modelId: "gpt-4o-mini" });
const common = { tools, store, retry, system: "You are a soak-test agent.", limits: { maxTurns: 4 } };
const agents = {
  mock: new Agent({
    ...common,
    model: createOpenAI({ baseURL: server.url, apiKey: "test", retry })("gpt-4o-mini"),
  }),
  scripted: new Agent({ ...common, model: scripted }),
};

// --- one run ---------------------------------------------------------------------------------------------

const generation = new Array(slots).fill(0);
const slotRuns = new Array(slots).fill(0);
async function sessionFor(i) {
  const slot = i % slots;
  if (slotRuns[slot] === sessionRuns) {
    await store.delete(`soak-${slot}-${generation[slot]}`);
    generation[slot]++;
    slotRuns[slot] = 0;
  }
  slotRuns[slot]++;
  return `soak-${slot}-${generation[slot]}`;
}

const tally = { runs: 0, byOutcome: {}, retries: 0, failures: 0, failureSamples: [] };
async function oneRun(i) {
  const backend = i % 2 === 0 ? "mock" : "scripted";
  const kind = KINDS[Math.floor(i / 4) % KINDS.length];
  // ScriptedModel's generate() failure is final (request retries are a provider's job): retry it streamed.
  const mode = Math.floor(i / 2) % 2 === 0 || (kind === "retry" && backend === "scripted") ? "stream" : "run";
  const a = 10 + (i % 90);
  const b = 3 + (i % 7);
  const prompt = `soak ${i} ${kind} ${mode}: ${a} times ${b}`;
  let signal = shutdown.signal;
  let timer;
  let unfollow = () => undefined;
  if (kind === "abort") {
    // The caller's own controller, following the shutdown signal through a listener removed after the run
    // (AbortSignal.any over a long-lived signal leaks on Node 20: nodejs/node#55351).
    const caller = new AbortController();
    const onShutdown = () => caller.abort(shutdown.signal.reason);
    shutdown.signal.addEventListener("abort", onShutdown, { once: true });
    unfollow = () => shutdown.signal.removeEventListener("abort", onShutdown);
    timer = setTimeout(() => caller.abort(new Error("caller gave up")), 5);
    signal = caller.signal;
  }
  const options = { sessionId: await sessionFor(i), signal };
  let result;
  try {
    if (mode === "run") result = await agents[backend].run(prompt, options);
    else {
      const stream = agents[backend].stream(prompt, options);
      for await (const _event of stream);
      result = await stream.result;
    }
  } finally {
    clearTimeout(timer);
    unfollow();
  }
  const retries = result.events.filter((e) => e.type === "retry").length;
  tally.retries += retries;
  const expected =
    kind === "abort"
      ? result.stopReason === "aborted"
      : result.stopReason === "completed" &&
        (kind === "normal" || kind === "retry"
          ? result.text.includes(String(a * b))
          : /timed out/.test(result.text)) &&
        (kind !== "retry" || retries > 0);
  const key = `${backend}/${kind}/${result.stopReason}`;
  tally.byOutcome[key] = (tally.byOutcome[key] ?? 0) + 1;
  if (!expected) {
    tally.failures++;
    if (tally.failureSamples.length < 5)
      tally.failureSamples.push(`${prompt}: ${result.stopReason} ${result.error?.message ?? result.text}`);
  }
  // The test doubles record every request by design; they are not the library under test.
  server.requests.length = 0;
  scripted.calls.length = 0;
}

// --- samples and trend -----------------------------------------------------------------------------------

const samples = [];
async function sample(runs) {
  for (let n = 0; n < 2; n++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const m = process.memoryUsage();
  samples.push({
    runs,
    ms: Math.round(performance.now() - started),
    heapUsed: m.heapUsed,
    rss: m.rss,
    external: m.external,
    shutdownListeners: shutdownListeners(),
    processListeners: processListeners(),
    activeResources: process.getActiveResourcesInfo().length,
  });
}

// --- main ------------------------------------------------------------------------------------------------

const started = performance.now();
await sample(0);
let i = 0;
while (i < maxRuns && Date.now() < deadline) {
  await oneRun(i++);
  tally.runs = i;
  if (i % sampleEvery === 0) await sample(i);
}
if (i % sampleEvery !== 0) await sample(i);
const durationS = Math.round(performance.now() - started) / 1000;

const sessionFiles = (await readdir(dir)).length;
await server.close();
await store.close();
await rm(dir, { recursive: true, force: true });
const resourcesAfter = await settleResources(resourcesBefore);
const leaked = excessResources(resourcesBefore, resourcesAfter);

const half = samples.slice(Math.floor(samples.length / 2));
const span = half.length > 1 ? half.at(-1).runs - half[0].runs : 0;
const heap = linearTrend(half, "heapUsed");
const heapLow = heap.slope - 3 * heap.stderr; // the slope's lower bound, ~3 standard errors
const judged = span >= MIN_TREND_RUNS && half.length >= 3;
// "after": the most seen between runs (at every sample) or at the end.
const most = (key, now) => Math.max(now, ...samples.map((s) => s[key]));
const listenersGrew = {
  shutdownSignal: { before: shutdownListenersBefore, after: most("shutdownListeners", shutdownListeners()) },
  process: { before: processListenersBefore, after: most("processListeners", processListeners()) },
};
const problems = [];
if (tally.failures > 0) problems.push(`${tally.failures} runs ended unexpectedly`);
if (judged && heapLow > maxSlopePerRun) problems.push(`heap grows ${Math.round(heap.slope)} B/run`);
if (Object.keys(leaked).length > 0) problems.push(`leaked resources ${JSON.stringify(leaked)}`);
for (const [name, { before, after }] of Object.entries(listenersGrew)) {
  if (after > before) problems.push(`${name} listeners ${before} -> ${after}`);
}
if (watch.unhandledRejections > 0) problems.push(`${watch.unhandledRejections} unhandled rejections`);
if (watch.maxListenersWarnings > 0)
  problems.push(`${watch.maxListenersWarnings} MaxListenersExceededWarnings`);

const summary = {
  kind: "soak",
  date: new Date().toISOString(),
  node: process.version,
  runs: tally.runs,
  durationS,
  runsPerSecond: Math.round(tally.runs / durationS),
  outcomes: tally.byOutcome,
  retries: tally.retries,
  failures: tally.failures,
  failureSamples: tally.failureSamples,
  heapUsedStartMiB: mib(samples[0].heapUsed),
  heapUsedWarmMiB: mib(half[0].heapUsed),
  heapUsedEndMiB: mib(samples.at(-1).heapUsed),
  rssStartMiB: mib(samples[0].rss),
  rssEndMiB: mib(samples.at(-1).rss),
  heapSlopeBytesPer1000Runs: Math.round(heap.slope * 1000),
  heapSlopeStderrBytesPer1000Runs: Math.round(heap.stderr * 1000),
  rssSlopeBytesPer1000Runs: Math.round(linearTrend(half, "rss").slope * 1000),
  trend: { samples: half.length, fromRun: half[0].runs, toRun: half.at(-1).runs, judged, maxSlopePerRun },
  sessionFilesAtEnd: sessionFiles,
  listeners: listenersGrew,
  resourcesBefore,
  resourcesAfter,
  leakedResources: leaked,
  unhandledRejections: watch.unhandledRejections,
  maxListenersWarnings: watch.maxListenersWarnings,
  otherWarnings: watch.otherWarnings,
  processEvents: watch.samples,
  problems,
  ok: problems.length === 0,
  samples,
};
if (!flags["no-save"]) summary.file = writeResult("soak", summary);

if (flags.json) console.log(JSON.stringify(summary));
else {
  printTable("soak", [
    ["runs / duration", `${summary.runs} in ${durationS} s (${summary.runsPerSecond} runs/s)`],
    [
      "outcomes",
      Object.entries(summary.outcomes)
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
    ],
    ["retries seen / failures", `${summary.retries} / ${summary.failures}`],
    [
      "heapUsed start / warm / end",
      `${summary.heapUsedStartMiB} / ${summary.heapUsedWarmMiB} / ${summary.heapUsedEndMiB} MiB`,
    ],
    ["rss start / end", `${summary.rssStartMiB} / ${summary.rssEndMiB} MiB`],
    [
      "heap slope (2nd half)",
      `${summary.heapSlopeBytesPer1000Runs} ± ${summary.heapSlopeStderrBytesPer1000Runs} B per 1,000 runs` +
        ` over runs ${half[0].runs}-${half.at(-1).runs}` +
        (judged ? ` (limit ${maxSlopePerRun * 1000} at -3 SE)` : " (span too short to judge)"),
    ],
    ["session files at end", String(sessionFiles)],
    ["listeners (shutdown signal, process)", JSON.stringify(listenersGrew)],
    ["resources before / after", `${JSON.stringify(resourcesBefore)} / ${JSON.stringify(resourcesAfter)}`],
    ["unhandled / MaxListeners", `${watch.unhandledRejections} / ${watch.maxListenersWarnings}`],
    ["result", summary.ok ? "OK" : `FAILED: ${problems.join("; ")}`],
  ]);
  for (const line of watch.samples) console.log(`  ${line}`);
  if (summary.file) console.log(`  written to ${summary.file}`);
}
process.exitCode = summary.ok ? 0 : 1;
