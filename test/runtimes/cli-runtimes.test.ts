// The runtime matrix for runtimes that run a script (each a child process): the built package runs a full tool
// loop against the local mock OpenAI server in a consumer project. Node (this process's `node`) from ESM and
// from CommonJS (`require`, Node >= 20.19); Bun (`bun run`) and Deno (`deno run -A`: Deno 2 reads the project's
// package.json and resolves `agentloop` from the node_modules beside it), both from the npm registry. A runtime
// is skipped only when its binary is missing, with a printed reason.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import {
  cjsAgentScript,
  EXPECTED_ANSWER,
  esmAgentScript,
  expectToolLoopRequests,
  localBinary,
  makeRuntimeConsumer,
  parseRunOutput,
  type RuntimeConsumer,
  runChild,
  startToolLoopMock,
} from "./runtime-harness.js";

interface RuntimeCase {
  name: string;
  command: string | undefined;
  file: string;
  script: (options: { baseURL: string }) => string;
  args: (file: string) => string[];
  env?: (dir: string) => Record<string, string>;
}

const node = process.versions.node;
// The issue asks for Node 20 and 22; only the local `node` is tested (no other version is installed here).
console.warn(`runtime matrix: Node ${node} only (another major version is not installed)`);

const CASES: RuntimeCase[] = [
  {
    name: `Node ${node} (ESM import)`,
    command: process.execPath,
    file: "agent.mjs",
    script: esmAgentScript,
    args: (f) => ["--no-warnings", f],
  },
  {
    name: `Node ${node} (CommonJS require)`,
    command: process.execPath,
    file: "agent.cjs",
    script: cjsAgentScript,
    args: (f) => ["--no-warnings", f],
  },
  {
    name: "Bun (bun run)",
    command: localBinary("bun"),
    file: "agent.mjs",
    script: esmAgentScript,
    args: (f) => ["run", f],
  },
  {
    name: "Deno (deno run -A)",
    command: localBinary("deno"),
    file: "agent.mjs",
    script: esmAgentScript,
    args: (f) => ["run", "-A", "--no-prompt", f],
    // A private cache: nothing is fetched, and the user's Deno cache is left alone.
    env: (dir) => ({ DENO_DIR: `${dir}/.deno`, DENO_NO_UPDATE_CHECK: "1" }),
  },
];

for (const c of CASES) {
  if (c.command === undefined)
    console.warn(`runtime matrix: ${c.name} skipped: its binary is missing (npm install)`);
}

let consumer: RuntimeConsumer;
let server: MockOpenAIServer;
beforeAll(async () => {
  consumer = makeRuntimeConsumer();
  server = await startToolLoopMock();
});
afterAll(async () => {
  consumer?.remove();
  await server?.close();
});

describe("a full tool loop of the built package", () => {
  for (const c of CASES) {
    it.skipIf(c.command === undefined)(c.name, async () => {
      server.requests.length = 0;
      consumer.write(c.file, c.script({ baseURL: server.url }));
      const stdout = await runChild({
        command: c.command ?? "",
        args: c.args(c.file),
        cwd: consumer.dir,
        ...(c.env !== undefined && { env: c.env(consumer.dir) }),
      });
      expect(parseRunOutput(stdout)).toEqual({ stopReason: "completed", text: EXPECTED_ANSWER });
      expectToolLoopRequests(server);
    });
  }
});
