// The runtime matrix on Cloudflare's workerd (the `workerd` npm package, a child process): a module worker
// bundled with esbuild from an entry importing `agentloop` and `agentloop/web` runs the agent against the
// local mock OpenAI server on each request and streams the run back over SSE (`toSSEResponse`).
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, Socket } from "node:net";
import { build, type Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import {
  agentRunSource,
  EXPECTED_ANSWER,
  expectToolLoopRequests,
  localBinary,
  makeRuntimeConsumer,
  type RuntimeConsumer,
  startToolLoopMock,
} from "./runtime-harness.js";

const workerd = localBinary("workerd");
if (workerd === undefined) {
  console.warn("runtime matrix: workerd skipped: node_modules/.bin/workerd is missing (npm install)");
}

/** The worker: runs the agent per request (the mock's URL comes from the MOCK_URL text binding). */
const WORKER_ENTRY = `import { Agent, createOpenAI, tool } from "agentloop";
import { toSSEResponse } from "agentloop/web";
export default {
  async fetch(request, env) {
${agentRunSource({ baseURL: "MOCK_URL" }).replace('"MOCK_URL"', "env.MOCK_URL")}
    return toSSEResponse(agent.stream("What is 6 times 7?"));
  },
};
`;

/** A workerd config serving `worker.js` on `port`, allowed to reach 127.0.0.1 (the mock). */
function capnpConfig(options: { port: number; mockUrl: string; date: string; flags: string[] }): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .mainWorker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${options.port}", http = (), service = "main") ],
);
const mainWorker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "${options.date}",
  compatibilityFlags = [${options.flags.map((flag) => JSON.stringify(flag)).join(", ")}],
  bindings = [ (name = "MOCK_URL", text = ${JSON.stringify(options.mockUrl)}) ],
  globalOutbound = "internet",
);
`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A running `workerd serve`: its URL, what it printed, and a way to stop it. */
interface Workerd {
  url: string;
  output(): string;
  stop(): void;
}

/** Starts `workerd serve config.capnp` and waits until it listens, or rejects with what it printed. */
async function startWorkerd(options: { cwd: string; port: number }): Promise<Workerd> {
  const child: ChildProcess = spawn(workerd ?? "", ["serve", "config.capnp"], {
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${options.port}/`;
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`workerd exited (${child.exitCode}): ${output.trim()}`);
    // A worker that fails to load makes workerd exit 1 with the error (reported above); else wait for the socket.
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
      socket.connect(options.port, "127.0.0.1");
    });
    if (open) return { url, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  stop();
  throw new Error(`workerd did not listen within 10 s: ${output.trim()}`);
}

/** The `node:*` modules the bundled worker imports (static or dynamic), from the esbuild metafile. */
function nodeImports(metafile: Metafile): string[] {
  const found = Object.values(metafile.inputs).flatMap((input) =>
    input.imports.filter((imported) => imported.external && imported.path.startsWith("node:")),
  );
  return [...new Set(found.map((imported) => imported.path))].sort();
}

/** The `data:` of the `event: result` message of an SSE body. */
function sseResult(body: string): { stopReason: string; text: string } | undefined {
  const message = body.split("\n\n").find((block) => block.startsWith("event: result\n"));
  const data = message?.split("\n").find((line) => line.startsWith("data: "));
  return data === undefined ? undefined : (JSON.parse(data.slice(6)) as { stopReason: string; text: string });
}

describe.skipIf(workerd === undefined)("workerd", () => {
  let consumer: RuntimeConsumer;
  let server: MockOpenAIServer;
  let metafile: Metafile;
  let running: Workerd | undefined;
  beforeAll(async () => {
    consumer = makeRuntimeConsumer();
    server = await startToolLoopMock();
    consumer.write("worker-entry.mjs", WORKER_ENTRY);
    // node:* stays external: workerd provides the modules it supports (nodejs_compat), the rest fail at load.
    const result = await build({
      entryPoints: [`${consumer.dir}/worker-entry.mjs`],
      outfile: `${consumer.dir}/worker.js`,
      absWorkingDir: consumer.dir,
      bundle: true,
      format: "esm",
      platform: "browser",
      conditions: ["workerd", "worker", "browser"],
      external: ["node:*"],
      metafile: true,
      logLevel: "silent",
    });
    metafile = result.metafile;
  });
  afterAll(async () => {
    running?.stop();
    consumer?.remove();
    await server?.close();
  });

  async function serveAndFetch(options: { date: string; flags: string[] }): Promise<string> {
    server.requests.length = 0;
    const port = await freePort();
    consumer.write("config.capnp", capnpConfig({ port, mockUrl: server.url, ...options }));
    running = await startWorkerd({ cwd: consumer.dir, port });
    try {
      const response = await fetch(running.url, { signal: AbortSignal.timeout(10_000) });
      const body = await response.text();
      if (!response.ok) throw new Error(`workerd answered ${response.status}: ${running.output().trim()}`);
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      return body;
    } catch (error) {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\n${running.output().trim()}`,
      );
    } finally {
      running.stop();
      running = undefined;
    }
  }

  it("streams a full tool loop over SSE with the nodejs_compat flag", async () => {
    const body = await serveAndFetch({ date: "2026-11-17", flags: ["nodejs_compat"] });
    expect(body).toContain('"type":"action"');
    expect(body).toContain('"type":"observation"');
    expect(sseResult(body)).toMatchObject({ stopReason: "completed", text: EXPECTED_ANSWER });
    expectToolLoopRequests(server);
  });

  it("streams a full tool loop over SSE without nodejs_compat", async () => {
    // The worker bundle of agentloop + agentloop/web imports no node:* module (issue 21), so it loads where
    // there are none. An older compatibility date: nodejs_compat is on by default from 2026-08-04.
    expect(nodeImports(metafile)).toEqual([]);
    const body = await serveAndFetch({ date: "2025-01-01", flags: [] });
    expect(sseResult(body)).toMatchObject({ stopReason: "completed", text: EXPECTED_ANSWER });
    expectToolLoopRequests(server);
  });
});
