import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "./agent.js";
import { validateHistory } from "./context/validate-history.js";
import type { ToolGuardrail } from "./guardrails/guardrail.js";
import { secretsGuardrail } from "./guardrails/secrets-guardrail.js";
import { createOpenAI } from "./providers/openai/create-openai.js";
import { type FixtureServer, startFixtureServer } from "./providers/openai/test-utils/fixture-server.js";
import { randomSplits, streamBody } from "./providers/openai/test-utils/fixtures.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "./testing/mock-openai-server.js";
import { tool } from "./tools/tool.js";

// Guardrails end to end: Agent → loop → OpenAI provider → node:http → a local server speaking the wire format
// (the mock server, and a recorded gpt-4o response re-chunked at random byte boundaries).

let mock: MockOpenAIServer | undefined;
let fixtures: FixtureServer | undefined;
afterEach(async () => {
  await mock?.close();
  await fixtures?.close();
  mock = undefined;
  fixtures = undefined;
});

const retry = { baseDelayMs: 1 };

describe.each([false, true])("guardrails over the OpenAI provider (stream: %s)", (streaming) => {
  const runIt = (agent: Agent, input: string) => (streaming ? agent.stream(input).result : agent.run(input));

  it("a tool result with a secret never reaches the model: the run stops, no second request", async () => {
    mock = await startMockOpenAIServer({
      script: [
        { toolCalls: [{ id: "call_env", name: "read_env", arguments: {} }] },
        { text: "The key is in the result." },
      ],
    });
    const readEnv = tool({
      name: "read_env",
      description: "Reads the environment",
      parameters: z.object({}),
      execute: () => `OPENAI_API_KEY=${"sk"}-proj-abcdefghijklmnopqrstu12345\nHOME=/root`,
    });
    const agent = new Agent({
      model: createOpenAI({ baseURL: mock.url, apiKey: "test-key", retry })("gpt-4o-mini"),
      tools: [readEnv],
      retry,
      guardrails: { tool: [secretsGuardrail({ phase: "result" })] },
    });
    const result = await runIt(agent, "What is in my environment?");
    expect(result.stopReason).toBe("guardrail");
    expect(result.error).toMatchObject({ kind: "tool", phase: "result", toolCallId: "call_env" });
    expect(mock.requests).toHaveLength(1);
    expect(validateHistory(result.messages)).toEqual([]);
    expect(JSON.stringify(result.messages)).not.toContain("proj-abcdef");
  });

  it("an output guardrail withholds the model's answer", async () => {
    mock = await startMockOpenAIServer({ script: [{ text: `Write to ${"ops"}@example.com about it.` }] });
    const agent = new Agent({
      model: createOpenAI({ baseURL: mock.url, apiKey: "test-key", retry })("gpt-4o-mini"),
      retry,
      guardrails: { output: [secretsGuardrail({ kinds: ["email"], name: "pii" })] },
    });
    const result = await runIt(agent, "Who do I contact?");
    expect(result.stopReason).toBe("guardrail");
    expect(result.text).toBe("");
    expect(result.error).toMatchObject({ kind: "output", guardrailName: "pii" });
    expect(result.messages).toEqual([{ role: "user", content: "Who do I contact?" }]);
  });

  it("an input guardrail blocks before any request is made", async () => {
    mock = await startMockOpenAIServer();
    const agent = new Agent({
      model: createOpenAI({ baseURL: mock.url, apiKey: "test-key", retry })("gpt-4o-mini"),
      retry,
      guardrails: { input: [secretsGuardrail()] },
    });
    const result = await runIt(agent, `deploy with token ${"ghp"}_${"aB3dE5gH7j".repeat(4)}`);
    expect(result.stopReason).toBe("guardrail");
    expect(mock.requests).toHaveLength(0);
  });
});

describe("guardrails on a recorded response (gpt-4o, two parallel tool calls)", () => {
  it.each([1, 2, 3])("blocks one call before it runs: neither runs (re-chunked, seed %i)", async (seed) => {
    const body = streamBody("stream-parallel-tool-calls.sse");
    fixtures = await startFixtureServer({ body, splitAt: randomSplits(body.length, seed, 23) });
    const executed: string[] = [];
    const weather = tool({
      name: "GetWeatherArgs",
      description: "Weather of a city",
      parameters: z.object({ city: z.string(), country: z.string(), units: z.string().optional() }),
      execute: ({ city }) => {
        executed.push(city);
        return "12 C";
      },
    });
    const stock = tool({
      name: "get_stock_price",
      description: "A stock's price",
      parameters: z.object({ ticker: z.string(), exchange: z.string() }),
      execute: ({ ticker }) => {
        executed.push(ticker);
        return "230 USD";
      },
    });
    const seen: unknown[] = [];
    const noTrading: ToolGuardrail = {
      name: "no_markets",
      phase: "call",
      check: (check) => {
        seen.push([check.toolName, check.arguments]);
        return check.toolName === "get_stock_price"
          ? { block: true, reason: "market data is off limits" }
          : { block: false };
      },
    };
    const agent = new Agent({
      model: createOpenAI({ baseURL: fixtures.baseURL, apiKey: "test-key", retry })("gpt-4o"),
      tools: [weather, stock],
      retry,
      guardrails: { tool: [noTrading] },
    });
    const result = await agent.stream("Weather in Edinburgh and the AAPL price?").result;
    expect(result.stopReason).toBe("guardrail");
    expect(executed).toEqual([]);
    expect(seen).toEqual([
      ["GetWeatherArgs", { city: "Edinburgh", country: "GB", units: "c" }],
      ["get_stock_price", { ticker: "AAPL", exchange: "NASDAQ" }],
    ]);
    expect(result.error).toMatchObject({
      toolCallId: "call_DNYTawLBoN8fj3KN6qU9N1Ou",
      reason: "market data is off limits",
    });
    expect(fixtures.requests).toHaveLength(1);
    expect(validateHistory(result.messages)).toEqual([]);
    expect(result.messages.filter((m) => m.role === "tool")).toHaveLength(2);
  });
});
