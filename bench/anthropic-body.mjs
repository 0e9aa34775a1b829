#!/usr/bin/env node
// CPU cost of building one Anthropic Messages request body at history lengths 10, 100 and 1,000 messages:
// the cached builder (src/providers/anthropic/build-anthropic-body.ts: per-message JSON, assembled from cached
// pieces) against the former whole-body builder (kept as the tests' reference,
// src/providers/anthropic/test-utils/reference-anthropic-body.ts). Both are bundled from the TypeScript
// sources with esbuild into a temporary directory (they are internals, not in dist/).
//
// A turn is what an agent sends after a tool round: the history so far (the same message objects every
// turn) plus two new message objects (an assistant tool call and its result). Each sample builds the body
// for a fresh pair of new messages; prompt caching "auto" (breakpoints placed), no tools. Reported per
// length: the median CPU µs (process.cpuUsage, user+system) of `build` and of `build + encode` (the body as
// UTF-8 bytes, `Buffer.from(body)` as the Node transport does; the cached builder's string is a rope of the
// cached pieces, which this flattens), and the
// ratio old ÷ new. Every sample checks that both builders produced the same text.
//   node bench/anthropic-body.mjs [--lengths 10,100,1000] [--rounds 15] [--iterations 200]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : args[index + 1];
};
const lengths = option("lengths", "10,100,1000").split(",").map(Number);
const rounds = Number(option("rounds", "15"));
const iterations = Number(option("iterations", "200"));

const out = mkdtempSync(path.join(tmpdir(), "anthropic-body-bench-"));
let cached;
let reference;
try {
  await build({
    entryPoints: {
      cached: path.join(root, "src/providers/anthropic/build-anthropic-body.ts"),
      reference: path.join(root, "src/providers/anthropic/test-utils/reference-anthropic-body.ts"),
    },
    outdir: out,
    bundle: true,
    format: "esm",
    platform: "node",
    outExtension: { ".js": ".mjs" },
    logLevel: "error",
  });
  cached = (await import(pathToFileURL(path.join(out, "cached.mjs")).href)).buildAnthropicBody;
  reference = (await import(pathToFileURL(path.join(out, "reference.mjs")).href)).referenceAnthropicBody;
} finally {
  rmSync(out, { recursive: true, force: true });
}

const RESULT = "Weather in Paris: 18 C, light rain, wind 12 km/h from the south-west; humidity 81 %. ".repeat(3);
let callId = 0;

/** One tool round: an assistant message with one call (and a sentence), and its result. */
function round() {
  const id = `toolu_${String(callId++).padStart(8, "0")}`;
  return [
    {
      role: "assistant",
      content: "Let me look that up.",
      toolCalls: [{ id, name: "get_weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }],
    },
    { role: "tool", toolCallId: id, toolName: "get_weather", content: RESULT },
  ];
}

/** A history of `length` messages: a system prompt, a question, then tool rounds. */
function history(length) {
  const messages = [
    { role: "system", content: "You are a weather assistant. Answer briefly and cite the tool results." },
    { role: "user", content: "What is the weather in Paris, hour by hour?" },
  ];
  while (messages.length < length) messages.push(...round());
  return messages.slice(0, length);
}

const options = (messages) => ({
  modelId: "claude-haiku-4-5",
  request: { messages },
  defaultMaxOutputTokens: 4096,
  stream: true,
  cacheControl: { type: "ephemeral" },
});

/** CPU µs per body of `iterations` turns over `base` (+2 new messages each), optionally encoded. */
function sample(builder, base, encode) {
  const turns = [];
  for (let i = 0; i < iterations; i++) turns.push([...base, ...round()]);
  const start = process.cpuUsage();
  let bytes = 0;
  for (const messages of turns) {
    const body = builder(options(messages));
    bytes += encode ? Buffer.from(body).length : body.length;
  }
  const used = process.cpuUsage(start);
  if (bytes === 0) throw new Error("empty bodies");
  return (used.user + used.system) / iterations;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

console.log(`node ${process.version}; ${rounds} rounds × ${iterations} bodies per variant, medians of rounds`);
console.log("| history | body KB | old build µs | new build µs | old÷new | old build+encode µs | new build+encode µs | old÷new |");
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const length of lengths) {
  const base = history(length - 2);
  // Same text from both, and the cached builder warmed on the history (as after the previous turn).
  const check = [...base, ...round()];
  const body = cached(options(check));
  if (body !== reference(options(check))) throw new Error(`bodies differ at length ${length}`);
  const samples = { old: [], new: [], oldEncode: [], newEncode: [] };
  for (let r = 0; r < rounds; r++) {
    // Interleaved, the order alternating per round.
    const order = r % 2 === 0 ? ["old", "new"] : ["new", "old"];
    for (const name of order) {
      const builder = name === "old" ? reference : cached;
      samples[name].push(sample(builder, base, false));
      samples[`${name}Encode`].push(sample(builder, base, true));
    }
  }
  const [o, n, oe, ne] = [samples.old, samples.new, samples.oldEncode, samples.newEncode].map(median);
  console.log(
    `| ${length} | ${(Buffer.byteLength(body) / 1024).toFixed(0)} | ${o.toFixed(1)} | ${n.toFixed(1)} | ${(o / n).toFixed(1)}× | ${oe.toFixed(1)} | ${ne.toFixed(1)} | ${(oe / ne).toFixed(1)}× |`,
  );
}
