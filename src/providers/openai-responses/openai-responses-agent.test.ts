import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent.js";
import { tool } from "../../tools/tool.js";
import { createOpenAI } from "../openai/create-openai.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { completedResponse, responsesStreamBody } from "./test-utils/responses-fixtures.js";

// The agent end to end over the Responses model: Agent → loop → OpenAIResponsesModel → node:http → a local
// server replaying turn 1 = stream-reasoning-function-call.sse (reasoning + final_result call) and
// turn 2 = stream-text.sse (text). `run` gets the recorded final response objects as JSON bodies.

const TURN_1 = "stream-reasoning-function-call.sse";
const TURN_2 = "stream-text.sse";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function turn(name: string, streaming: boolean): ScriptedResponse {
  return streaming
    ? { body: responsesStreamBody(name) }
    : { body: JSON.stringify(completedResponse(name)), contentType: "application/json" };
}

describe.each([false, true])("Agent over the Responses model (stream: %s)", (streaming) => {
  it("carries the reasoning item and the function call into the second turn, then answers", async () => {
    server = await startFixtureServer([turn(TURN_1, streaming), turn(TURN_2, streaming)]);
    const seen: number[] = [];
    const finalResult = tool({
      name: "final_result",
      description: "Report the result",
      parameters: z.object({ result: z.number() }),
      execute: ({ result }) => {
        seen.push(result);
        return `recorded ${result}`;
      },
    });
    const agent = new Agent({
      model: createOpenAI({ baseURL: server.baseURL, apiKey: "k" }).responses("gpt-5"),
      tools: [finalResult],
      system: "Be brief.",
    });
    const result = streaming
      ? await agent.stream("What is 66 * 101?").result
      : await agent.run("What is 66 * 101?");

    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("The capital of France is Paris.");
    expect(seen).toEqual([6666]);
    expect(server.requests).toHaveLength(2);

    const first = server.requests[0]?.body as Record<string, unknown>;
    expect(Boolean(first.stream)).toBe(streaming);
    expect(first).toMatchObject({
      model: "gpt-5",
      instructions: "Be brief.",
      store: false,
      include: ["reasoning.encrypted_content"],
      input: [{ role: "user", content: "What is 66 * 101?" }],
    });
    expect(first.tools).toEqual([
      expect.objectContaining({ type: "function", name: "final_result", strict: false }),
    ]);

    const recorded = completedResponse(TURN_1).output ?? [];
    const second = server.requests[1]?.body as { input: unknown[] };
    expect(second.input).toEqual([
      { role: "user", content: "What is 66 * 101?" },
      recorded[0],
      recorded[1],
      { type: "function_call_output", call_id: "call_CWXgs68YprAjp6t0371hiPOI", output: "recorded 6666" },
    ]);
    expect(recorded[0]).toMatchObject({
      type: "reasoning",
      encrypted_content: expect.stringMatching(/^gAAAA/),
    });

    const assistant = result.messages.find((message) => message.role === "assistant");
    expect(assistant).toMatchObject({
      toolCalls: [{ id: "call_CWXgs68YprAjp6t0371hiPOI", name: "final_result", arguments: { result: 6666 } }],
      providerData: { openaiResponses: { output: recorded } },
    });
    expect(result.usage.reasoningTokens).toBe(448);
  });
});
