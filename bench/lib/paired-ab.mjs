// Shared by the interleaved A/B benches (features.mjs; the same design as otel-overhead.mjs): start the mock
// server, order variants at random (seeded) run by run, and summarise per-run samples as a median with a
// bootstrap 95% CI of the paired differences. Plain ESM, no dependencies.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * Starts bench/mock-openai-server.mjs on a free port as a child process. Resolves `{ baseURL, server }`
 * (`baseURL` ends in `/v1`); rejects when it has not said where it listens within 10 s.
 */
export async function startMockServer() {
  const server = spawn(process.execPath, [path.join(benchDir, "mock-openai-server.mjs"), "0"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const baseURL = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.kill();
      reject(new Error("mock server did not start in 10 s"));
    }, 10_000);
    server.stdout.on("data", (d) => {
      const m = /listening on (http:\/\/\S+)/.exec(String(d));
      if (m) {
        clearTimeout(timer);
        resolve(`${m[1]}/v1`);
      }
    });
  });
  return { baseURL, server };
}

/** A seeded linear congruential generator in [0, 1): two runs of a bench make the same choices. */
export function seededRandom(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** A random permutation (Fisher–Yates) of `xs` drawn with `random`. */
export function shuffled(xs, random) {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The q-quantile of an ascending array (linear interpolation). */
export function quantile(sorted, q) {
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (i - lo);
}
export const sortNum = (xs) => Float64Array.from(xs).sort();
export const median = (xs) => quantile(sortNum(xs), 0.5);
export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A bootstrap 95% CI of the median (seeded, so a report is reproducible from its samples). */
export function bootstrapMedianCI(xs, iterations = 1000) {
  const random = seededRandom(1);
  const medians = new Float64Array(iterations);
  const sample = new Float64Array(xs.length);
  for (let i = 0; i < iterations; i++) {
    for (let j = 0; j < xs.length; j++) sample[j] = xs[Math.floor(random() * xs.length)];
    medians[i] = quantile(sample.sort(), 0.5);
  }
  medians.sort();
  return [quantile(medians, 0.025), quantile(medians, 0.975)];
}

/**
 * The per-run differences a[i] − b[i] (samples taken in the same slot of adjacent runs): their median, its
 * bootstrap 95% CI, and the median as a % of b's median.
 */
export function pairedDelta(a, b) {
  const diffs = a.map((x, i) => x - b[i]);
  const [lo, hi] = bootstrapMedianCI(diffs);
  const m = median(diffs);
  return { median: m, lo, hi, pct: (100 * m) / median(b) };
}

/** CPU µs (user + system, all threads incl. GC) and wall ms of one `await fn()`. */
export async function measureRun(fn) {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(cpu0);
  return { cpuUs: used.user + used.system, wallMs: performance.now() - wall0 };
}
