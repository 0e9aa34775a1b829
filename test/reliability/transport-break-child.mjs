// Run as a separate process by transport-early-break.test.ts: drives the BUILT package (dist/, or the entry
// named by AGENTLOOP_ENTRY) through early breaks in both transports, closes the server and must then exit 0 on
// its own (a leaked socket or timer would keep it alive; an uncaught error would exit non-zero).
import { pathToFileURL } from "node:url";
import { fetchIgnoringSignal, runEarlyBreaks } from "./transport-break-scenarios.mjs";
import { startSseServer } from "./transport-sse-server.mjs";

const entry = process.env.AGENTLOOP_ENTRY ?? new URL("../../dist/index.js", import.meta.url).href;
const { Agent, createOpenAI } = await import(entry.startsWith("file:") ? entry : pathToFileURL(entry).href);
const server = await startSseServer();
const runs = Number(process.env.RUNS ?? 60);
const results = [];
for (const fetch of [undefined, globalThis.fetch, fetchIgnoringSignal]) {
  results.push(await runEarlyBreaks({ Agent, createOpenAI, baseURL: server.url, fetch, runs }));
}
await server.close();
process.stdout.write(`${JSON.stringify(results)}\n`);
