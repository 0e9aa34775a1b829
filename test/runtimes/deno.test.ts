// The runtime matrix on Deno (the `deno` npm package, a child process): `deno run -A agent.mjs` in a consumer
// project. Deno 2 reads the project's package.json and resolves `agentloop` and its dependencies from the
// node_modules directory beside it (no import map, no network).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import {
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

const deno = localBinary("deno");
if (deno === undefined)
  console.warn("runtime matrix: Deno skipped: node_modules/.bin/deno is missing (npm install)");

describe.skipIf(deno === undefined)("Deno", () => {
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

  it("runs a full tool loop with `deno run`", async () => {
    consumer.write("agent.mjs", esmAgentScript({ baseURL: server.url }));
    const stdout = await runChild({
      command: deno ?? "",
      args: ["run", "-A", "--no-prompt", "agent.mjs"],
      cwd: consumer.dir,
      // A private cache: nothing is fetched, and the user's Deno cache is left alone.
      env: { DENO_DIR: `${consumer.dir}/.deno`, DENO_NO_UPDATE_CHECK: "1" },
    });
    expect(parseRunOutput(stdout)).toEqual({ stopReason: "completed", text: EXPECTED_ANSWER });
    expectToolLoopRequests(server);
  });
});
