import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Agent } from "./agent.js";
import { validateHistory } from "./context/validate-history.js";
import { hasToolCall } from "./loop/policies/stop-conditions.js";
import { createOpenAI } from "./providers/openai/create-openai.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "./testing/mock-openai-server.js";
import { tool } from "./tools/tool.js";

// Step control end to end: Agent → loop → OpenAI provider → node:http → a local OpenAI-compatible server. What a
// step changes must be what goes over the wire, and only for that request.

let server: MockOpenAIServer;

const lookup = tool({
  name: "lookup",
  description: "Look a word up",
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `definition of ${word}`,
});
const submit = tool({
  name: "submit",
  description: "Submit the answer",
  parameters: z.object({ answer: z.string() }),
  execute: ({ answer }) => `submitted ${answer}`,
});

type WireBody = {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
  tool_choice?: unknown;
  stream?: boolean;
};
const body = (i: number) => server.requests[i]?.body as WireBody;
const wireTools = (i: number) => body(i).tools?.map((t) => t.function.name);

beforeEach(async () => {
  server = await startMockOpenAIServer();
  vi.stubEnv("OPENAI_BASE_URL", server.url);
  vi.stubEnv("OPENAI_API_KEY", "test-key");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

describe.each([false, true])("step control over the OpenAI wire format (stream: %s)", (streaming) => {
  const runIt = (agent: Agent, input: string, options = {}) =>
    streaming ? agent.stream(input, options).result : agent.run(input, options);

  it("prepareStep's model string, tools, tool_choice and system prompt go out with that request only", async () => {
    server.setScript([
      { toolCalls: [{ id: "call_a", name: "lookup", arguments: { word: "loop" } }] },
      { toolCalls: [{ id: "call_b", name: "submit", arguments: { answer: "a loop repeats" } }] },
    ]);
    const agent = new Agent({
      model: createOpenAI({ baseURL: server.url, apiKey: "test-key" })("gpt-4o-mini"),
      tools: [lookup, submit],
      system: "Be brief.",
      stopWhen: hasToolCall("submit"),
      prepareStep: ({ turn }) =>
        turn === 2
          ? {
              model: "openai:gpt-4.1",
              tools: ["submit"],
              toolChoice: { type: "tool", name: "submit" },
              system: "Submit now.",
            }
          : undefined,
    });
    const result = await runIt(agent, "What is a loop?");
    expect(result.stopReason).toBe("stop_condition");
    expect(server.requests).toHaveLength(2);
    expect(body(0).model).toBe("gpt-4o-mini");
    expect(wireTools(0)).toEqual(["lookup", "submit"]);
    expect(body(0).tool_choice).toBeUndefined();
    expect(body(0).messages[0]).toEqual({ role: "system", content: "Be brief." });
    expect(body(1).model).toBe("gpt-4.1");
    expect(wireTools(1)).toEqual(["submit"]);
    expect(body(1).tool_choice).toEqual({ type: "function", function: { name: "submit" } });
    expect(body(1).messages[0]).toEqual({ role: "system", content: "Submit now." });
    expect(Boolean(body(1).stream)).toBe(streaming);
    // The history keeps the agent's system prompt; the model_call events name the model that answered.
    expect(result.messages[0]).toEqual({ role: "system", content: "Be brief." });
    expect(result.events.flatMap((e) => (e.type === "model_call" ? [e.data.model] : []))).toEqual([
      "openai:gpt-4o-mini",
      "openai:gpt-4.1",
    ]);
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("a run's tools and toolChoice go out with every request", async () => {
    server.setScript([
      { toolCalls: [{ id: "call_a", name: "lookup", arguments: { word: "x" } }] },
      { text: "done" },
    ]);
    const agent = new Agent({ model: "openai:gpt-4o-mini", tools: [lookup, submit] });
    const result = await runIt(agent, "go", { tools: ["lookup"], toolChoice: "auto" });
    expect(result.text).toBe("done");
    expect([wireTools(0), wireTools(1)]).toEqual([["lookup"], ["lookup"]]);
    expect([body(0).tool_choice, body(1).tool_choice]).toEqual(["auto", "auto"]);
  });
});

describe("steering over the OpenAI wire format", () => {
  it("a message sent while a tool runs is in the next request, after the tool result", async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = tool({
      name: "slow",
      description: "slow",
      parameters: z.object({}),
      execute: async () => {
        started();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return "slow result";
      },
    });
    server.setScript([{ toolCalls: [{ id: "call_s", name: "slow", arguments: {} }] }, { text: "Switched." }]);
    const stream = new Agent({ model: "openai:gpt-4o-mini", tools: [slow] }).stream("Do A");
    const result = stream.result;
    await running;
    const delivered = stream.send("Do B instead.");
    release();
    expect((await result).text).toBe("Switched.");
    expect(await delivered).toBe(true);
    expect(body(1).messages.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_s", content: "slow result" },
      { role: "user", content: "Do B instead." },
    ]);
  });
});
