// npm run example -- structured-output — a typed final answer (Agent({ output })) after a tool call, streamed
// with output_delta events. Without OPENAI_API_KEY it talks to agentloop's bundled mock OpenAI-compatible
// server, scripted to answer like a model: a tool call first, then the JSON the schema asks for.
import { Agent, createOpenAI, OutputError, tool } from "agentloop";
import { startMockOpenAIServer } from "agentloop/testing";
import { z } from "zod";

const Forecast = z.object({
  city: z.string(),
  temperatureC: z.number(),
  advice: z.string().describe("One short sentence: what to wear"),
  umbrella: z.boolean(),
});

const getWeather = tool({
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 11, sky: "light rain" }),
});

/** The mock model: asks for the weather, then answers with the JSON of the schema it was sent. */
function mockModel(body) {
  const result = body.messages.find((m) => m.role === "tool");
  if (result === undefined) return { toolCalls: [{ name: "get_weather", arguments: { city: "London" } }] };
  const weather = JSON.parse(result.content);
  const answer = {
    city: weather.city,
    temperatureC: weather.tempC,
    advice: "Wear a light coat.",
    umbrella: weather.sky.includes("rain"),
  };
  // Native structured output (response_format) answers in text; otherwise through the final_answer tool.
  if (body.response_format !== undefined) return { text: JSON.stringify(answer) };
  return { toolCalls: [{ name: "final_answer", arguments: answer }] };
}

const real = Boolean(process.env.OPENAI_API_KEY);
const server = real ? undefined : await startMockOpenAIServer({ script: mockModel });
const model = real
  ? createOpenAI()("gpt-4o-mini")
  : createOpenAI({ baseURL: server.url, apiKey: "mock-key" })("gpt-4o-mini");
console.log(
  real ? "Using the OpenAI API, model gpt-4o-mini." : `No OPENAI_API_KEY: mock server at ${server.url}.`,
);

const agent = new Agent({ model, tools: [getWeather], output: Forecast });
try {
  const stream = agent.stream("What should I wear in London today?");
  for await (const event of stream) {
    if (event.type === "action")
      console.log(`→ ${event.data.toolName}(${JSON.stringify(event.data.arguments)})`);
    if (event.type === "output_delta") console.log("  partial:", JSON.stringify(event.data.partial));
  }
  const result = await stream.result;
  if (result.output === undefined) {
    const why = OutputError.isInstance(result.error)
      ? `${result.error.reason}: ${result.error.message}`
      : result.stopReason;
    console.error(`No typed answer (${why})`);
    process.exitCode = 1;
  } else {
    // result.output is typed: { city: string; temperatureC: number; advice: string; umbrella: boolean }
    console.log(`\n${result.output.city}: ${result.output.temperatureC}°C. ${result.output.advice}`);
    console.log(result.output.umbrella ? "Take an umbrella." : "No umbrella needed.");
  }
} finally {
  await server?.close();
}
