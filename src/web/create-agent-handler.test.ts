import { describe, expect, it } from "vitest";
import { MemoryJournal } from "../durable/memory-journal.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { createAgentHandler } from "./create-agent-handler.js";
import { RunEventLog } from "./run-event-log.js";
import { createTestAgent, WEATHER_ANSWER } from "./test-utils/sse-test-agent.js";

const URL = "http://localhost/api/agent";
const post = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  new Request(URL, { method: "POST", headers, body });

async function errorOf(response: Response) {
  return {
    status: response.status,
    ...((await response.json()) as { error: { name: string; message: string } }),
  };
}

describe("createAgentHandler", () => {
  const handler = createAgentHandler(createTestAgent().agent);

  it("streams a run for { input }", async () => {
    const response = await handler(post(JSON.stringify({ input: "Weather?" })));
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("x-agentloop-run-id")).toBeNull(); // no journal: not durable
    const text = await response.text();
    expect(text).toContain(`event: result\ndata: {"stopReason":"completed","text":"${WEATHER_ANSWER}"`);
  });

  it("answers bad requests with a JSON error: 405, 415, 413, 400", async () => {
    expect(await errorOf(await handler(new Request(URL)))).toMatchObject({ status: 405 });
    expect(await errorOf(await handler(post("{}", { "content-type": "text/plain" })))).toMatchObject({
      status: 415,
    });
    const small = createAgentHandler(createTestAgent().agent, { maxBodyBytes: 100 });
    const big = JSON.stringify({ input: "x".repeat(200) });
    expect(await errorOf(await small(post(big)))).toMatchObject({ status: 413 });
    // Without a content-length (a streamed body), the limit holds too.
    const streamed = new Request(URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Blob([big]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(await errorOf(await small(streamed))).toMatchObject({ status: 413 });
    for (const [body, message] of [
      ["{not json", /not valid JSON/],
      ["[1]", /expected a JSON object/],
      ['{"input":3}', /"input" must be a string/],
      ['{"input":""}', /"input" is empty/],
      ['{"input":"hi","sessionId":7}', /"sessionId" must be a non-empty string/],
      ['{"input":"hi","runId":""}', /"runId" must be a non-empty string/],
    ] as const) {
      const error = await errorOf(await handler(post(body)));
      expect(error, body).toMatchObject({ status: 400, error: { name: "InvalidArgumentError" } });
      expect(error.error.message).toMatch(message);
    }
  });

  it("refuses a Last-Event-ID without a run id (only a durable run resumes)", async () => {
    const response = await handler(
      post(JSON.stringify({ input: "hi" }), { "content-type": "application/json", "last-event-id": "3" }),
    );
    expect(await errorOf(response)).toMatchObject({ status: 400, error: { message: /send its runId/ } });
  });

  it("an agent with a journal: each new run gets a run id, and a reconnect with it resumes", async () => {
    const journal = new MemoryJournal();
    const durable = createAgentHandler(createTestAgent({ journal }).agent, { log: new RunEventLog() });
    const response = await durable(post(JSON.stringify({ input: "Weather?" })));
    const runId = response.headers.get("x-agentloop-run-id") as string;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const whole = await response.text();
    const again = await durable(
      post(JSON.stringify({ runId }), { "content-type": "application/json", "last-event-id": "7" }),
    );
    const rest = await again.text();
    expect(whole.endsWith(rest)).toBe(true);
    expect(rest).toMatch(/^id: 7\./); // the volatile messages after stable event 7, then on
  });

  it("refuses a bad option", () => {
    expect(() => createAgentHandler(createTestAgent().agent, { maxBodyBytes: 0 })).toThrow(
      InvalidArgumentError,
    );
  });
});
