import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "../testing/mock-openai-server.js";
import { tool } from "../tools/tool.js";
import { createAnthropic } from "./anthropic/create-anthropic.js";
import {
  type AnthropicMockServer,
  startAnthropicMockServer,
} from "./anthropic/test-utils/anthropic-mock-server.js";
import { createOpenAI } from "./openai/create-openai.js";

// One neutral history, two providers: a conversation started on OpenAI continues on Anthropic.
let openai: MockOpenAIServer;
let anthropic: AnthropicMockServer;
const add = tool({
  name: "add",
  description: "adds",
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

beforeAll(async () => {
  openai = await startMockOpenAIServer({
    script: [
      { toolCalls: [{ id: "call_1", name: "add", arguments: { a: 2, b: 3 } }] },
      { text: "2 + 3 = 5." },
    ],
  });
  anthropic = await startAnthropicMockServer([
    {
      message: {
        id: "msg_1",
        type: "message",
        model: "claude-haiku-4-5",
        content: [{ type: "text", text: "And doubled, that is 10." }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 9 },
      },
    },
  ]);
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

describe("switching providers mid-conversation", () => {
  it("continues an OpenAI conversation (with a tool round) on Anthropic", async () => {
    const first = new Agent({
      model: createOpenAI({ baseURL: openai.url, apiKey: "k" })("gpt-4o-mini"),
      tools: [add],
      system: "You do arithmetic.",
    });
    const r1 = await first.run("What is 2 + 3?");
    expect(r1.text).toBe("2 + 3 = 5.");
    const second = first.with({
      // Caching off: this test checks the converted history, not the cache breakpoints on it.
      model: createAnthropic({ baseURL: anthropic.baseURL, apiKey: "k", promptCaching: "off" })(
        "claude-haiku-4-5",
      ),
    });
    const r2 = await second.run("Double it.", { messages: r1.messages });
    expect(r2.text).toBe("And doubled, that is 10.");
    const body = anthropic.requests[0]?.body;
    expect(body?.system).toEqual(expect.stringContaining("You do arithmetic."));
    expect(body?.messages).toEqual([
      { role: "user", content: "What is 2 + 3?" },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "call_1", name: "add", input: { a: 2, b: 3 } }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "5" }] },
      { role: "assistant", content: [{ type: "text", text: "2 + 3 = 5." }] },
      { role: "user", content: "Double it." },
    ]);
  });
});
