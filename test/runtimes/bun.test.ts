// The runtime matrix on Bun (the `bun` npm package, a child process): `bun run agent.mjs` in a consumer project
// runs a full tool loop of the built package against the local mock OpenAI server.

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

const bun = localBinary("bun");
if (bun === undefined)
  console.warn("runtime matrix: Bun skipped: node_modules/.bin/bun is missing (npm install)");

describe.skipIf(bun === undefined)("Bun", () => {
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

  it("runs a full tool loop with `bun run`", async () => {
    const version = (await runChild({ command: bun ?? "", args: ["--version"], cwd: consumer.dir })).trim();
    consumer.write("agent.mjs", esmAgentScript({ baseURL: server.url }));
    const stdout = await runChild({ command: bun ?? "", args: ["run", "agent.mjs"], cwd: consumer.dir });
    expect(parseRunOutput(stdout), `bun ${version}`).toEqual({
      stopReason: "completed",
      text: EXPECTED_ANSWER,
    });
    expectToolLoopRequests(server);
  });
});
