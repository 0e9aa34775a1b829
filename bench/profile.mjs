#!/usr/bin/env node
// Profiles agentloop's client-side cost per turn: starts the bench mock server, runs the agentloop adapter
// N times under the V8 CPU profiler and prints the functions with the most self time, grouped by file.
//   node bench/profile.mjs [--stream] [--runs 400]
// Writes the raw profile to bench/results/agentloop-<mode>.cpuprofile (open it in Chrome DevTools).
import { spawn } from "node:child_process";
import fs from "node:fs";
import inspector from "node:inspector/promises";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const stream = args.includes("--stream");
const runs = Number(args[args.indexOf("--runs") + 1]) || 400;

const server = spawn(process.execPath, [path.join(here, "mock-openai-server.mjs"), "0"], { stdio: ["pipe", "pipe", "inherit"] });
const baseURL = await new Promise((resolve) => {
  server.stdout.on("data", (d) => {
    const m = /listening on (http:\/\/\S+)/.exec(String(d));
    if (m) resolve(`${m[1]}/v1`);
  });
});
const peer = args.includes("--peer") ? args[args.indexOf("--peer") + 1] : "agentloop";
const { runAgent } = await import(`./peers/${peer}.mjs`);
const { PROMPT } = await import("./peers/common.mjs");
const warm = args.includes("--warm") ? Number(args[args.indexOf("--warm") + 1]) : 50;
for (let i = 0; i < warm; i++) await runAgent({ baseURL, apiKey: "k", prompt: PROMPT, stream }); // warm up

const session = new inspector.Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 50 });
await session.post("Profiler.start");
const cpu0 = process.cpuUsage();
for (let i = 0; i < runs; i++) await runAgent({ baseURL, apiKey: "k", prompt: PROMPT, stream });
const cpu = process.cpuUsage(cpu0);
const { profile } = await session.post("Profiler.stop");
server.kill();

fs.mkdirSync(path.join(here, "results"), { recursive: true });
const out = path.join(here, "results", `${peer}-${stream ? "stream" : "generate"}.cpuprofile`);
fs.writeFileSync(out, JSON.stringify(profile));

// Self time per function from the sample counts.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = (profile.endTime - profile.startTime) / profile.samples.length;
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + dt);
const rows = new Map();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id);
  const file = f.url ? f.url.replace(/^.*\/(node_modules\/[^/]+|dist|bench|node:[^/]+)/, "$1") : "(native)";
  const key = `${f.functionName || "(anonymous)"}  ${file}:${f.lineNumber + 1}`;
  rows.set(key, (rows.get(key) ?? 0) + us);
}
const total = [...rows.values()].reduce((a, b) => a + b, 0);
const turns = runs * 4;
console.log(`${stream ? "stream" : "generate"}: ${runs} runs, ${((cpu.user + cpu.system) / turns).toFixed(0)} CPU µs/turn (with profiler)`);
for (const [key, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / turns).toFixed(1).padStart(6)} µs/turn  ${key}`);
}

// Self time per source area: dist chunks keep esbuild's `// src/<file>.ts` markers, so a line maps to its
// source file; node internals, natives and dependencies are grouped by kind.
// The build's source maps say which src/ file a dist line came from (node:module's SourceMap).
const maps = new Map();
function sourceOf(url, line, column) {
  if (!url.includes("/dist/")) {
    if (url === "") return "(native)";
    if (url.startsWith("node:")) return "node internals";
    const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    return dep ? `dependency ${dep[1]}` : "bench harness";
  }
  let map = maps.get(url);
  if (map === undefined) {
    const file = fileURLToPath(url);
    map = fs.existsSync(`${file}.map`) ? new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, "utf8"))) : null;
    maps.set(url, map);
  }
  const source = map?.findEntry(line, column)?.originalSource;
  if (typeof source !== "string") return "dist (unmapped)";
  const rel = source.replace(/^.*\/src\//, "");
  return rel.includes("/") ? rel.replace(/\/[^/]+$/, "/") : rel;
}
const areas = new Map();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id);
  const area = f.url === "" ? (["(idle)", "(program)", "(garbage collector)"].includes(f.functionName) ? f.functionName : "(native)") : sourceOf(f.url, f.lineNumber, f.columnNumber);
  areas.set(area, (areas.get(area) ?? 0) + us);
}
console.log("\nby area (src folder of the dist code; idle excluded from nothing):");
for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / turns).toFixed(1).padStart(6)} µs/turn  ${area}`);
}
console.log(`profile: ${out}`);
