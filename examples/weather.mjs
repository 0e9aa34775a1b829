// npm run demo — the weather-and-calculator agent, end to end through the real OpenAI provider and HTTP stack.
// Without OPENAI_API_KEY it talks to agentloop's bundled mock OpenAI-compatible server (a scripted stand-in for
// the model: it asks for the weather of both cities, then for the difference, then answers from the results).
import { Agent, createOpenAI, tool } from "agentloop";
import { startMockOpenAIServer } from "agentloop/testing";
import { calculator } from "agentloop/tools";
import { z } from "zod";

const WEATHER = { paris: { tempC: 18, sky: "partly cloudy" }, london: { tempC: 11, sky: "light rain" } };

const getWeather = tool({
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: z.object({ city: z.string().describe("City name, e.g. Paris") }),
  execute: async ({ city }) => {
    await new Promise((resolve) => setTimeout(resolve, 50)); // a pretend network call
    const w = WEATHER[city.trim().toLowerCase()];
    if (!w) throw new Error(`no weather station for ${city}`);
    return { city, ...w };
  },
});

/** The mock model's script: reads the tool results in the request like a model would. */
function mockModel(body) {
  const results = body.messages.filter((m) => m.role === "tool").map((m) => m.content);
  if (results.length === 0) {
    return {
      text: "I'll look up both cities.",
      toolCalls: [
        { name: "get_weather", arguments: { city: "Paris" } },
        { name: "get_weather", arguments: { city: "London" } },
      ],
    };
  }
  if (results.length === 2) {
    const [paris, london] = results.map((r) => JSON.parse(r));
    return {
      toolCalls: [{ name: "calculator", arguments: { expression: `${paris.tempC} - ${london.tempC}` } }],
    };
  }
  const [paris, london] = results.slice(0, 2).map((r) => JSON.parse(r));
  return {
    text:
      `Paris is ${paris.tempC}°C and ${paris.sky}; London is ${london.tempC}°C with ${london.sky}. ` +
      `Paris is warmer by ${results[2]}°C.`,
  };
}

const real = Boolean(process.env.OPENAI_API_KEY);
let server;
let model;
if (real) {
  model = createOpenAI()("gpt-4o-mini");
  console.log(
    `Using the OpenAI API (${process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1"}), model gpt-4o-mini.`,
  );
} else {
  server = await startMockOpenAIServer({ script: mockModel });
  model = createOpenAI({ baseURL: server.url, apiKey: "mock-key" })("gpt-4o-mini");
  console.log(`No OPENAI_API_KEY set: using agentloop's mock OpenAI-compatible server at ${server.url}.`);
}

const agent = new Agent({
  model,
  tools: [getWeather, calculator],
  system:
    "You compare the weather of cities. Use get_weather for each city (in parallel) and the calculator for " +
    "any arithmetic, then answer in two sentences.",
  limits: { maxTurns: 8, timeoutMs: 60_000 },
});

const task = "Compare the weather in Paris and London: how much warmer is one than the other?";
console.log(`\nTask: ${task}\n`);
const stream = agent.stream(task);
let streaming = false;
for await (const event of stream) {
  const d = event.data;
  if (event.type !== "text_delta" && streaming) {
    process.stdout.write("\n");
    streaming = false;
  }
  switch (event.type) {
    case "text_delta":
      if (!streaming) process.stdout.write(`  [${event.turn}] text: `);
      streaming = true;
      process.stdout.write(d.delta);
      break;
    case "model_call":
      console.log(
        `  [${event.turn}] model ${d.model}: ${d.finishReason.unified}, ${d.usage.totalTokens} tokens, ${d.latencyMs} ms`,
      );
      break;
    case "action":
      console.log(`  [${event.turn}] → ${d.toolName}(${JSON.stringify(d.arguments)})`);
      break;
    case "observation":
      console.log(
        `  [${event.turn}] ← ${d.toolName}: ${d.ok ? "" : "FAILED "}${d.result} (${d.durationMs} ms)`,
      );
      break;
    case "retry":
      console.log(`  [${event.turn}] retry ${d.attempt} in ${d.delayMs} ms: ${d.error}`);
      break;
    case "error":
      console.log(`  [${event.turn}] error: ${d.message}`);
      break;
    default:
      break;
  }
}
const result = await stream.result;
console.log(`\nAnswer: ${result.text}`);
console.log(
  `\nStop reason: ${result.stopReason} · turns: ${result.turns} · tool calls: ${result.toolCalls.length} · ` +
    `tokens: ${result.usage.inputTokens} in / ${result.usage.outputTokens} out · time: ${result.durationMs} ms`,
);
await server?.close();
if (result.stopReason !== "completed") process.exitCode = 1;
