import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type MockOpenAIServer, startMockOpenAIServer } from "./mock-openai-server.js";
import type { MockReply, MockScript } from "./mock-reply.js";

let server: MockOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The fields these tests read from JSON answers (a completion or an error envelope). */
interface WireBody {
  id: string;
  created: number;
  choices: Array<{ message: { content: string | null; tool_calls?: unknown[] }; finish_reason: string }>;
  usage: { prompt_tokens: number };
  error: { message: string; type: string };
}

const readJson = async (res: Response): Promise<WireBody> => (await res.json()) as WireBody;

async function start(script?: MockScript): Promise<MockOpenAIServer> {
  server = await startMockOpenAIServer(script === undefined ? {} : { script });
  return server;
}

const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-mini",
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "What is the weather in Paris?" },
  ],
  ...extra,
});

function post(target: MockOpenAIServer, body: unknown): Promise<Response> {
  return fetch(`${target.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body, in order. */
function sseData(text: string): string[] {
  return text
    .split("\n\n")
    .filter((event) => event.trim() !== "")
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return event.slice("data: ".length);
    });
}

type Chunk = {
  choices: Array<{
    delta: {
      content?: string | null;
      refusal?: string | null;
      tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments: string } }>;
    };
    finish_reason: string | null;
  }>;
  usage?: unknown;
};

/** Reassembles a streamed chat completion the way a client does. */
function reassemble(payloads: string[]) {
  const chunks = payloads.filter((p) => p !== "[DONE]").map((p) => JSON.parse(p) as Chunk);
  let text = "";
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  let finishReason: string | null = null;
  for (const chunk of chunks) {
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    text += choice.delta.content ?? "";
    for (const fragment of choice.delta.tool_calls ?? []) {
      if (fragment.id !== undefined)
        calls[fragment.index] = { id: fragment.id, name: fragment.function.name ?? "", arguments: "" };
      const call = calls[fragment.index];
      if (call !== undefined) call.arguments += fragment.function.arguments;
    }
    finishReason = choice.finish_reason ?? finishReason;
  }
  return { chunks, text, calls, finishReason };
}

const toolReply: MockReply = {
  toolCalls: [
    { id: "call_weather", name: "get_weather", arguments: { city: "Paris", units: "c" } },
    { name: "calculate", arguments: '{"expression":"21*2+5"}' },
  ],
};

describe("mock OpenAI server: non-streaming", () => {
  it("answers text in the chat.completion shape and records the request", async () => {
    const target = await start([{ text: "It is sunny.", usage: { inputTokens: 12, outputTokens: 4 } }]);
    expect(target.url).toBe(`http://127.0.0.1:${target.port}/v1`);
    const res = await post(target, chatBody());
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const body = await readJson(res);
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "gpt-4o-mini",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "It is sunny.", refusal: null },
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.created).toEqual(expect.any(Number));
    expect(body.choices[0]?.message).not.toHaveProperty("tool_calls");
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      body: chatBody(),
    });
    expect(target.requests[0]?.headers.authorization).toBe("Bearer sk-test");
  });

  it("answers tool calls with content null and the raw argument strings", async () => {
    const target = await start([toolReply]);
    const body = await readJson(await post(target, chatBody()));
    expect(body.choices[0]?.finish_reason).toBe("tool_calls");
    expect(body.choices[0]?.message.content).toBeNull();
    expect(body.choices[0]?.message.tool_calls).toEqual([
      {
        id: "call_weather",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris","units":"c"}' },
      },
      {
        id: "call_mock_0_1",
        type: "function",
        function: { name: "calculate", arguments: '{"expression":"21*2+5"}' },
      },
    ]);
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it("echoes the last user message without a script", async () => {
    const target = await start();
    const body = await readJson(await post(target, chatBody()));
    expect(body.choices[0]?.message.content).toBe("You said: What is the weather in Paris?");
    const parts = await readJson(
      await post(target, {
        model: "m",
        messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      }),
    );
    expect(parts.choices[0]?.message.content).toBe("You said: hi");
  });
});

