import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { validateHistory } from "../../src/context/validate-history.js";
import type { AgentEventOf } from "../../src/loop/agent-event.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import type { Message } from "../../src/models/message.js";
import { FileStore } from "../../src/stores/file-store.js";
import { tool } from "../../src/tools/tool.js";
import { bedrockBackend } from "./bedrock-fault-backend.js";
import { azureBackend, deepseekBackend } from "./compatible-fault-backends.js";
import {
  anthropicBackend,
  type Backend,
  type FaultServer,
  openAIBackend,
  responsesBackend,
  type ScriptedAnswer,
} from "./fault-backends.js";
import { googleBackend } from "./google-fault-backend.js";

// Every fault of docs/reliability.md, injected by a real local server and read by the real HTTP providers,
// in both modes (`run`: non-streaming calls; `stream`). The fault hits the SECOND model turn, after the first
// turn's tool has run, so each case also proves: the retry is bounded and reported as a `retry` event, no tool
// runs twice, the run ends with `loop_end` (and a clear error when retries run out), the history stays valid,
// and the session store keeps every completed step (a later run of the session continues from it).

type Mode = "run" | "stream";

interface FaultCase {
  /** The row of docs/reliability.md. */
  row: string;
  backend: Backend;
  /** What breaks the second turn's answer. */
  fault: Omit<ScriptedAnswer, "turn">;
  modes: readonly Mode[];
  /** The expected `retry.source` in each mode: who retries (the provider a request, the loop a stream). */
  source: Record<Mode, "request" | "stream">;
  /** The error of a run whose retries ran out. */
  error: RegExp;
  /** False when the fault strikes before any text is streamed. */
  partialText?: false;
  /** Provider per-attempt timeout (ms). */
  timeoutMs?: number;
}

const both = ["run", "stream"] as const;
const streamOnly = ["stream"] as const;
const request = { run: "request", stream: "request" } as const;
const streamRetry = { run: "request", stream: "stream" } as const;

