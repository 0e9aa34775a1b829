import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { EmptyResponseError } from "../../src/errors/empty-response-error.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";

// A reply cut off by the output limit (finish reason "length") ends the run with stop reason
// "max_output_tokens", not "completed"; a reply of only whitespace is an empty reply (EmptyResponseError).

type Mode = "run" | "stream";
const runWith = (agent: Agent, mode: Mode, input: string, options = {}): Promise<AgentResult> =>
  mode === "run" ? agent.run(input, options) : agent.stream(input, options).result;

let server: MockOpenAIServer;
beforeAll(async () => {
  server = await startMockOpenAIServer();
});
afterAll(async () => {
  await server.close();
});

describe.each(["run", "stream"] as const)("truncated and blank replies (%s)", (mode) => {
  it("reports an answer cut off by the output limit as max_output_tokens, from a real server", async () => {
    server.setScript([{ text: "The three reasons are: first, the", finishReason: "length" }]);
    const model = createOpenAI({ baseURL: server.url, apiKey: "test" })("gpt-4o-mini");
    const result = await runWith(new Agent({ model, maxOutputTokens: 8 }), mode, "Why?");
    expect(result.stopReason).toBe("max_output_tokens");
    expect(result.text).toBe("The three reasons are: first, the");
    expect(result.error).toBeUndefined();
    const end = result.events.at(-1);
    expect(end).toMatchObject({ type: "loop_end", data: { stopReason: "max_output_tokens" } });
    // The answer is kept in the history: the conversation can be continued ("go on").
    expect(result.messages.at(-1)).toMatchObject({
      role: "assistant",
      content: "The three reasons are: first, the",
    });
  });

  it("still reports a complete answer as completed", async () => {
    const model = new ScriptedModel([{ text: "Done.", finishReason: "stop" }]);
    expect((await runWith(new Agent({ model }), mode, "Hi")).stopReason).toBe("completed");
  });

  it.each([" ", "\n\n  \t", "\u00a0\u2003"])(
    "treats a whitespace-only reply (%j) as empty",
    async (blank) => {
      const store = new MemoryStore();
      const model = new ScriptedModel([{ text: blank }]);
      const result = await runWith(new Agent({ model, store }), mode, "Hi", { sessionId: "s" });
      expect(result.stopReason).toBe("error");
      expect(EmptyResponseError.isInstance(result.error)).toBe(true);
      // The blank turn is not kept: the history ends with the user's message.
      expect(result.messages.at(-1)).toMatchObject({ role: "user", content: "Hi" });
      expect((await store.load("s"))?.messages.map((m) => m.role)).toEqual(["user"]);
    },
  );

  it("treats a whitespace-only reply from a real server as empty", async () => {
    server.setScript([{ text: "   \n" }]);
    const model = createOpenAI({ baseURL: server.url, apiKey: "test" })("gpt-4o-mini");
    const result = await runWith(new Agent({ model }), mode, "Hi");
    expect(result.stopReason).toBe("error");
    expect(EmptyResponseError.isInstance(result.error)).toBe(true);
  });
});
