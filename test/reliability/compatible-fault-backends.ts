import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createOpenAICompatible } from "../../src/providers/openai-compatible/create-openai-compatible.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import type { MockReply } from "../../src/testing/mock-reply.js";
import type { Backend, ScriptedAnswer } from "./fault-backends.js";

// OpenAI-compatible presets in the fault suite. Their transport is the OpenAI Chat one (same HTTP layer, same
// stream reader): what differs is the URL, the auth header and the body. DeepSeek talks to the mock OpenAI
// server directly (DEEPSEEK's base URL is any `/v1`); Azure's routes start with `/openai`, so a transparent
// proxy maps `/openai/v1/…` to the mock server's `/v1/…` and passes every fault through as it happens (a reset
// socket resets, a stalled stream stalls).

const usage = { inputTokens: 40, outputTokens: 10 };

/** The mock server's reply of a turn, with the answer's `openai` fault (the same rows as OpenAI's). */
function replyOf(answer: ScriptedAnswer): MockReply {
  const { turn, fault } = answer;
  const reply: MockReply =
    "lookup" in turn
      ? {
          text: "Checking.",
          toolCalls: [{ id: `call_${turn.lookup}`, name: "lookup", arguments: { word: turn.lookup } }],
          usage,
        }
      : { text: turn.text, usage };
  if (fault !== undefined && "openai" in fault) reply.fault = fault.openai;
  return reply;
}

async function mockFor(answers: ScriptedAnswer[]): Promise<MockOpenAIServer> {
  const replies = answers.map(replyOf);
  return startMockOpenAIServer({
    script: (_body, index) => replies[Math.min(index, replies.length - 1)] as MockReply,
  });
}

/** A proxy on 127.0.0.1 forwarding `/openai/v1/*` to `target`'s `/v1/*`; faults of the target pass through. */
async function startAzurePathProxy(target: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    if (!(req.url ?? "").startsWith("/openai/v1/")) {
      res.writeHead(404).end();
      return;
    }
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: target,
        method: req.method,
        path: (req.url ?? "/").replace(/^\/openai\/v1\//, "/v1/").replace(/\?.*$/, ""),
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.on("data", (chunk: Buffer) => res.write(chunk));
        answer.on("end", () => res.end());
        answer.on("aborted", () => res.destroy());
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", () => req.socket.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on("connection", (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const fast = (maxRetries: number) => ({ baseDelayMs: 1, maxRetries });

/** Azure OpenAI (`createOpenAICompatible({ preset: "azure" })`, v1 route, `api-key` header) behind the proxy. */
export const azureBackend: Backend = {
  name: "azure",
  async start({ answers, timeoutMs, maxRetries }) {
    const mock = await mockFor(answers);
    const proxy = await startAzurePathProxy(mock.port);
    const model = createOpenAICompatible({
      preset: "azure",
      baseURL: proxy.url,
      apiKey: "azure-key",
      timeoutMs,
      retry: fast(maxRetries),
    })("gpt-4o-mini"); // a deployment named after its model, so the run is priced as it
    const chat = () => mock.requests.filter((r) => r.path.startsWith("/v1/chat"));
    return {
      model,
      requestCount: () => chat().length,
      requestBody: (index) => chat()[index]?.rawBody ?? "",
      close: async () => {
        const keyless = chat().some((r) => r.headers["api-key"] !== "azure-key");
        await proxy.close();
        await mock.close();
        if (keyless) throw new Error("an Azure request lacked its api-key header");
      },
    };
  },
};

/** DeepSeek (`createOpenAICompatible({ preset: "deepseek" })`) against the mock server. */
export const deepseekBackend: Backend = {
  name: "deepseek",
  async start({ answers, timeoutMs, maxRetries }) {
    const mock = await mockFor(answers);
    // Priced like the other backends' runs: an unpriced model adds an `UnpricedModel` warning event, which the
    // suite's "one error event" assertions would count. The id is only a label to the mock server.
    const model = createOpenAICompatible({
      preset: "deepseek",
      baseURL: mock.url,
      apiKey: "ds-key",
      timeoutMs,
      retry: fast(maxRetries),
    })("gpt-4o-mini");
    const chat = () => mock.requests.filter((r) => r.path.startsWith("/v1/chat"));
    return {
      model,
      requestCount: () => chat().length,
      requestBody: (index) => chat()[index]?.rawBody ?? "",
      close: () => mock.close(),
    };
  },
};