const cases: FaultCase[] = [
  {
    row: "429 with Retry-After",
    backend: openAIBackend,
    fault: { fault: { openai: { status: 429, retryAfter: "0" } } },
    modes: both,
    source: request,
    error: /429/,
  },
  {
    row: "500",
    backend: openAIBackend,
    fault: { fault: { openai: { status: 500 } } },
    modes: both,
    source: request,
    error: /500/,
  },
  {
    row: "503",
    backend: openAIBackend,
    fault: { fault: { openai: { status: 503 } } },
    modes: both,
    source: request,
    error: /503/,
  },
  {
    row: "connection reset before headers",
    backend: openAIBackend,
    fault: { fault: { openai: { type: "drop_before_headers" } } },
    modes: both,
    source: request,
    error: /socket|reset|closed|network|ECONNRESET|hang up/i,
  },
  {
    row: "stream dropped after some text",
    backend: openAIBackend,
    fault: { fault: { openai: { type: "drop_mid_stream", afterEvents: 2 } } },
    modes: both,
    source: streamRetry,
    error: /the connection closed before the response was complete/,
  },
  {
    row: "stream dropped in the middle of a tool call's arguments",
    backend: openAIBackend,
    fault: { fault: { openai: { type: "drop_mid_stream", afterEvents: 4 } } },
    modes: streamOnly,
    source: streamRetry,
    error: /interrupted|closed|terminated|aborted|socket|reset/i,
  },
  {
    row: "SSE stream ending without its final event",
    backend: openAIBackend,
    fault: { fault: { openai: { type: "end_without_done" } } },
    modes: streamOnly,
    source: streamRetry,
    error: /ended|finish|DONE/i,
  },
  {
    row: "malformed JSON chunk",
    backend: openAIBackend,
    fault: { fault: { openai: { type: "malformed_chunk", afterEvents: 2 } } },
    modes: streamOnly,
    source: streamRetry,
    error: /malformed|JSON/i,
  },
  {
    row: "slow drip past the request timeout",
    backend: openAIBackend,
    fault: { fault: { openai: { type: "slow_drip", intervalMs: 400 } } },
    modes: both,
    source: streamRetry,
    error: /stalled|timed out|within|timeout/i,
    partialText: false,
    timeoutMs: 150,
  },
  {
    row: "server that never answers",
    backend: openAIBackend,
    fault: { fault: { openai: { type: "hang" } } },
    modes: both,
    source: request,
    error: /no response within 150 ms|timed out|timeout/i,
    timeoutMs: 150,
  },
  {
    row: "Anthropic 529 overloaded",
    backend: anthropicBackend,
    fault: { anthropicStatus: { status: 529, type: "overloaded_error" } },
    modes: both,
    source: request,
    error: /529|overloaded/i,
  },
  {
    row: "Anthropic 429 with Retry-After",
    backend: anthropicBackend,
    fault: { anthropicStatus: { status: 429, retryAfter: "0", type: "rate_limit_error" } },
    modes: both,
    source: request,
    error: /429|rate_limit/i,
  },
  {
    row: "Anthropic connection reset before headers",
    backend: anthropicBackend,
    fault: { fault: { anthropic: { type: "drop_before_headers" } } },
    modes: both,
    source: request,
    error: /socket|reset|closed|network|ECONNRESET|hang up/i,
  },
  {
    row: "Anthropic stream dropped after some text",
    backend: anthropicBackend,
    fault: { fault: { anthropic: { type: "drop-after-events", afterEvents: 4 } } },
    modes: streamOnly,
    source: streamRetry,
    error: /interrupted|closed|terminated|aborted|socket|reset/i,
  },
  {
    row: "Anthropic stream dropped in the middle of a tool call's arguments",
    backend: anthropicBackend,
    fault: { fault: { anthropic: { type: "drop-after-events", afterEvents: 9 } } },
    modes: streamOnly,
    source: streamRetry,
    error: /interrupted|closed|terminated|aborted|socket|reset/i,
  },
  {
    row: "Anthropic stream ending without message_stop",
    backend: anthropicBackend,
    fault: { fault: { anthropic: { type: "end-after-events", afterEvents: 14 } } },
    modes: streamOnly,
    source: streamRetry,
    error: /message_stop/,
  },
  {
    row: "Anthropic malformed JSON event",
    backend: anthropicBackend,
    fault: { fault: { anthropic: { type: "malformed-after-events", afterEvents: 4 } } },
    modes: streamOnly,
    source: streamRetry,
    error: /malformed/i,
  },
  {
    row: "Anthropic overloaded_error inside the stream",
    backend: anthropicBackend,
    fault: { anthropicStreamError: { afterEvents: 4, type: "overloaded_error" } },
    modes: streamOnly,
    source: streamRetry,
    error: /overloaded/i,
  },
  {
    row: "Anthropic server that never answers",
    backend: anthropicBackend,
    fault: { fault: { anthropic: { type: "hang" } } },
    modes: both,
    source: request,
    error: /no response within 150 ms|timed out|timeout/i,
    timeoutMs: 150,
  },
  {
    row: "Responses API 429 with Retry-After",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "status", status: 429, retryAfter: "0" } } },
    modes: both,
    source: request,
    error: /429/,
  },
  {
    row: "Responses API 500",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "status", status: 500 } } },
    modes: both,
    source: request,
    error: /500/,
  },
  {
    row: "Responses API connection reset before headers",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "reset-before-headers" } } },
    modes: both,
    source: request,
    error: /socket hang up/,
  },
  {
    row: "Responses API stream dropped after some text",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "drop-after-text" } } },
    modes: both,
    source: streamRetry,
    error: /the connection closed before the response was complete/,
  },
  {
    row: "Responses API stream dropped inside the function call's arguments",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "drop-in-arguments" } } },
    modes: streamOnly,
    source: streamRetry,
    error: /the connection closed before the response was complete/,
  },
  {
    row: "Responses API stream ending without response.completed",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "end-before-completed" } } },
    modes: streamOnly,
    source: streamRetry,
    error: /ended|completed/i,
  },
  {
    row: "Responses API malformed JSON event",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "malformed-after-text" } } },
    modes: streamOnly,
    source: streamRetry,
    error: /malformed/i,
  },
  {
    row: "Responses API error event (server_error) inside the stream",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "error-event-after-text" } } },
    modes: streamOnly,
    source: streamRetry,
    error: /The server had an error/,
  },
  {
    row: "Responses API slow drip past the request timeout",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "slow_drip", intervalMs: 400 } } },
    modes: both,
    source: streamRetry,
    error: /stalled|timed out/i,
    partialText: false,
    timeoutMs: 150,
  },
  {
    row: "Responses API server that never answers",
    backend: responsesBackend,
    fault: { fault: { responses: { type: "hang" } } },
    modes: both,
    source: request,
    error: /timed out after 150 ms/,
    timeoutMs: 150,
  },
];

