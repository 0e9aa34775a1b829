// Item "secrets in error paths": an API key echoed by the server (a 200 error envelope, an in-stream error
// event of each provider, a non-JSON error body) or carried as `user:key@` in the base URL never reaches
// error.message/body/stack/cause, events, traces or their JSON (what --json prints). One cleaner, knowing the
// request's credentials, handles every error a provider call throws or reports as a retry.
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import type { Model } from "../../src/models/model.js";
import { createAnthropic } from "../../src/providers/anthropic/create-anthropic.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { type RawHandler, startRawServer, TRANSPORTS } from "./transport-test-server.js";

const KEY = "sk-proj-SECRET0123456789abcdefABCDEF";
const URL_PASSWORD = "urlSECRET-9f8e7d6c5b4a";

type Api = "chat" | "responses" | "anthropic";

/** Asserts the secrets appear nowhere a failed run can carry them. */
function expectClean(result: AgentResult, events: readonly AgentEvent[], secrets: readonly string[]): void {
  expect(result.stopReason).toBe("error");
  const error = result.error as (Error & { body?: unknown; url?: unknown }) | undefined;
  expect(error).toBeDefined();
  const places = [
    error?.message,
    String(error?.body),
    String(error?.url),
    error?.stack,
    String(error?.cause),
    (error?.cause as Error | undefined)?.stack,
    JSON.stringify(error),
    JSON.stringify(result.events),
    JSON.stringify(events),
    JSON.stringify(result.trace),
  ];
  for (const secret of secrets) for (const place of places) expect(place ?? "").not.toContain(secret);
}

async function runAgainst(
  handler: RawHandler,
  {
    api,
    fetch,
    userinfo = false,
  }: { api: Api; fetch?: typeof globalThis.fetch | undefined; userinfo?: boolean },
): Promise<{ result: AgentResult; events: AgentEvent[]; auth: string[] }> {
  const auth: string[] = [];
  const server = await startRawServer((args) => {
    auth.push(String(args.req.headers.authorization ?? args.req.headers["x-api-key"] ?? ""));
    handler(args);
  });
  try {
    const baseURL = userinfo ? server.url.replace("http://", `http://agent:${URL_PASSWORD}@`) : server.url;
    const common = {
      baseURL,
      ...(!userinfo && { apiKey: KEY }),
      retry: { maxRetries: 1, baseDelayMs: 1 },
      ...(fetch !== undefined && { fetch }),
    };
    const model: Model =
      api === "anthropic"
        ? createAnthropic(common)("claude-test")
        : api === "responses"
          ? createOpenAI(common).responses("gpt-test")
          : createOpenAI(common)("gpt-test");
    const stream = new Agent({ model, trace: true }).stream("hi");
    const events: AgentEvent[] = [];
    for await (const event of stream) events.push(event);
    return { result: await stream.result, events, auth };
  } finally {
    await server.close();
  }
}

const sse = { "content-type": "text/event-stream" };
const echo = `Incorrect API key provided: ${KEY} (Bearer ${KEY})`;

describe.each(TRANSPORTS)("the key echoed by the server, over $transport", ({ fetch }) => {
  it("a 200 error envelope (non-streamed answer) keeps the message, not the key", async () => {
    const server = await startRawServer(({ res }) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: echo, type: "invalid_request_error", code: "invalid_api_key" } }),
      );
    });
    try {
      const model = createOpenAI({ baseURL: server.url, apiKey: KEY, ...(fetch !== undefined && { fetch }) })(
        "m",
      );
      const result = await new Agent({ model, trace: true }).run("hi");
      expect(result.error?.message).toContain("Incorrect API key provided: [REDACTED:credential]");
      expectClean(result, [], [KEY]);
    } finally {
      await server.close();
    }
  });

  it.each<[string, Api, string]>([
    [
      "an OpenAI in-stream error chunk",
      "chat",
      `data: ${JSON.stringify({ error: { message: echo, type: "server_error" } })}\n\n`,
    ],
    [
      "a Responses response.failed event",
      "responses",
      `data: ${JSON.stringify({ type: "response.failed", response: { status: "failed", error: { code: "invalid_api_key", message: echo } } })}\n\n`,
    ],
    [
      "a Responses error event",
      "responses",
      `data: ${JSON.stringify({ type: "error", code: "invalid_api_key", message: echo })}\n\n`,
    ],
    [
      "an Anthropic error event",
      "anthropic",
      `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "authentication_error", message: echo } })}\n\n`,
    ],
  ])("%s", async (_name, api, event) => {
    const { result, events } = await runAgainst(
      ({ res }) => {
        res.writeHead(200, sse);
        res.end(event);
      },
      { api, fetch },
    );
    expect(result.error?.message).toContain("[REDACTED:credential]");
    expectClean(result, events, [KEY]);
  });

  it("a non-JSON error body (retried 503, then 401) in each provider", async () => {
    for (const api of ["chat", "responses", "anthropic"] as const) {
      const { result, events } = await runAgainst(
        ({ res, index }) => {
          res.writeHead(index === 0 ? 503 : 401, { "content-type": "text/plain" });
          res.end(`upstream said: ${echo}`);
        },
        { api, fetch },
      );
      expect(events.some((e) => e.type === "retry")).toBe(true);
      expectClean(result, events, [KEY]);
    }
  });

  it("user:key@ credentials of the base URL: sent as Basic auth, never printed", async () => {
    for (const api of ["chat", "anthropic"] as const) {
      const { result, events, auth } = await runAgainst(
        ({ req, res }) => {
          res.writeHead(400, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              error: { message: `bad request to ${req.url} with ${req.headers.authorization}` },
            }),
          );
        },
        { api, fetch, userinfo: true },
      );
      expect(auth[0]).toBe(`Basic ${Buffer.from(`agent:${URL_PASSWORD}`).toString("base64")}`);
      expect(result.error?.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/[\w/]+ answered 400/);
      expectClean(result, events, [URL_PASSWORD, `agent:${URL_PASSWORD}`, auth[0]?.slice(6) ?? "?"]);
    }
  });
});

it("user:key@ credentials in a network error (nothing listens) are not printed", async () => {
  for (const fetch of [undefined, globalThis.fetch]) {
    const model = createOpenAI({
      baseURL: `http://agent:${URL_PASSWORD}@127.0.0.1:9/v1`,
      retry: { maxRetries: 0 },
      ...(fetch !== undefined && { fetch }),
    })("m");
    const stream = new Agent({ model, trace: true }).stream("hi");
    const events: AgentEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.error?.message).toMatch(/Network error calling http:\/\/127\.0\.0\.1:9\/v1/);
    expectClean(result, events, [URL_PASSWORD]);
  }
});
