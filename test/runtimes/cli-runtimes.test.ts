// The runtime matrix for runtimes that run a script (each a child process): the built package runs a full tool
// loop against the local mock OpenAI server in a consumer project. Node 20 (this process's `node`) and Node 22
// (fetched on demand from the npm registry's `node-<platform>-<arch>@22` package into
// node_modules/.cache/agentloop-runtimes/node22 and reused from there), each from ESM and from CommonJS
// (`require`, Node >= 20.19); Bun (`bun run`) and Deno (`deno run -A`: Deno 2 reads the project's package.json
// and resolves `agentloop` from the node_modules beside it), both from the npm registry. A runtime is skipped
// only when its binary is missing or cannot be fetched, with a printed reason.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import {
  cjsAgentScript,
  EXPECTED_ANSWER,
  esmAgentScript,
  expectToolLoopRequests,
  localBinary,
  makeRuntimeConsumer,
  obtainNodeBinary,
  parseRunOutput,
  type RuntimeConsumer,
  runChild,
  startToolLoopMock,
} from "./runtime-harness.js";

interface RuntimeCase {
  name: string;
  command: string | undefined;
  /** Why the runtime is skipped, when `command` is undefined. */
  missing?: string;
  file: string;
  script: (options: { baseURL: string }) => string;
  args: (file: string) => string[];
  env?: (dir: string) => Record<string, string>;
}

/** Both Node cases (ESM and CommonJS) for one binary. */
function nodeCases(options: { label: string; command: string | undefined; missing?: string }): RuntimeCase[] {
  const shared = { command: options.command, args: (f: string) => ["--no-warnings", f] };
  const missing = options.missing !== undefined ? { missing: options.missing } : {};
  return [
    {
      name: `${options.label} (ESM import)`,
      file: "agent.mjs",
      script: esmAgentScript,
      ...shared,
      ...missing,
    },
    {
      name: `${options.label} (CommonJS require)`,
      file: "agent.cjs",
      script: cjsAgentScript,
      ...shared,
      ...missing,
    },
  ];
}

// The local `node` is one major version; the other one of the pair (20 and 22) comes from the npm registry.
const localMajor = Number(process.versions.node.split(".")[0]);
const otherMajor = localMajor === 22 ? 20 : 22;
const other = await obtainNodeBinary({ major: otherMajor, timeoutMs: 120_000 });

const CASES: RuntimeCase[] = [
  ...nodeCases({ label: `Node ${process.versions.node}`, command: process.execPath }),
  ...("path" in other
    ? nodeCases({ label: `Node ${other.version.slice(1)}`, command: other.path })
    : nodeCases({ label: `Node ${otherMajor}`, command: undefined, missing: other.reason })),
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
    console.warn(`runtime matrix: ${c.name} skipped: ${c.missing ?? "its binary is missing (npm install)"}`);
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