// OpenAI-compatible presets: the OpenAI Chat transport with another URL, auth header and body. Azure runs every
// OpenAI row (through a proxy that maps its /openai/v1 route), DeepSeek a representative subset.
cases.push(
  ...cases
    .filter((c) => c.backend === openAIBackend)
    .map((c) => ({ ...c, row: `Azure ${c.row}`, backend: azureBackend })),
  ...cases
    .filter(
      (c) =>
        c.backend === openAIBackend && /^(429|connection reset|stream dropped after|malformed)/.test(c.row),
    )
    .map((c) => ({ ...c, row: `DeepSeek ${c.row}`, backend: deepseekBackend })),
);

// The Gemini API: its own error envelope (a 429's RetryInfo delay, no Retry-After header), SSE with CRLF and
// no final event of its own (the answer ends with a finishReason), and an error object inside the stream.
cases.push(
  ...(
    [
      ["429 with RetryInfo", { type: "status", status: 429 }, both, request, /429|RESOURCE_EXHAUSTED/],
      ["500", { type: "status", status: 500 }, both, request, /500/],
      ["503", { type: "status", status: 503 }, both, request, /503/],
      ["connection reset before headers", { type: "reset-before-headers" }, both, request, /socket hang up/],
      [
        "stream dropped after some text",
        { type: "drop-after-text" },
        both,
        streamRetry,
        /the connection closed before the response was complete/,
      ],
      [
        "stream ending without a finishReason",
        { type: "end-before-finish" },
        streamOnly,
        streamRetry,
        /finishReason/,
      ],
      ["malformed JSON event", { type: "malformed-after-text" }, streamOnly, streamRetry, /malformed/],
      [
        "UNAVAILABLE error inside the stream",
        { type: "error-after-text" },
        streamOnly,
        streamRetry,
        /UNAVAILABLE/,
      ],
    ] as const
  ).map(
    ([row, fault, modes, source, error]): FaultCase => ({
      row: `Gemini ${row}`,
      backend: googleBackend,
      fault: { fault: { google: fault } },
      modes,
      source,
      error,
    }),
  ),
  {
    row: "Gemini slow drip past the request timeout",
    backend: googleBackend,
    fault: { fault: { google: { type: "slow_drip", intervalMs: 400 } } },
    modes: both,
    source: streamRetry,
    error: /stalled|timed out/i,
    partialText: false,
    timeoutMs: 150,
  },
  {
    row: "Gemini server that never answers",
    backend: googleBackend,
    fault: { fault: { google: { type: "hang" } } },
    modes: both,
    source: request,
    error: /timed out after 150 ms/,
    timeoutMs: 150,
  },
);

