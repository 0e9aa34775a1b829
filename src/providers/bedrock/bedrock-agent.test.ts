import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent.js";
import { tool } from "../../tools/tool.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { signatureProblem, testBedrockModel } from "./test-utils/bedrock-test-model.js";
import { type ConverseTurn, converseAnswer } from "./test-utils/converse-answer.js";

// The agent end to end: Agent → loop → Bedrock provider → node:http → a local server speaking Converse (JSON,
// or an AWS event stream on /converse-stream), which checks every request's SigV4 signature.

const reasoning = { text: "Two words: look both up in parallel.", signature: "EqQBCkYIBxgCKkB0ZXN0LXNpZw==" };
const turn1: ConverseTurn = {
  reasoning,
  text: "Looking both up.",
  toolCalls: [
    { id: "tooluse_a", name: "lookup", input: { word: "loop" } },
    { id: "tooluse_b", name: "lookup", input: { word: "agent" } },
  ],
  usage: { inputTokens: 120, outputTokens: 60 },
};
const turn2: ConverseTurn = {
  text: "A loop repeats; an agent acts.",
  usage: { inputTokens: 200, outputTokens: 12 },
};

let server: FixtureServer | undefined;
let executions: string[];

const lookup = tool({
  name: "lookup",
  description: "Look a word up",
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => {
    executions.push(word);
    return `definition of ${word}`;
  },
});

beforeEach(() => {
  executions = [];
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each([false, true])("Agent over the Bedrock provider (stream: %s)", (streaming) => {
  it("runs a two-turn tool loop: signed requests, reasoning sent back, both results in ONE user message", async () => {
    server = await startFixtureServer([
      converseAnswer({ turn: turn1, stream: streaming }),
      converseAnswer({ turn: turn2, stream: streaming }),
    ]);
    const agent = new Agent({
      model: testBedrockModel(server.baseURL),
      tools: [lookup],
      system: "Be brief.",
      retry: { baseDelayMs: 1 },
    });
    const result = await (streaming
      ? agent.stream("Define loop and agent.").result
      : agent.run("Define loop and agent."));

    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("A loop repeats; an agent acts.");
    expect(executions.sort()).toEqual(["agent", "loop"]);
    expect(result.usage).toMatchObject({ inputTokens: 320, outputTokens: 72 });
    expect(server.requests).toHaveLength(2);
    const suffix = streaming ? "/converse-stream" : "/converse";
    for (const request of server.requests) {
      expect(request.url).toBe(`/v1/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0${suffix}`);
      expect(signatureProblem(request)).toBeUndefined();
    }

    const first = JSON.parse(server.requests[0]?.rawBody ?? "");
    expect(first.system).toEqual([{ text: "Be brief." }]);
    expect(first.toolConfig.tools[0].toolSpec.name).toBe("lookup");
    const second = JSON.parse(server.requests[1]?.rawBody ?? "");
    expect(second.messages).toEqual([
      { role: "user", content: [{ text: "Define loop and agent." }] },
      {
        role: "assistant",
        content: [
          { reasoningContent: { reasoningText: reasoning } },
          { text: "Looking both up." },
          { toolUse: { toolUseId: "tooluse_a", name: "lookup", input: { word: "loop" } } },
          { toolUse: { toolUseId: "tooluse_b", name: "lookup", input: { word: "agent" } } },
        ],
      },
      {
        role: "user",
        content: [
          { toolResult: { toolUseId: "tooluse_a", content: [{ text: "definition of loop" }] } },
          { toolResult: { toolUseId: "tooluse_b", content: [{ text: "definition of agent" }] } },
        ],
      },
    ]);
  });
});

describe("streamed events of a Bedrock agent run", () => {
  it("streams reasoning, text and tool-call deltas as agent events", async () => {
    server = await startFixtureServer([
      converseAnswer({ turn: turn1, stream: true }),
      converseAnswer({ turn: turn2, stream: true }),
    ]);
    const agent = new Agent({ model: testBedrockModel(server.baseURL), tools: [lookup] });
    const run = agent.stream("Define loop and agent.");
    const types = new Set<string>();
    for await (const event of run) types.add(event.type);
    expect((await run.result).text).toBe("A loop repeats; an agent acts.");
    for (const type of ["reasoning_delta", "text_delta", "tool_call_delta"])
      expect(types.has(type)).toBe(true);
  });
});
