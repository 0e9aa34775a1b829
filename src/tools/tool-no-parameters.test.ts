import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import type { ToolMessage } from "../models/message.js";
import { createOpenAI } from "../providers/openai/create-openai.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "../testing/mock-openai-server.js";
import { tool } from "./tool.js";

// A tool created without `parameters` takes no arguments: whatever the model sends that means "nothing" runs it.

let server: MockOpenAIServer;
let received: unknown[];

const now = tool({
  name: "current_time",
  description: "The current time",
  execute: (args) => {
    received.push(args);
    return "09:30";
  },
});

beforeEach(async () => {
  received = [];
  server = await startMockOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

describe("tool() without parameters", () => {
  it("offers the model an empty object schema", () => {
    expect(now.jsonSchema).toEqual({ type: "object", properties: {} });
    expect(now.spec.parameters).toBe(now.jsonSchema);
    expect(now.parameters).toBe(now.jsonSchema);
  });

  it("accepts {}, empty, null or stray fields as no arguments, and refuses other values", async () => {
    for (const args of [{}, "", null, undefined, { unexpected: 1 }]) {
      await expect(now.parseArguments(args)).resolves.toEqual({ ok: true, value: {} });
    }
    const refused = await now.parseArguments([1]);
    expect(refused).toMatchObject({
      ok: false,
      issues: [{ path: "", expected: "no arguments (an empty object)" }],
    });
    expect((await now.parseArguments("abc")).ok).toBe(false);
  });

  it.each([false, true])(
    "runs when the model sends '' and '{}' as arguments over a real OpenAI stream (stream: %s)",
    async (streaming) => {
      server.setScript([
        {
          toolCalls: [
            { id: "call_empty", name: "current_time", arguments: "" },
            { id: "call_object", name: "current_time", arguments: "{}" },
          ],
        },
        { text: "It is 09:30." },
      ]);
      const agent = new Agent({
        model: createOpenAI({ baseURL: server.url, apiKey: "test-key" })("gpt-4o-mini"),
        tools: [now],
      });
      const result = streaming
        ? await agent.stream("What time is it?").result
        : await agent.run("What time is it?");
      expect(result.stopReason).toBe("completed");
      expect(received).toEqual([{}, {}]);
      const tools = result.messages.filter((message): message is ToolMessage => message.role === "tool");
      expect(
        tools.map(({ toolCallId, content, isError }) => [toolCallId, content, isError ?? false]),
      ).toEqual([
        ["call_empty", "09:30", false],
        ["call_object", "09:30", false],
      ]);
      const first = server.requests[0]?.body as { tools: Array<{ function: { parameters: unknown } }> };
      expect(first.tools[0]?.function.parameters).toEqual({ type: "object", properties: {} });
    },
  );
});
