#!/usr/bin/env node
// Time to the first streamed text delta as the consumer sees it, agentloop vs a raw node:http SSE loop, against
// the bench mock server answering the first request with text (x-mock-turns: 0). Alternating samples, medians.
//   node bench/first-delta.mjs [--samples 300]
import { spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, createOpenAI } from "../dist/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const samples = Number(args[args.indexOf("--samples") + 1]) || 300;
const server = spawn(process.execPath, [path.join(here, "mock-openai-server.mjs"), "0"], { stdio: ["pipe", "pipe", "inherit"] });
const baseURL = await new Promise((resolve) => {
  server.stdout.on("data", (d) => {
    const m = /listening on (http:\/\/\S+)/.exec(String(d));
    if (m) resolve(`${m[1]}/v1`);
  });
});
const headers = { "x-mock-turns": "0" };
const messages = [{ role: "user", content: "Say something." }];

const keepAlive = new http.Agent({ keepAlive: true });
/** Raw: POST, read SSE lines until the first content delta; resolves with the time it took. */
function rawFirstDelta() {
  const t0 = performance.now();
  const body = JSON.stringify({ model: "gpt-4o-mini", messages, stream: true, stream_options: { include_usage: true } });
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseURL}/chat/completions`, {
      method: "POST",
      agent: keepAlive,
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    }, (res) => {
      let buf = "";
      let first;
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        buf += chunk;
        let nl;
        while (first === undefined && (nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
          if (JSON.parse(line.slice(6)).choices?.[0]?.delta?.content) first = performance.now() - t0;
        }
      });
      res.on("end", () => resolve(first));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const agent = new Agent({ model: createOpenAI({ baseURL, apiKey: "k", headers })("gpt-4o-mini") });
async function agentloopFirstDelta() {
  const t0 = performance.now();
  let first;
  for await (const event of agent.stream("Say something.")) {
    if (event.type === "text_delta" && first === undefined) first = performance.now() - t0;
  }
  return first;
}

const results = { raw: [], agentloop: [] };
for (let i = 0; i < 50; i++) {
  await rawFirstDelta();
  await agentloopFirstDelta();
}
for (let i = 0; i < samples; i++) {
  results.raw.push(await rawFirstDelta());
  results.agentloop.push(await agentloopFirstDelta());
}
server.kill();
const q = (a, p) => a.sort((x, y) => x - y)[Math.floor(p * (a.length - 1))];
for (const [name, a] of Object.entries(results)) {
  console.log(`${name.padEnd(10)} first text delta: p50 ${q(a, 0.5).toFixed(3)} ms, p95 ${q(a, 0.95).toFixed(3)} ms`);
}
console.log(`ratio p50: ${(q(results.agentloop, 0.5) / q(results.raw, 0.5)).toFixed(2)}`);
