import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { ModelCallError } from "../../src/errors/model-call-error.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import type { Model, ModelResponse } from "../../src/models/model.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "../../src/testing/mock-openai-server.js";

// One retry policy per agent governs request and stream retries: a model call makes at most
// `retry.maxRetries + 1` requests whatever failed, the provider's own `retry` is only the default, and custom
// Models (no HttpModel) get the same retries for their retryable errors.

type Mode = "run" | "stream";
const runWith = (agent: Agent, mode: Mode): Promise<AgentResult> =>
  mode === "run" ? agent.run("hi") : agent.stream("hi").result;
const retries = (result: AgentResult) => result.events.filter((e) => e.type === "retry");

let server: MockOpenAIServer;
beforeAll(async () => {
  server = await startMockOpenAIServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const chatRequests = () => server.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
// The provider's own default (3 retries) would make 4 requests; the agent's policy must win.
const provider = (retry?: { maxRetries?: number; baseDelayMs?: number }) =>
  createOpenAI({ baseURL: server.url, apiKey: "test", ...(retry && { retry }) })("gpt-4o-mini");

describe.each(["run", "stream"] as const)("the agent's retry policy over a real server (%s)", (mode) => {
  it("makes exactly maxRetries + 1 requests against a failing server", async () => {
    server.setScript(() => ({ fault: { status: 503 } }));
    const agent = new Agent({ model: provider(), retry: { maxRetries: 2, baseDelayMs: 1 } });
    const result = await runWith(agent, mode);
    expect(result.stopReason).toBe("error");
    expect(ModelCallError.isInstance(result.error) && result.error.status).toBe(503);
    expect(chatRequests()).toBe(3);
    expect(retries(result).map((e) => e.data.source)).toEqual(["request", "request"]);
  });

  it("bounds request failures and broken streams together by the same maxRetries", async () => {
    // 503, a stream (or body) that breaks off, 503, ...: still 3 requests in all.
    server.setScript((_body, index) =>
      index % 2 === 0
        ? { fault: { status: 503 } }
        : { text: "partial answer that breaks", fault: { type: "drop_mid_stream", afterEvents: 2 } },
    );
    const agent = new Agent({ model: provider(), retry: { maxRetries: 2, baseDelayMs: 1 } });
    const result = await runWith(agent, mode);
    expect(result.stopReason).toBe("error");
    expect(chatRequests()).toBe(3);
    expect(retries(result)).toHaveLength(2);
  });

  it("uses the provider's retry option when the agent sets none", async () => {
    server.setScript(() => ({ fault: { status: 503 } }));
    const agent = new Agent({ model: provider({ maxRetries: 1, baseDelayMs: 1 }) });
    const result = await runWith(agent, mode);
    expect(result.stopReason).toBe("error");
    expect(chatRequests()).toBe(2);
    expect(retries(result)).toHaveLength(1);
  });

  it("recovers when a retry succeeds", async () => {
    server.setScript([{ fault: { status: 429, retryAfterMs: 1 } }, { text: "hello" }]);
    const agent = new Agent({ model: provider(), retry: { maxRetries: 2, baseDelayMs: 1 } });
    const result = await runWith(agent, mode);
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("hello");
    expect(chatRequests()).toBe(2);
  });
});

/** A user's own Model (not an HttpModel): fails `failures` times with `error`, then answers. */
function customModel(error: Error, failures: number): Model & { calls: number } {
  const answer: ModelResponse = {
    text: "answer",
    toolCalls: [],
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    finishReason: { unified: "stop", raw: "stop" },
  };
  const model = {
    provider: "custom",
    modelId: "mine",
    calls: 0,
    async generate(): Promise<ModelResponse> {
      model.calls++;
      if (model.calls <= failures) throw error;
      return answer;
    },
    async *stream() {
      model.calls++;
      if (model.calls <= failures) throw error;
      yield { type: "text_delta" as const, delta: answer.text };
      yield { type: "finish" as const, usage: answer.usage, finishReason: answer.finishReason };
    },
  };
  return model;
}

describe.each(["run", "stream"] as const)("a custom Model's retryable errors (%s)", (mode) => {
  it("are retried with the agent's policy: one retry event, then the answer", async () => {
    const model = customModel(
      new ModelCallError({ message: "overloaded", status: 529, isRetryable: true }),
      1,
    );
    const result = await runWith(new Agent({ model, retry: { baseDelayMs: 1 } }), mode);
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("answer");
    expect(model.calls).toBe(2);
    expect(retries(result)).toHaveLength(1);
    expect(retries(result)[0]?.data).toMatchObject({ attempt: 1, source: "request" });
  });

  it("are bounded by maxRetries", async () => {
    const model = customModel(new ModelCallError({ message: "overloaded", isRetryable: true }), 100);
    const result = await runWith(new Agent({ model, retry: { maxRetries: 2, baseDelayMs: 1 } }), mode);
    expect(result.stopReason).toBe("error");
    expect(model.calls).toBe(3);
  });

  it("are not retried when not retryable (or not agentloop errors)", async () => {
    for (const error of [
      new ModelCallError({ message: "bad request", status: 400, isRetryable: false }),
      new Error("plain error"),
    ]) {
      const model = customModel(error, 1);
      const result = await runWith(new Agent({ model, retry: { baseDelayMs: 1 } }), mode);
      expect(result.stopReason).toBe("error");
      expect(model.calls).toBe(1);
      expect(retries(result)).toHaveLength(0);
    }
  });
});