describe("mock OpenAI server: streaming", () => {
  it("streams text as SSE: role chunk, content deltas, finish chunk, [DONE]", async () => {
    const text = "The weather in Paris is sunny with a light breeze today.";
    const target = await start([{ text }]);
    const res = await post(target, chatBody({ stream: true }));
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const raw = await res.text();
    expect(raw.endsWith("data: [DONE]\n\n")).toBe(true);
    const payloads = sseData(raw);
    const { chunks, text: streamed, finishReason } = reassemble(payloads);
    expect(streamed).toBe(text);
    expect(finishReason).toBe("stop");
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "", refusal: null });
    expect(chunks.length).toBeGreaterThan(4);
    expect(chunks.at(-1)?.choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
    expect(chunks.some((chunk) => "usage" in chunk)).toBe(false);
  });

  it("sends a usage chunk with choices [] when include_usage is asked", async () => {
    const target = await start([
      { text: "Hi.", usage: { inputTokens: 9, outputTokens: 2, cachedInputTokens: 4 } },
    ]);
    const raw = await (
      await post(target, chatBody({ stream: true, stream_options: { include_usage: true } }))
    ).text();
    const { chunks } = reassemble(sseData(raw));
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
    expect(last?.usage).toMatchObject({ prompt_tokens_details: { cached_tokens: 4 } });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it("streams tool calls as header chunks plus argument fragments that reassemble", async () => {
    const target = await start([toolReply]);
    const { chunks, calls, finishReason, text } = reassemble(
      sseData(await (await post(target, chatBody({ stream: true }))).text()),
    );
    expect(text).toBe("");
    expect(finishReason).toBe("tool_calls");
    expect(calls).toEqual([
      { id: "call_weather", name: "get_weather", arguments: '{"city":"Paris","units":"c"}' },
      { id: "call_mock_0_1", name: "calculate", arguments: '{"expression":"21*2+5"}' },
    ]);
    const header = chunks.find((chunk) => chunk.choices[0]?.delta.tool_calls?.[0]?.id === "call_weather");
    expect(header?.choices[0]?.delta.tool_calls).toEqual([
      { index: 0, id: "call_weather", type: "function", function: { name: "get_weather", arguments: "" } },
    ]);
    const fragments = chunks.filter((chunk) => {
      const fragment = chunk.choices[0]?.delta.tool_calls?.[0];
      return fragment?.index === 0 && fragment.id === undefined;
    });
    expect(fragments.length).toBeGreaterThan(1);
  });

  it("streams a refusal in delta.refusal", async () => {
    const target = await start([{ refusal: "I can't help with that." }]);
    const { chunks } = reassemble(sseData(await (await post(target, chatBody({ stream: true }))).text()));
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: null, refusal: "" });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.refusal ?? "").join("")).toBe(
      "I can't help with that.",
    );
  });

  it("writes whole events: every chunk a node:http client receives ends at an event boundary", async () => {
    const target = await start([
      {
        text: "one two three four five six seven eight nine ten",
        fault: { type: "slow_drip", intervalMs: 10 },
      },
    ]);
    const received = await new Promise<string[]>((resolve, reject) => {
      const req = httpRequest(`${target.url}/chat/completions`, { method: "POST" }, (res) => {
        const chunks: string[] = [];
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => chunks.push(chunk));
        res.on("end", () => resolve(chunks));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(JSON.stringify(chatBody({ stream: true })));
    });
    expect(received.every((chunk) => chunk.endsWith("\n\n"))).toBe(true);
    const events = sseData(received.join(""));
    expect(events).toHaveLength(7);
    expect(received.length).toBeGreaterThan(3);
  });
});

describe("mock OpenAI server: requests and scripts", () => {
  it("answers invalid requests with a 400 envelope without consuming a reply", async () => {
    const target = await start([{ text: "first" }]);
    const cases: unknown[] = [
      "{not json",
      { messages: [{ role: "user", content: "x" }] },
      { model: "m", messages: [] },
    ];
    for (const body of cases) {
      const res = await post(target, body);
      expect(res.status).toBe(400);
      const envelope = await readJson(res);
      expect(envelope.error).toMatchObject({ type: "invalid_request_error", param: null, code: null });
      expect(envelope.error.message).toEqual(expect.any(String));
    }
    const ok = await readJson(await post(target, chatBody()));
    expect(ok.choices[0]?.message.content).toBe("first");
    expect(target.requests).toHaveLength(4);
    expect(target.requests[0]?.body).toBeUndefined();
    expect(target.requests[0]?.rawBody).toBe("{not json");
    const missing = await fetch(`${target.url}/embeddings`, { method: "POST", body: "{}" });
    expect(missing.status).toBe(404);
    expect((await readJson(missing)).error.message).toMatch(/embeddings/);
  });

  it("fails loudly (400, not retryable) when the script is exhausted", async () => {
    const target = await start([{ text: "only" }]);
    await (await post(target, chatBody())).text();
    const res = await post(target, chatBody());
    expect(res.status).toBe(400);
    const envelope = await readJson(res);
    expect(envelope.error.type).toBe("mock_script_exhausted");
    expect(envelope.error.message).toMatch(/request #2 has no scripted reply \(1 scripted\)/);
  });

  it("calls a function script with the body and the index, and reports its throws", async () => {
    const target = await start((body, index) => {
      if (index === 1) throw new Error("no plan for this");
      return { text: `${index}:${body.model}:${body.messages.length}` };
    });
    expect((await readJson(await post(target, chatBody()))).choices[0]?.message.content).toBe(
      "0:gpt-4o-mini:2",
    );
    const failed = await post(target, chatBody());
    expect(failed.status).toBe(400);
    expect((await readJson(failed)).error).toMatchObject({
      type: "mock_script_error",
      message: expect.stringMatching(/no plan/),
    });
  });

  it("setScript replaces the script and starts it from the beginning", async () => {
    const target = await start([{ text: "old" }]);
    await (await post(target, chatBody())).text();
    target.setScript([{ text: "new" }]);
    expect((await readJson(await post(target, chatBody()))).choices[0]?.message.content).toBe("new");
    target.setScript(undefined);
    expect((await readJson(await post(target, chatBody()))).choices[0]?.message.content).toMatch(
      /^You said:/,
    );
  });

  it("closes quickly with idle keep-alive connections open, and twice", async () => {
    const target = await start();
    await Promise.all([1, 2, 3].map(async () => (await post(target, chatBody())).text()));
    const started = performance.now();
    await target.close();
    await target.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(post(target, chatBody())).rejects.toThrow();
  });
});
