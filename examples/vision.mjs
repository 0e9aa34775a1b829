// npm run example -- vision — images in and out: the user sends a picture (bytes) with a question, and a tool
// returns a screenshot (toolContent) that the model looks at next. Without OPENAI_API_KEY it talks to
// agentloop's bundled mock OpenAI-compatible server, scripted to describe the image parts it receives.
import { Agent, createOpenAI, tool, toolContent } from "agentloop";
import { startMockOpenAIServer } from "agentloop/testing";
import { z } from "zod";

// A 2×2 PNG (red, green / blue, white), as the bytes a file read or an upload would give.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAAMIM/4EAAB/uBfsL2WiLAAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

const screenshot = tool({
  name: "take_screenshot",
  description: "Takes a screenshot of the user's screen.",
  parameters: z.object({}),
  execute: async () =>
    toolContent([
      { type: "text", text: "Screenshot taken." },
      { type: "image", data: PNG, mediaType: "image/png" },
    ]),
});

/** The mock model: counts the images it was sent, asks for a screenshot once, then describes what it saw. */
function mockModel(body) {
  const images = body.messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((p) => p.type === "image_url");
  const toolResults = body.messages.filter((m) => m.role === "tool");
  if (toolResults.length === 0)
    return {
      text: "Let me look at your screen too.",
      toolCalls: [{ name: "take_screenshot", arguments: {} }],
    };
  const kinds = images.map((p) => p.image_url.url.slice(0, p.image_url.url.indexOf(";"))).join(", ");
  return {
    text: `I received ${images.length} images (${kinds}). Both show a 2×2 grid of red, green, blue and white.`,
  };
}

const real = Boolean(process.env.OPENAI_API_KEY);
const server = real ? undefined : await startMockOpenAIServer({ script: mockModel });
const model = real
  ? createOpenAI()("gpt-4o-mini")
  : createOpenAI({ baseURL: server.url, apiKey: "mock-key" })("gpt-4o-mini");
console.log(
  real ? "Using the OpenAI API, model gpt-4o-mini." : `No OPENAI_API_KEY: mock server at ${server.url}.`,
);

try {
  const agent = new Agent({ model, tools: [screenshot] });
  const result = await agent.run([
    { type: "text", text: "What is in this picture? Compare it with my screen." },
    { type: "image", data: PNG, mediaType: "image/png" },
  ]);
  for (const call of result.toolCalls) console.log(`→ ${call.name}: ${call.result}`); // no base64 in results
  if (result.stopReason !== "completed") {
    console.error(`Stopped: ${result.stopReason}${result.error ? ` (${result.error.message})` : ""}`);
    process.exitCode = 1;
  } else {
    console.log(result.text);
  }
} finally {
  await server?.close();
}
