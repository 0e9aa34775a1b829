// The runtime matrix on Node (this process's `node`, a child process): the built package runs a full tool loop
// against the local mock OpenAI server from ESM (`import`) and from CommonJS (`require`, Node >= 20.19).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import {
  cjsAgentScript,
  EXPECTED_ANSWER,
  esmAgentScript,
  expectToolLoopRequests,
  makeRuntimeConsumer,
  parseRunOutput,
  type RuntimeConsumer,
  runChild,
  startToolLoopMock,
} from "./runtime-harness.js";

const major = Number(process.versions.node.split(".")[0]);
// The issue asks for Node 20 and 22; only the local `node` is tested (no other version is installed here).
console.warn(
  `runtime matrix: Node ${process.versions.node} only (Node ${major === 22 ? 20 : 22} is not installed)`,
);

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

describe(`Node ${process.versions.node}`, () => {
  it("runs a full tool loop from ESM (import)", async () => {
    server.requests.length = 0;
    const script = consumer.write("agent.mjs", esmAgentScript({ baseURL: server.url }));
    const stdout = await runChild({
      command: process.execPath,
      args: ["--no-warnings", script],
      cwd: consumer.dir,
    });
    expect(parseRunOutput(stdout)).toEqual({ stopReason: "completed", text: EXPECTED_ANSWER });
    expectToolLoopRequests(server);
  });

  it("runs a full tool loop from CommonJS (require)", async () => {
    server.requests.length = 0;
    const script = consumer.write("agent.cjs", cjsAgentScript({ baseURL: server.url }));
    const stdout = await runChild({
      command: process.execPath,
      args: ["--no-warnings", script],
      cwd: consumer.dir,
    });
    expect(parseRunOutput(stdout)).toEqual({ stopReason: "completed", text: EXPECTED_ANSWER });
    expectToolLoopRequests(server);
  });
});
