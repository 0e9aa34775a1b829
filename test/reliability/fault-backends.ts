import type { Model } from "../../src/models/model.js";
import type { AnthropicWireResponse } from "../../src/providers/anthropic/anthropic-wire-types.js";
import { createAnthropic } from "../../src/providers/anthropic/create-anthropic.js";
import {
  type AnthropicMockReply,
  startAnthropicMockServer,
} from "../../src/providers/anthropic/test-utils/anthropic-mock-server.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { startFixtureServer } from "../../src/providers/openai/test-utils/fixture-server.js";
import { startMockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import type { MockFault, MockReply } from "../../src/testing/mock-reply.js";
import type { BedrockFault } from "./bedrock-fault-backend.js";
import type { GoogleFault } from "./google-fault-backend.js";
import { type ResponsesFault, responsesAnswer } from "./responses-answer.js";

// The two real HTTP providers behind one small interface, so each fault runs through both with the same
// scenario: a turn that calls `lookup`, then (possibly faulted) more turns. Replies are provider-neutral here
// and turned into each server's wire format.

/** One scripted model turn: a `lookup(word)` call (with the text "Checking."), or a final text. */
export type Turn = { lookup: string } | { text: string };

/** A per-provider fault, injected into one turn's answer. */
export type BackendFault =
  | { openai: MockFault }
  | { anthropic: NonNullable<AnthropicMockReply["fault"]> }
  | { responses: ResponsesFault }
  | { google: GoogleFault }
  | { bedrock: BedrockFault };

/** A scripted answer: a turn, optionally broken by a fault (for the named backend). */
export interface ScriptedAnswer {
  turn: Turn;
  fault?: BackendFault;
  /** Anthropic only: an error status instead of the answer (with `retryAfter` seconds). */
  anthropicStatus?: { status: number; retryAfter?: string; type?: string };
  /** Anthropic only: an in-stream `error` event after this many events. */
  anthropicStreamError?: { afterEvents: number; type: string };
}

/** A running fault server and a model that talks to it. */
export interface FaultServer {
  model: Model;
  /** How many model requests the server received. */
  requestCount(): number;
  /** The JSON body of request `index`, as text. */
  requestBody(index: number): string;
  close(): Promise<void>;
}

/** A provider under test. `answers` are played in order; the last one repeats once the script runs out. */
export interface Backend {
  name: "openai" | "anthropic" | "responses" | "azure" | "deepseek" | "google" | "bedrock";
  start(args: {
    answers: ScriptedAnswer[];
    timeoutMs: number;
    maxRetries: number;
    /** Whether the agent streams (a byte-level server must know which body to send). */
    stream: boolean;
  }): Promise<FaultServer>;
}

const openAIReply = (answer: ScriptedAnswer): MockReply => {
  const { turn, fault } = answer;
  const reply: MockReply =
    "lookup" in turn
      ? {
          text: "Checking.",
          toolCalls: [{ id: `call_${turn.lookup}`, name: "lookup", arguments: { word: turn.lookup } }],
        }
      : { text: turn.text };
  if (fault !== undefined && "openai" in fault) reply.fault = fault.openai;
  return reply;
};

const usage = { input_tokens: 40, output_tokens: 10 };

const anthropicReply = (answer: ScriptedAnswer): AnthropicMockReply => {
  const { turn, fault, anthropicStatus, anthropicStreamError } = answer;
  const message: AnthropicWireResponse =
    "lookup" in turn
      ? {
          id: `msg_${turn.lookup}`,
          content: [
            { type: "text", text: "Checking." },
            { type: "tool_use", id: `toolu_${turn.lookup}`, name: "lookup", input: { word: turn.lookup } },
          ],
          stop_reason: "tool_use",
          usage,
        }
      : { id: "msg_text", content: [{ type: "text", text: turn.text }], stop_reason: "end_turn", usage };
  const reply: AnthropicMockReply = { message };
  if (fault !== undefined && "anthropic" in fault) reply.fault = fault.anthropic;
  if (anthropicStatus !== undefined) {
    reply.status = anthropicStatus.status;
    if (anthropicStatus.retryAfter !== undefined) reply.retryAfter = anthropicStatus.retryAfter;
    const type = anthropicStatus.type ?? "api_error";
    reply.errorBody = JSON.stringify({ type: "error", error: { type, message: type }, request_id: "req_x" });
  }
  if (anthropicStreamError !== undefined) {
    reply.streamError = { ...anthropicStreamError, message: anthropicStreamError.type };
  }
  return reply;
};

/** The provider options every backend uses: a test key, the per-attempt timeout and fast retries. */
function clientOptions({
  baseURL,
  timeoutMs,
  maxRetries,
}: {
  baseURL: string;
  timeoutMs: number;
  maxRetries: number;
}) {
  return { baseURL, apiKey: "test-key", timeoutMs, retry: { baseDelayMs: 1, maxRetries } };
}

export const openAIBackend: Backend = {
  name: "openai",
  async start({ answers, timeoutMs, maxRetries }) {
    const replies = answers.map(openAIReply);
    const server = await startMockOpenAIServer({
      script: (_body, index) => replies[Math.min(index, replies.length - 1)] as MockReply,
    });
    const provider = createOpenAI(clientOptions({ baseURL: server.url, timeoutMs, maxRetries }));
    return {
      model: provider("gpt-4o-mini"),
      requestCount: () => server.requests.filter((r) => r.path.startsWith("/v1/chat")).length,
      requestBody: (index) => server.requests[index]?.rawBody ?? "",
      close: () => server.close(),
    };
  },
};

export const anthropicBackend: Backend = {
  name: "anthropic",
  async start({ answers, timeoutMs, maxRetries }) {
    const server = await startAnthropicMockServer(answers.map(anthropicReply));
    const provider = createAnthropic(clientOptions({ baseURL: server.baseURL, timeoutMs, maxRetries }));
    return {
      model: provider("claude-haiku-4-5"),
      requestCount: () => server.requests.length,
      requestBody: (index) => JSON.stringify(server.requests[index]?.body ?? null),
      close: () => server.close(),
    };
  },
};

/** The OpenAI Responses API (`openai.responses(...)`) behind the byte-level fixture server. */
export const responsesBackend: Backend = {
  name: "responses",
  async start({ answers, timeoutMs, maxRetries, stream }) {
    const server = await startFixtureServer(
      answers.map((answer) =>
        responsesAnswer({
          turn: answer.turn,
          stream,
          fault:
            answer.fault !== undefined && "responses" in answer.fault ? answer.fault.responses : undefined,
        }),
      ),
    );
    const provider = createOpenAI(clientOptions({ baseURL: server.baseURL, timeoutMs, maxRetries }));
    return {
      model: provider.responses("gpt-5-mini"),
      requestCount: () => server.requests.length,
      requestBody: (index) => server.requests[index]?.rawBody ?? "",
      close: () => server.close(),
    };
  },
};
