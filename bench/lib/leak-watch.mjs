// Shared by bench/load.mjs and bench/soak.mjs: process-level leak and hygiene checks (unhandled rejections,
// warnings, active resources), percentiles, and writing a summary to bench/results/.
import { mkdirSync, writeFileSync } from "node:fs";

/**
 * Counts unhandled rejections and process warnings from now on (a counted rejection no longer crashes the
 * process: the script fails at the end instead, after printing what it saw).
 */
export function watchProcess() {
  const seen = { unhandledRejections: 0, maxListenersWarnings: 0, otherWarnings: 0, samples: [] };
  process.on("unhandledRejection", (reason) => {
    seen.unhandledRejections++;
    if (seen.samples.length < 5) seen.samples.push(`unhandledRejection: ${describe(reason)}`);
  });
  process.on("warning", (warning) => {
    if (warning.name === "MaxListenersExceededWarning") seen.maxListenersWarnings++;
    else seen.otherWarnings++;
    if (seen.samples.length < 5) seen.samples.push(`${warning.name}: ${warning.message}`);
  });
  return seen;
}

function describe(value) {
  return value instanceof Error ? `${value.name}: ${value.message}` : String(value);
}

/**
 * A baseline for {@link activeResources}: opens stdout/stderr first (their handles are created lazily, on
 * first use, and would otherwise count as "leaked" later) and lets pending close requests finish.
 */
export async function baselineResources() {
  void process.stdout;
  void process.stderr;
  await new Promise((resolve) => setTimeout(resolve, 10));
  return activeResources();
}

/** `process.getActiveResourcesInfo()` tallied by type, e.g. `{ Timeout: 1, TCPSocketWrap: 3 }`. */
export function activeResources() {
  const counts = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/** The types that have more active resources in `after` than in `before`, with both counts. */
export function excessResources(before, after) {
  const excess = {};
  for (const [type, count] of Object.entries(after)) {
    if (count > (before[type] ?? 0)) excess[type] = { before: before[type] ?? 0, after: count };
  }
  return excess;
}

/**
 * Waits (up to `timeoutMs`) until no resource type exceeds its `before` count: closed sockets and finished
 * fs requests need a few event-loop turns to disappear. Returns the last tally.
 */
export async function settleResources(before, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  let after = activeResources();
  while (Object.keys(excessResources(before, after)).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    after = activeResources();
  }
  // The polling timer itself is gone once its callback ran; tally again without it.
  return activeResources();
}

/** The p-th percentile (0–100) of a sorted array (nearest rank). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const MiB = 1024 * 1024;
export const mib = (bytes) => Math.round((bytes / MiB) * 10) / 10;

/**
 * Samples RSS and heapUsed every `intervalMs` and keeps the peaks; `stop()` returns them. (Sampled, so the
 * true peak can be a little higher; `process.resourceUsage().maxRSS` is the process's lifetime peak.)
 */
export function peakSampler(intervalMs = 20) {
  const peak = { rss: 0, heapUsed: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Writes `summary` to bench/results/<name>-<timestamp>.json (bench/results/ is git-ignored); returns the path. */
export function writeResult(name, summary, dir = new URL("../results/", import.meta.url)) {
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = new URL(`${name}-${stamp}.json`, dir);
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  return file.pathname;
}

/** Prints `rows` ([label, value] pairs) as a two-column table. */
export function printTable(title, rows) {
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`\n${title}`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
}

/** A small deterministic PRNG (mulberry32): the same seed gives the same fault pattern. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The least-squares line of `points[i][key]` over `points[i].runs`: its slope (units per run) and the slope's
 * standard error (NaN with fewer than 3 points).
 */
export function linearTrend(points, key) {
  const n = points.length;
  if (n < 3) return { slope: Number.NaN, stderr: Number.NaN };
  const mx = points.reduce((sum, p) => sum + p.runs, 0) / n;
  const my = points.reduce((sum, p) => sum + p[key], 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.runs - mx) ** 2;
    sxy += (p.runs - mx) * (p[key] - my);
  }
  if (sxx === 0) return { slope: 0, stderr: Number.NaN };
  const slope = sxy / sxx;
  let residuals = 0;
  for (const p of points) residuals += (p[key] - my - slope * (p.runs - mx)) ** 2;
  return { slope, stderr: Math.sqrt(residuals / (n - 2) / sxx) };
}