// Amazon Bedrock (Converse): errors typed by the x-amzn-errortype header, binary AWS event streams whose frames
// carry CRCs, and exception frames inside the stream. Every request is checked for a valid SigV4 signature.
cases.push(
  ...(
    [
      [
        "429 ThrottlingException with Retry-After",
        { type: "status", status: 429, errorType: "ThrottlingException", retryAfter: "0" },
        both,
        request,
        /429.*ThrottlingException/,
      ],
      ["500", { type: "status", status: 500, errorType: "InternalServerException" }, both, request, /500/],
      [
        "503",
        { type: "status", status: 503, errorType: "ServiceUnavailableException" },
        both,
        request,
        /503/,
      ],
      ["connection reset before headers", { type: "reset-before-headers" }, both, request, /socket hang up/],
      [
        "stream dropped after some text",
        { type: "drop-after-text" },
        both,
        streamRetry,
        /the connection closed before the response was complete/,
      ],
      [
        "stream dropped in the middle of a tool call's arguments",
        { type: "drop-in-arguments" },
        streamOnly,
        streamRetry,
        /the connection closed before the response was complete/,
      ],
      [
        "stream ending before messageStop",
        { type: "end-before-stop" },
        streamOnly,
        streamRetry,
        /messageStop/,
      ],
      ["frame with a bad CRC", { type: "corrupt-frame-after-text" }, streamOnly, streamRetry, /CRC mismatch/],
      [
        "throttlingException inside the stream",
        { type: "exception-after-text", exceptionType: "throttlingException", message: "Too many tokens" },
        streamOnly,
        streamRetry,
        /throttlingException.*Too many tokens/,
      ],
      [
        "modelStreamErrorException inside the stream",
        {
          type: "exception-after-text",
          exceptionType: "modelStreamErrorException",
          message: "Stream failed",
        },
        streamOnly,
        streamRetry,
        /modelStreamErrorException/,
      ],
    ] as const
  ).map(
    ([row, fault, modes, source, error]): FaultCase => ({
      row: `Bedrock ${row}`,
      backend: bedrockBackend,
      fault: { fault: { bedrock: fault } },
      modes,
      source,
      error,
    }),
  ),
  {
    row: "Bedrock slow drip past the request timeout",
    backend: bedrockBackend,
    fault: { fault: { bedrock: { type: "slow_drip", intervalMs: 400 } } },
    modes: both,
    source: streamRetry,
    error: /stalled|timed out/i,
    partialText: false,
    timeoutMs: 150,
  },
  {
    row: "Bedrock server that never answers",
    backend: bedrockBackend,
    fault: { fault: { bedrock: { type: "hang" } } },
    modes: both,
    source: request,
    error: /timed out after 150 ms/,
    timeoutMs: 150,
  },
);

const MAX_RETRIES = 2;
let dir: string;
let executions: string[];
let servers: FaultServer[];

const lookup = tool({
  name: "lookup",
  description: "Look a word up",
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => {
    executions.push(word);
    return `definition of ${word}`;
  },
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-faults-"));
  executions = [];
  servers = [];
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
});

async function setUp(c: FaultCase & { mode: Mode }, answers: ScriptedAnswer[]) {
  const server = await c.backend.start({
    answers,
    timeoutMs: c.timeoutMs ?? 10_000,
    maxRetries: MAX_RETRIES,
    stream: c.mode === "stream",
  });
  servers.push(server);
  const store = new FileStore({ dir });
  const agent = new Agent({
    model: server.model,
    tools: [lookup],
    system: "Be brief.",
    store,
    retry: { baseDelayMs: 1, maxRetries: MAX_RETRIES },
    limits: { timeoutMs: 20_000 },
  });
  return { server, store, agent };
}

const runIn = (mode: Mode, agent: Agent, input: string): Promise<AgentResult> =>
  mode === "run" ? agent.run(input, { sessionId: "s" }) : agent.stream(input, { sessionId: "s" }).result;

const retriesOf = (result: AgentResult) =>
  result.events.filter((e): e is AgentEventOf<"retry"> => e.type === "retry");

