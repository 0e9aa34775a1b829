import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { estimateTokens } from "../../src/context/create-estimating-counter.js";
import { TOKEN_OVERHEAD } from "../../src/context/token-counter.js";
import type { AgentEventOf } from "../../src/loop/agent-event.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import { tool } from "../../src/tools/tool.js";

// A llama.cpp-like OpenAI-compatible server: its tokenizer counts 3.5x what agentloop's estimator says (the
// acceptance runs saw 2.7-3.8x), it reports that count as prompt_tokens, and it refuses a request whose count
// exceeds its context with llama-server's own error.

const RATIO = 3.5;
/** The server's context window (llama-server -c 1024). */
const CONTEXT = 1024;
/** The agent's budget: `context.maxContextTokens`. */
const BUDGET = 700;

interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
}
interface WireTool {
  function: { name: string; description?: string; parameters?: unknown };
}

/** The server's own count: agentloop's estimate of the same request, times RATIO. */
function serverCount(body: { messages: WireMessage[]; tools?: WireTool[] }, ratio: number): number {
  let tokens = TOKEN_OVERHEAD.replyPriming;
  for (const message of body.messages) {
    tokens += TOKEN_OVERHEAD.message + TOKEN_OVERHEAD.role + estimateTokens(message.content ?? "");
    for (const call of message.tool_calls ?? []) {
      tokens +=
        TOKEN_OVERHEAD.toolCall +
        estimateTokens(call.function.name) +
        estimateTokens(call.function.arguments);
    }
  }
  if (body.tools !== undefined && body.tools.length > 0) {
    tokens += TOKEN_OVERHEAD.toolsBlock;
    for (const t of body.tools) {
      const json = JSON.stringify({
        name: t.function.name,
        description: t.function.description,
        parameters: t.function.parameters,
      });
      tokens += estimateTokens(json) + TOKEN_OVERHEAD.toolDefinition;
    }
  }
  return Math.ceil(tokens * ratio);
}

interface Seen {
  promptTokens: number;
  refused: boolean;
}

let server: Server;
let url: string;
let seen: Seen[];
let calls = 0;
/** The server's ratio for its n-th request (a real tokenizer's ratio varies with the text). */
let ratioOf: (n: number) => number = () => RATIO;
/** The server's context window for this test. */
let contextSize = CONTEXT;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

beforeEach(async () => {
  seen = [];
  calls = 0;
  ratioOf = () => RATIO;
  contextSize = CONTEXT;
  server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const body = JSON.parse(text) as { messages: WireMessage[]; tools?: WireTool[] };
      const promptTokens = serverCount(body, ratioOf(seen.length));
      if (promptTokens > contextSize) {
        seen.push({ promptTokens, refused: true });
        answer(response, 400, {
          error: {
            code: 400,
            message: `request (${promptTokens} tokens) exceeds the available context size (${contextSize} tokens), try increasing it`,
            type: "exceed_context_size_error",
          },
        });
        return;
      }
      seen.push({ promptTokens, refused: false });
      calls++;
      const last = body.messages.at(-1);
      const message =
        last?.role === "user" && body.tools !== undefined
          ? {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  id: `call_${calls}`,
                  type: "function",
                  function: { name: "note", arguments: JSON.stringify({ topic: `topic ${calls}` }) },
                },
              ],
            }
          : { role: "assistant", content: `Noted, ${calls}.` };
      answer(response, 200, {
        id: `chatcmpl-${calls}`,
        object: "chat.completion",
        created: 0,
        model: "local-llama",
        choices: [{ index: 0, message, finish_reason: "tool_calls" in message ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: promptTokens, completion_tokens: 5, total_tokens: promptTokens + 5 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const note = tool({
  name: "note",
  description: "Notes a topic",
  parameters: z.object({ topic: z.string() }),
  execute: ({ topic }) => `noted ${topic}: the meeting moved to Thursday at ten in room four`,
});

describe("usability: context calibration against a server that counts 2.7-3.8x the estimate", () => {
  /** Runs of one session, each a tool call and an answer; returns the compaction events. */
  const sessionRuns = async (runs: number): Promise<AgentEventOf<"compaction">[]> => {
    const compactions: AgentEventOf<"compaction">[] = [];
    const agent = new Agent({
      model: createOpenAI({ baseURL: url, apiKey: "k", retry: { maxRetries: 0 } })("local-llama"),
      tools: [note],
      system: "Be brief.",
      store: new MemoryStore(),
      context: { maxContextTokens: BUDGET, keepLastMessages: 2, compactAt: 0.9, targetRatio: 0.9 },
    });
    for (let run = 0; run < runs; run++) {
      const task = `Please note topic number ${run} for the weekly planning. ${"The agenda covers the budget, the hiring plan, the release dates and the office move. ".repeat(3)}`;
      const result = await agent.run(task, { sessionId: "s1" });
      expect(result.error?.message, JSON.stringify(seen)).toBeUndefined();
      expect(result.stopReason).toBe("completed");
      for (const event of result.events) if (event.type === "compaction") compactions.push(event);
    }
    return compactions;
  };

  it("stays inside with the margin when the server's ratio varies between 2.7x and 3.8x", async () => {
    const ratios = [3.4, 2.7, 3.1, 3.8, 2.9, 3.6, 2.8, 3.7, 3.0, 3.3];
    ratioOf = (n) => ratios[n % ratios.length] ?? RATIO;
    expect((await sessionRuns(8)).length).toBeGreaterThan(0);
    expect(seen.filter((s) => s.refused)).toEqual([]);
    for (const request of seen.slice(1)) expect(request.promptTokens).toBeLessThanOrEqual(BUDGET);
  });

  it("keeps every request after the first inside context.maxContextTokens by the server's count, across runs", async () => {
    const compactions = await sessionRuns(6);
    expect(seen.length).toBeGreaterThanOrEqual(12);
    expect(seen.filter((s) => s.refused)).toEqual([]);
    for (const request of seen.slice(1)) expect(request.promptTokens).toBeLessThanOrEqual(BUDGET);
    // The history did outgrow the budget: compaction kept it inside.
    expect(compactions.length).toBeGreaterThan(0);
  });

  it("learns the server's count from its overflow error: the retry after compaction fits", async () => {
    // The very first request is already too big (a long conversation handed over), on an uncalibrated
    // estimate: llama-server refuses it and says how many tokens it counted.
    contextSize = 400;
    ratioOf = () => 3.8;
    const history = Array.from({ length: 12 }, (_, i) => [
      { role: "user" as const, content: `Question ${i}: what did we decide about item ${i} of the plan?` },
      { role: "assistant" as const, content: `We decided to move item ${i} to next week and tell the team.` },
    ]).flat();
    const agent = new Agent({
      model: createOpenAI({ baseURL: url, apiKey: "k", retry: { maxRetries: 0 } })("local-llama"),
      context: { maxContextTokens: contextSize },
    });
    const result = await agent.run("Summarise what we decided.", { messages: history });
    expect(result.error?.message, JSON.stringify(seen)).toBeUndefined();
    expect(result.stopReason).toBe("completed");
    expect(seen[0]?.refused).toBe(true);
    expect(seen.slice(1).filter((s) => s.refused)).toEqual([]);
    // The retry was compacted to the configured target by the server's own count (learned from the refusal),
    // not to 60% of an estimate that is 3.8x too low.
    expect(seen[1]?.promptTokens).toBeLessThanOrEqual(0.7 * 0.75 * contextSize);
    expect(
      result.events.some((e) => e.type === "compaction" && e.data.reason === "context_length_exceeded"),
    ).toBe(true);
  });
});
