import { afterEach, describe, expect, it } from "vitest";
import { type MockOpenAIServer, startMockOpenAIServer } from "./mock-openai-server.js";
import type { MockScript } from "./mock-reply.js";

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

async function start(script: MockScript): Promise<MockOpenAIServer> {
  server = await startMockOpenAIServer({ script });
  return server;
}

const TEXT = "The quick brown fox jumps over the lazy dog and runs far away into the woods.";

function post(
  target: MockOpenAIServer,
  { stream = false, signal }: { stream?: boolean; signal?: AbortSignal } = {},
) {
  return fetch(`${target.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], stream }),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Reads a body chunk by chunk; returns what arrived and the error that ended it, if any. */
async function readBody(res: Response): Promise<{ text: string; error: unknown }> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

const events = (text: string) => text.split("\n\n").filter((event) => event !== "");

describe("mock OpenAI server: faults", () => {
  it("answers an error status with retry headers and the OpenAI envelope, consuming one reply", async () => {
    const target = await start([
      { fault: { status: 429, retryAfter: "2", retryAfterMs: 1500 } },
      { fault: { status: 503, body: "<html>Service Unavailable</html>" } },
      { text: "ok" },
    ]);
    const limited = await post(target);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(limited.headers.get("retry-after-ms")).toBe("1500");
    expect(await readJson(limited)).toEqual({
      error: {
        message: expect.stringMatching(/Rate limit/),
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    });
    const unavailable = await post(target);
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("content-type")).toBe("text/html");
    expect(await unavailable.text()).toBe("<html>Service Unavailable</html>");
    expect((await readJson(await post(target))).choices[0]?.message.content).toBe("ok");
    expect(target.requests).toHaveLength(3);
  });

  it("drop_before_headers: the client's fetch rejects", async () => {
    const target = await start([{ fault: { type: "drop_before_headers" } }, { text: "ok" }]);
    await expect(post(target, { stream: true })).rejects.toThrow();
    expect((await post(target)).status).toBe(200);
  });

  it("drop_mid_stream: headers and some events arrive, then the body read rejects", async () => {
    const target = await start([
      { text: TEXT, fault: { type: "drop_mid_stream", afterEvents: 3 } },
      { text: TEXT, fault: { type: "drop_mid_stream", afterEvents: 2 } },
    ]);
    const res = await post(target, { stream: true });
    expect(res.status).toBe(200);
    const { text, error } = await readBody(res);
    expect(error).toBeDefined();
    expect(events(text)).toHaveLength(3);
    expect(text).not.toContain("[DONE]");

    const plain = await post(target);
    expect(plain.headers.get("content-length")).not.toBeNull();
    await expect(plain.json()).rejects.toThrow();
  });

  it("end_without_done: the stream ends cleanly without finish chunk and [DONE]", async () => {
    const target = await start([
      { text: TEXT, fault: { type: "end_without_done" } },
      { text: TEXT, fault: { type: "end_without_done", afterEvents: 2 } },
      { text: TEXT, fault: { type: "end_without_done" } },
    ]);
    const whole = await readBody(await post(target, { stream: true }));
    expect(whole.error).toBeUndefined();
    expect(whole.text).not.toContain("[DONE]");
    expect(whole.text).not.toContain('"finish_reason":"stop"');
    const content = events(whole.text).map(
      (event) => JSON.parse(event.slice(6)).choices[0]?.delta.content ?? "",
    );
    expect(content.join("")).toBe(TEXT);

    const short = await readBody(await post(target, { stream: true }));
    expect(short.error).toBeUndefined();
    expect(events(short.text)).toHaveLength(2);

    const plain = await post(target);
    expect(plain.status).toBe(200);
    await expect(plain.json()).rejects.toThrow(SyntaxError);
  });

  it("malformed_chunk: a data line that is not JSON, then the rest of the stream", async () => {
    const target = await start([{ text: TEXT, fault: { type: "malformed_chunk", afterEvents: 2 } }]);
    const { text, error } = await readBody(await post(target, { stream: true }));
    expect(error).toBeUndefined();
    const all = events(text);
    expect(all[2]).toBe("data: {not json");
    expect(all.at(-1)).toBe("data: [DONE]");
  });

  it("hang: no answer at all, and close() still returns quickly and ends the request", async () => {
    const target = await start([{ fault: { type: "hang" } }]);
    const pending = post(target).then(
      () => "answered",
      () => "rejected",
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(target.requests).toHaveLength(1);
    const started = performance.now();
    await target.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toBe("rejected");
  });

  it("hang with afterEvents: the stream stalls after some events until the client aborts", async () => {
    const target = await start([{ text: TEXT, fault: { type: "hang", afterEvents: 2 } }, { text: "next" }]);
    const controller = new AbortController();
    const res = await post(target, { stream: true, signal: controller.signal });
    expect(res.status).toBe(200);
    const reading = readBody(res);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const { text, error } = await reading;
    expect(events(text)).toHaveLength(2);
    expect(error).toBeDefined();
    expect((await readJson(await post(target))).choices[0]?.message.content).toBe("next");
  });

  it("slow_drip: events arrive intervalMs apart and complete", async () => {
    const target = await start([{ text: "a b c d e f", fault: { type: "slow_drip", intervalMs: 20 } }]);
    const started = performance.now();
    const { text, error } = await readBody(await post(target, { stream: true }));
    expect(error).toBeUndefined();
    expect(events(text)).toHaveLength(5);
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it("delayMs delays the answer, and a client that gives up does not break the server", async () => {
    const target = await start([
      { text: "late", delayMs: 10_000 },
      { text: "soon", delayMs: 30 },
    ]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(post(target, { signal: controller.signal })).rejects.toThrow();
    const started = performance.now();
    const res = await post(target);
    expect((await readJson(res)).choices[0]?.message.content).toBe("soon");
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
