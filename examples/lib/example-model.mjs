// Shared by the examples: the real OpenAI API when OPENAI_API_KEY is set, else agentloop's bundled mock
// OpenAI-compatible server driven by the example's script (a stand-in for the model, through the real provider
// and HTTP stack).
import { createOpenAI } from "agentloop";
import { startMockOpenAIServer } from "agentloop/testing";

/** @param {{ script: import("agentloop/testing").MockScript, modelId?: string }} options */
export async function exampleModel({ script, modelId = "gpt-4o-mini" }) {
  if (process.env.OPENAI_API_KEY) {
    console.error(`Using the OpenAI API, model ${modelId}.`);
    return { model: createOpenAI()(modelId), close: async () => {}, real: true };
  }
  const server = await startMockOpenAIServer({ script });
  console.error(`No OPENAI_API_KEY: using agentloop's mock OpenAI-compatible server at ${server.url}.`);
  return {
    model: createOpenAI({ baseURL: server.url, apiKey: "mock" })(modelId),
    close: () => server.close(),
    real: false,
  };
}

/** The tool results in a mock request, in order (what the "model" has learned so far). */
export const toolResults = (body) => body.messages.filter((m) => m.role === "tool").map((m) => m.content);
/** The user messages in a mock request. */
export const userMessages = (body) => body.messages.filter((m) => m.role === "user").map((m) => m.content);
