import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../loop/agent-event.js";
import { type ConverseTurn, converseAnswer } from "../providers/bedrock/test-utils/converse-answer.js";
import { sigV4Problem } from "../providers/bedrock/test-utils/verify-sigv4.js";
import { type FixtureServer, startFixtureServer } from "../providers/openai/test-utils/fixture-server.js";
import type { RunSummary } from "./summarize-run.js";
import { runCli } from "./test-utils/run-cli.js";
import { linesOf, useCliTestEnv } from "./test-utils/use-cli-test-env.js";

// `agentloop run --model bedrock:…` as a process, against a local server speaking Bedrock's Converse API
// (JSON and AWS event streams), configured by the AWS SDKs' environment variables.

useCliTestEnv();

const MODEL = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const PATH = "/v1/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0";
const credentials = { accessKeyId: "AKIDCLITEST", secretAccessKey: "cli-test-secret" };
const turns: ConverseTurn[] = [
  {
    text: "Computing.",
    toolCalls: [{ id: "tooluse_calc", name: "calculator", input: { expression: "6 * 7" } }],
  },
  { text: "6 * 7 = 42." },
];

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function envFor(baseURL: string): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: baseURL,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  };
}

describe("agentloop run --model bedrock:…", () => {
  it("--json runs the tool loop over Converse with signed requests", async () => {
    server = await startFixtureServer(turns.map((turn) => converseAnswer({ turn, stream: false })));
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--json", "--tools", "calculator", "--model", MODEL, "What is 6 * 7?"],
      env: envFor(server.baseURL),
    });
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout) as RunSummary;
    expect(summary.stopReason).toBe("completed");
    expect(summary.text).toBe("6 * 7 = 42.");
    expect(summary.toolCalls.map((call) => [call.name, call.result])).toEqual([["calculator", "42"]]);
    expect(server.requests.map((r) => r.url)).toEqual([`${PATH}/converse`, `${PATH}/converse`]);
    for (const request of server.requests) {
      expect(
        sigV4Problem(
          { method: request.method, url: request.url, headers: request.headers, body: request.rawBody },
          credentials,
        ),
      ).toBeUndefined();
    }
  });

  it("--stream --json reads the AWS event stream", async () => {
    server = await startFixtureServer(turns.map((turn) => converseAnswer({ turn, stream: true })));
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--stream", "--json", "--tools", "calculator", "--model", MODEL, "What is 6 * 7?"],
      env: envFor(server.baseURL),
    });
    expect(code, stderr).toBe(0);
    const events = linesOf(stdout).map((line) => JSON.parse(line) as AgentEvent);
    expect(events.some((e) => e.type === "text_delta")).toBe(true);
    const last = events.at(-1);
    expect(last?.type === "loop_end" && last.data.stopReason).toBe("completed");
    expect(server.requests.map((r) => r.url)).toEqual([`${PATH}/converse-stream`, `${PATH}/converse-stream`]);
  });

  it("a missing region or missing credentials is a configuration error naming the variables (exit 3)", async () => {
    const noRegion = await runCli({ args: ["run", "--model", MODEL, "hi"], env: { AWS_ACCESS_KEY_ID: "A" } });
    expect(noRegion.code, noRegion.stderr).toBe(3);
    expect(linesOf(noRegion.stderr)).toEqual([
      expect.stringMatching(/^agentloop: error: AWS_REGION is not set/),
    ]);
    const noKeys = await runCli({ args: ["run", "--model", MODEL, "hi"], env: { AWS_REGION: "us-east-1" } });
    expect(noKeys.code, noKeys.stderr).toBe(3);
    expect(noKeys.stderr).toMatch(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY .* AWS_BEARER_TOKEN_BEDROCK/);
  });
});
