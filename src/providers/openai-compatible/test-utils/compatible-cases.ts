import type { ModelResponse } from "../../../models/model.js";
import type { OpenAICompatiblePresetName } from "../openai-compatible-presets.js";

/**
 * What each recorded file of `test/fixtures/recorded/openai-compatible/` must replay to, through the preset of
 * the server that recorded it (values read off the files by hand). Qwen (Alibaba DashScope) has no preset: it
 * replays through plain `createOpenAI` with a base URL, as any other compatible server would.
 */

/** The folded answer a success fixture must produce (tool-call arguments parsed; `providerData` aside). */
export type CompatibleExpected = Omit<ModelResponse, "raw" | "providerData">;

/** How a recorded file is served and what comes of it. */
export type CompatibleCase =
  | {
      kind: "stream" | "generate";
      preset: OpenAICompatiblePresetName | "openai";
      expected: CompatibleExpected;
    }
  | {
      /** An error chunk inside a 200 stream. */
      kind: "stream-error";
      preset: OpenAICompatiblePresetName;
      /** The reasoning streamed before the error. */
      reasoningBefore: string;
      message: RegExp;
      errorCode: number | string;
      retryable: boolean;
    }
  | {
      /** An error body served with its recorded HTTP status. */
      kind: "status-error";
      preset: OpenAICompatiblePresetName;
      status: number;
      code: string;
      message: RegExp;
      /** Retryable through the preset (the same body through plain `createOpenAI` may not be). */
      retryable: boolean;
    };

const toolCalls = { unified: "tool_calls", raw: "tool_calls" } as const;
const sanFrancisco = { location: "San Francisco" };

/** The reasoning DeepSeek streamed (deepseek-stream-reasoning-tool-call.chunks.txt), joined. */
export const DEEPSEEK_STREAM_REASONING =
  'The user is asking for the weather in San Francisco. I need to use the weather tool to get this information. Let me invoke the weather tool with the location parameter set to "San Francisco".';

/** Every recorded file of the folder and its case. */
export const COMPATIBLE_CASES: Readonly<Record<string, CompatibleCase>> = {
  "deepseek-stream-reasoning-tool-call.chunks.txt": {
    kind: "stream",
    preset: "deepseek",
    expected: {
      text: "",
      toolCalls: [
        {
          id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
          name: "weather",
          arguments: sanFrancisco,
          rawArguments: '{"location": "San Francisco"}',
        },
      ],
      usage: {
        inputTokens: 339,
        outputTokens: 83,
        totalTokens: 422,
        cachedInputTokens: 320,
        reasoningTokens: 39,
      },
      finishReason: toolCalls,
      reasoning: DEEPSEEK_STREAM_REASONING,
      model: "deepseek-reasoner",
    },
  },
  "deepseek-nonstream-reasoning-tool-call.json": {
    kind: "generate",
    preset: "deepseek",
    expected: {
      text: "",
      toolCalls: [
        {
          id: "call_00_9V0vrf86Pc9aelHCJMZqnJBo",
          name: "weather",
          arguments: sanFrancisco,
          rawArguments: '{"location": "San Francisco"}',
        },
      ],
      usage: {
        inputTokens: 339,
        outputTokens: 92,
        totalTokens: 431,
        cachedInputTokens: 320,
        reasoningTokens: 48,
      },
      finishReason: toolCalls,
      reasoning:
        'The user is asking for the weather in San Francisco. I have a weather tool available that can get weather information for a location. I should use this tool with the location parameter set to "San Francisco". Let me call the weather function.',
      model: "deepseek-reasoner",
    },
  },
  "groq-stream-tool-call.chunks.txt": {
    kind: "stream",
    preset: "groq",
    expected: {
      text: "",
      toolCalls: [{ id: "tk85n1k4m", name: "weather", arguments: {}, rawArguments: "{}" }],
      usage: { inputTokens: 210, outputTokens: 15, totalTokens: 225 },
      finishReason: toolCalls,
      model: "llama-3.3-70b-versatile",
    },
  },
  "groq-error-400-tool-use-failed.json": {
    kind: "status-error",
    preset: "groq",
    status: 400,
    code: "tool_use_failed",
    message: /Tool call validation failed: .*did not match schema/,
    retryable: true,
  },
  "mistral-stream-tool-call.chunks.txt": {
    kind: "stream",
    preset: "mistral",
    expected: {
      text: "",
      toolCalls: [
        {
          id: "gSIMJiOkT",
          name: "weather",
          arguments: sanFrancisco,
          rawArguments: '{"location": "San Francisco"}',
        },
      ],
      usage: { inputTokens: 124, outputTokens: 22, totalTokens: 146 },
      finishReason: toolCalls,
      model: "mistral-small-latest",
    },
  },
  "ollama-nonstream-reasoning-tool-call.json": {
    kind: "generate",
    preset: "ollama",
    expected: {
      text: "",
      toolCalls: [
        {
          id: "call_o2vnpxrw",
          name: "final_result",
          arguments: { city: "Paris", country: "France" },
          rawArguments: '{"city":"Paris","country":"France"}',
        },
      ],
      usage: { inputTokens: 206, outputTokens: 194, totalTokens: 400 },
      finishReason: toolCalls,
      reasoning: "(checked below)",
      model: "gpt-oss:20b",
    },
  },
  "openrouter-stream-reasoning.sse": {
    kind: "stream",
    preset: "openrouter",
    expected: {
      text: "2 + 2 = 4",
      toolCalls: [],
      usage: {
        inputTokens: 43,
        outputTokens: 36,
        totalTokens: 79,
        cachedInputTokens: 0,
        reasoningTokens: 13,
      },
      finishReason: { unified: "stop", raw: "stop" },
      reasoning: "This is a simple arithmetic question. 2+2 equals 4.",
      model: "anthropic/claude-sonnet-4.5",
    },
  },
  "openrouter-stream-error-in-chunk.sse": {
    kind: "stream-error",
    preset: "openrouter",
    reasoningBefore: "We need to respond to a greeting. The user",
    message: /reported an error: Token limit reached$/,
    errorCode: 400,
    retryable: false,
  },
  "openrouter-error-429.json": {
    kind: "status-error",
    preset: "openrouter",
    status: 429,
    code: "429",
    message:
      /Provider returned error \(Google: google\/gemini-2\.0-flash-exp:free is temporarily rate-limited upstream/,
    retryable: true,
  },
  "qwen-stream-tool-call.chunks.txt": {
    kind: "stream",
    preset: "openai",
    expected: {
      text: "",
      toolCalls: [
        {
          id: "call_eee11723464a4b9eb8cee71d",
          name: "weather",
          arguments: sanFrancisco,
          rawArguments: '{"location": "San Francisco"}',
        },
      ],
      usage: { inputTokens: 295, outputTokens: 22, totalTokens: 317, cachedInputTokens: 0 },
      finishReason: toolCalls,
      model: "qwen3-max",
    },
  },
  "xai-stream-reasoning-tool-call.chunks.txt": {
    kind: "stream",
    preset: "xai",
    expected: {
      text: "",
      toolCalls: [
        {
          id: "call_55117580",
          name: "weather",
          arguments: sanFrancisco,
          rawArguments: '{"location":"San Francisco"}',
        },
      ],
      // xAI counts the 196 reasoning tokens outside completion_tokens (26): total 513 = 291 + 26 + 196.
      usage: {
        inputTokens: 291,
        outputTokens: 222,
        totalTokens: 513,
        cachedInputTokens: 290,
        reasoningTokens: 196,
      },
      finishReason: toolCalls,
      reasoning: "First, the user is",
      model: "grok-3-mini",
    },
  },
};
