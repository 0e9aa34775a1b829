import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent.js";
import { tool } from "../../tools/tool.js";
import {
  compatibleStreamBody,
  readChatFixture,
  readCompatibleFixture,
  recordedToolCalls,
} from "../openai/test-utils/compatible-fixtures.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { randomSplits, streamBody } from "../openai/test-utils/fixtures.js";
import { mistralToolCallId } from "./mistral-tool-call-ids.js";
import {
  OPENAI_COMPATIBLE_PRESET_NAMES,
  OPENAI_COMPATIBLE_PRESETS,
  type OpenAICompatiblePresetName,
} from "./openai-compatible-presets.js";

// The tool loop end to end for every preset: `new Agent({ model: "<preset>:<id>" })` with the preset's base URL
// and key variables pointed at a local server speaking the Chat Completions wire format. Turn 1 is a recorded
// tool call of that server where the collection has one (DeepSeek, xAI, Groq, Mistral, Ollama), else OpenAI's
// own recording (Azure serves OpenAI's models; the others speak the same format); turn 2 a recorded text answer.

/** The first turn of a preset: a recorded tool call, how it is served and the call it holds. */
interface FirstTurn {
  response: (seed: number) => ScriptedResponse;
  /** Whether the agent streams (Ollama's recording is a non-streamed answer). */
  stream: boolean;
  call: { id: string; name: string; arguments: string };
}

function streamed(body: Buffer, call: FirstTurn["call"]): FirstTurn {
  return { response: (seed) => ({ body, splitAt: randomSplits(body.length, seed, 31) }), stream: true, call };
}

/** One tool call read off a compatible stream recording. */
function recordedCall(fixture: string): FirstTurn["call"] {
  const [call] = recordedToolCalls(fixture);
  if (call === undefined) throw new Error(`no tool call in ${fixture}`);
  return call;
}

const OPENAI_TOOL_CALL = streamed(streamBody("stream-tool-call.sse"), {
  id: "call_4XzlGBLtUe9dy3GVNV4jhq7h",
  name: "get_weather",
  arguments: '{"city":"New York City"}',
});

const compatible = (fixture: string) => streamed(compatibleStreamBody(fixture), recordedCall(fixture));

const FIRST_TURNS: Record<OpenAICompatiblePresetName, FirstTurn> = {
  azure: OPENAI_TOOL_CALL,
  openrouter: OPENAI_TOOL_CALL,
  deepseek: compatible("deepseek-stream-reasoning-tool-call.chunks.txt"),
  groq: compatible("groq-stream-tool-call.chunks.txt"),
  mistral: compatible("mistral-stream-tool-call.chunks.txt"),
  together: OPENAI_TOOL_CALL,
  fireworks: OPENAI_TOOL_CALL,
  xai: compatible("xai-stream-reasoning-tool-call.chunks.txt"),
  ollama: {
    response: () => ({
      body: readCompatibleFixture("ollama-nonstream-reasoning-tool-call.json"),
      contentType: "application/json",
    }),
    stream: false,
    call: { id: "call_o2vnpxrw", name: "final_result", arguments: '{"city":"Paris","country":"France"}' },
  },
  vllm: OPENAI_TOOL_CALL,
  lmstudio: OPENAI_TOOL_CALL,
  llamacpp: OPENAI_TOOL_CALL,
};

const TEXT = "I'm unable to provide real-time weather updates.";

let server: FixtureServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

/** The tools every recording may call; each records its arguments. */
function tools(calls: Array<{ name: string; args: unknown }>) {
  const record = (name: string) => (args: unknown) => {
    calls.push({ name, args });
    return `result of ${name}`;
  };
  return [
    tool({
      name: "weather",
      description: "Weather at a location",
      parameters: z.object({ location: z.string().optional() }),
      execute: record("weather"),
    }),
    tool({
      name: "get_weather",
      description: "Weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: record("get_weather"),
    }),
    tool({
      name: "final_result",
      description: "The answer",
      parameters: z.object({ city: z.string(), country: z.string() }),
      execute: record("final_result"),
    }),
  ];
}

/** Points the preset's variables at the server: its base URL (Azure: the endpoint) and a key. */
function pointAt(preset: OpenAICompatiblePresetName, s: FixtureServer): string {
  const { baseURLVariable, keyVariables } = OPENAI_COMPATIBLE_PRESETS[preset];
  vi.stubEnv(baseURLVariable, preset === "azure" ? s.baseURL.replace(/\/v1$/, "") : s.baseURL);
  const key = `key-${preset}`;
  vi.stubEnv(keyVariables[0] ?? "", key);
  return key;
}

describe.each(OPENAI_COMPATIBLE_PRESET_NAMES)(
  "%s: a two-turn tool loop through Agent and the model string",
  (preset) => {
    const first = FIRST_TURNS[preset];

    it.each([1, 2])(
      "seed %i: the tool runs with the recorded arguments, its result goes back, the answer ends the run",
      async (seed) => {
        const text: ScriptedResponse = first.stream
          ? { body: readChatFixture("stream-text.sse") }
          : { body: readChatFixture("nonstream-text.json"), contentType: "application/json" };
        server = await startFixtureServer([first.response(seed), text]);
        const key = pointAt(preset, server);
        const calls: Array<{ name: string; args: unknown }> = [];
        const agent = new Agent({
          model: `${preset}:my-model`,
          tools: tools(calls),
          retry: { maxRetries: 0 },
        });
        expect(agent.model.provider).toBe(preset);
        const result = first.stream ? await agent.stream("Go.").result : await agent.run("Go.");

        expect(result.error).toBeUndefined();
        expect(result.stopReason).toBe("completed");
        if (first.stream) expect(result.text.startsWith(TEXT)).toBe(true);
        else expect(result.text.length).toBeGreaterThan(100);
        expect(calls).toEqual([{ name: first.call.name, args: JSON.parse(first.call.arguments) }]);

        // Turn 2 carries the call and its result, under the id form the server accepts.
        expect(server.requests).toHaveLength(2);
        const id = preset === "mistral" ? mistralToolCallId(first.call.id) : first.call.id;
        const second = server.requests[1]?.body as { messages: Array<Record<string, unknown>> } | undefined;
        const messages = second?.messages ?? [];
        const assistant = messages.find((m) => m.role === "assistant");
        expect(assistant?.tool_calls).toEqual([
          { id, type: "function", function: { name: first.call.name, arguments: first.call.arguments } },
        ]);
        expect(messages.find((m) => m.role === "tool")).toEqual({
          role: "tool",
          tool_call_id: id,
          content: `result of ${first.call.name}`,
        });
        for (const request of server.requests) {
          expect(request.url).toBe(
            preset === "azure" ? "/openai/v1/chat/completions" : "/v1/chat/completions",
          );
          if (preset === "azure") expect(request.headers["api-key"]).toBe(key);
          else expect(request.headers.authorization).toBe(`Bearer ${key}`);
          const body = request.body as Record<string, unknown>;
          expect(body.model).toBe("my-model");
          if (first.stream) expect("stream_options" in body).toBe(preset !== "mistral");
          expect("parallel_tool_calls" in body).toBe(preset !== "deepseek");
        }
      },
    );
  },
);