/** The stored history without the system prompt, as [role, tool call ids or tool result] pairs. */
const shape = (messages: readonly Message[]) =>
  messages
    .filter((m) => m.role !== "system")
    .map((m) =>
      m.role === "assistant"
        ? `assistant:${(m.toolCalls ?? []).map((c) => c.name).join(",") || m.content}`
        : m.role === "tool"
          ? `tool:${m.content}`
          : `${m.role}:${m.content}`,
    );

const rows = cases.flatMap((c) => c.modes.map((mode) => ({ ...c, mode, label: `${c.row} (${mode})` })));

describe.each(rows)("fault: $label", (c) => {
  it("a transient fault is retried once, reported, and nothing runs twice", async () => {
    const { server, store, agent } = await setUp(c, [
      { turn: { lookup: "loop" } },
      { turn: { lookup: "agent" }, ...c.fault },
      { turn: { lookup: "agent" } },
      { turn: { text: "Done." } },
    ]);
    const result = await runIn(c.mode, agent, "Define loop and agent.");

    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("Done.");
    expect(executions).toEqual(["loop", "agent"]);
    const retries = retriesOf(result);
    expect(retries.map((r) => [r.data.attempt, r.data.source])).toEqual([[1, c.source[c.mode]]]);
    expect(retries[0]?.data.error).not.toBe("");
    if (c.mode === "stream" && c.source.stream === "stream" && c.partialText !== false) {
      // The broken attempt's text reached the consumer first; the retry event tells it to discard that text.
      const at = result.events.findIndex((e) => e.type === "retry");
      const turn = result.events[at]?.turn;
      const before = result.events.slice(0, at).filter((e) => e.type === "text_delta" && e.turn === turn);
      expect(before.length).toBeGreaterThan(0);
    }
    expect(server.requestCount()).toBe(4);
    expect(result.events.at(-1)?.type).toBe("loop_end");
    expect(validateHistory(result.messages)).toEqual([]);
    const stored = await store.load("s");
    expect(shape(stored?.messages ?? [])).toEqual([
      "user:Define loop and agent.",
      "assistant:lookup",
      "tool:definition of loop",
      "assistant:lookup",
      "tool:definition of agent",
      "assistant:Done.",
    ]);
  });

  it("a persistent fault ends the run with a clear error after the bounded retries, losing no completed step", async () => {
    const { server, store, agent } = await setUp(c, [
      { turn: { lookup: "loop" } },
      { turn: { lookup: "agent" }, ...c.fault },
    ]);
    const result = await runIn(c.mode, agent, "Define loop and agent.");

    expect(result.stopReason).toBe("error");
    expect(result.error?.message).toMatch(c.error);
    expect(executions).toEqual(["loop"]);
    expect(retriesOf(result).map((r) => r.data.attempt)).toEqual([1, 2]);
    expect(server.requestCount()).toBe(1 + 1 + MAX_RETRIES);
    // Only the fatal error: a model without a default price (Gemini) also reports a non-fatal `UnpricedModel`.
    const fatal = result.events.filter((e) => e.type === "error" && e.data.fatal);
    expect(fatal).toHaveLength(1);
    expect(result.events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "error" } });
    expect(validateHistory(result.messages)).toEqual([]);
    const stored = await store.load("s");
    expect(shape(stored?.messages ?? [])).toEqual([
      "user:Define loop and agent.",
      "assistant:lookup",
      "tool:definition of loop",
    ]);

    // The session continues where it stopped: the next run sends the completed steps and answers.
    const next = await setUp(c, [{ turn: { text: "Resumed." } }]);
    const resumed = await runIn(c.mode, next.agent, "Go on.");
    expect(resumed.stopReason).toBe("completed");
    expect(next.server.requestBody(0)).toContain("definition of loop");
    expect(executions).toEqual(["loop"]);
  });
});
