// node examples/planner.mjs (after npm run build) — a plan-and-execute agent with a profile, end to end through the
// real OpenAI provider and HTTP stack. Without OPENAI_API_KEY it talks to agentloop's bundled mock OpenAI-compatible
// server, scripted like a planner: it plans both weather look-ups (in a code fence, which the parser forgives), then
// re-plans the subtraction from the observations, and a summarizer writes the answer from the results.
import { createOpenAI, Profile, tool } from "agentloop";
import { PlanAgent } from "agentloop/planner";
import { startMockOpenAIServer } from "agentloop/testing";
import { calculator } from "agentloop/tools";

const WEATHER = { paris: { tempC: 18, sky: "partly cloudy" }, london: { tempC: 11, sky: "light rain" } };

const getWeather = tool({
  name: "get_weather",
  description: "Current weather (temperature in °C and sky) for a city.",
  parameters: {
    type: "object",
    properties: { city: { type: "string", description: "City name, e.g. Paris" } },
    required: ["city"],
    additionalProperties: false,
  },
  execute: async ({ city }) => {
    await new Promise((resolve) => setTimeout(resolve, 30)); // a pretend network call
    const w = WEATHER[String(city).trim().toLowerCase()];
    if (!w) throw new Error(`no weather station for ${city}`);
    return { city, ...w };
  },
});

/** The step results quoted in a planner or summarizer request: `#1 get_weather {...} → ok: {...}`. */
function stepResults(text) {
  return [...text.matchAll(/^#\d+ (\S+) .* → ok: (.*)$/gm)].map(([, tool, result]) => ({ tool, result }));
}

/** The mock model: plans, re-plans from the observations, or summarizes, depending on the request. */
function mockModel(body) {
  const [system, user] = body.messages.map((m) => m.content ?? "");
  const weather = stepResults(user)
    .filter((r) => r.tool === "get_weather")
    .map((r) => JSON.parse(r.result));
  if (system.includes("Write the final answer")) {
    const [paris, london] = weather;
    const diff = stepResults(user).find((r) => r.tool === "calculator")?.result;
    return {
      text:
        `Paris is ${paris.tempC}°C and ${paris.sky}; London is ${london.tempC}°C with ${london.sky}. ` +
        `Paris is warmer by ${diff}°C.`,
    };
  }
  if (weather.length === 0) {
    const plan = [
      { type: "tool", name: "get_weather", arguments: { city: "Paris" } },
      { type: "tool", name: "get_weather", arguments: { city: "London" } },
    ];
    return { text: `Plan:\n\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\`` };
  }
  const [paris, london] = weather;
  const expression = `${paris.tempC} - ${london.tempC}`;
  return { text: JSON.stringify([{ type: "tool", name: "calculator", arguments: { expression } }]) };
}

const real = Boolean(process.env.OPENAI_API_KEY);
let server;
let model;
if (real) {
  model = createOpenAI()("gpt-4o-mini");
  console.log(
    `Using the OpenAI API (${process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1"}), gpt-4o-mini.`,
  );
} else {
  server = await startMockOpenAIServer({ script: mockModel });
  model = createOpenAI({ baseURL: server.url, apiKey: "mock-key" })("gpt-4o-mini");
  console.log(`No OPENAI_API_KEY set: using agentloop's mock OpenAI-compatible server at ${server.url}.`);
}

const profile = new Profile({
  name: "Atlas",
  role: "weather assistant",
  goals: ["Compare the weather of cities", "Give exact numbers"],
  language: "en",
  tone: "friendly",
});

const agent = new PlanAgent({
  model,
  summarizer: model,
  tools: [getWeather, calculator],
  profile,
  maxSteps: 6,
  replan: 1,
  onEvent: (event) => {
    const d = event.data;
    switch (event.type) {
      case "plan":
        console.log(`\nPlan (round ${d.round}):`);
        for (const [i, s] of d.steps.entries()) {
          const what = s.type === "tool" ? `${s.name}(${JSON.stringify(s.arguments)})` : `reply: ${s.text}`;
          console.log(`  ${i + 1}. ${what}`);
        }
        break;
      case "error":
        console.log(`  ! ${d.name}: ${d.message}`);
        break;
      default:
        break;
    }
  },
});

const task = "Compare the weather in Paris and London: how much warmer is one than the other?";
console.log(`\nTask: ${task}`);
const result = await agent.run(task);
console.log("\nObservations:");
for (const o of result.observations) {
  const outcome = o.ok ? `ok: ${o.result}` : `failed (${o.error.type}): ${o.error.message}`;
  console.log(
    `  #${o.step} [round ${o.round}] ${o.toolName}(${JSON.stringify(o.arguments)}) → ${outcome} (${o.latencyMs} ms)`,
  );
}
console.log(`\nAnswer: ${result.text}`);
console.log(
  `\nStop reason: ${result.stopReason} · model calls: ${result.turns} · ` +
    `tokens: ${result.usage.inputTokens} in / ${result.usage.outputTokens} out`,
);
await server?.close();
if (result.stopReason !== "completed") process.exitCode = 1;
