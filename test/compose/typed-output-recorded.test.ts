// Typed final answers end to end, from the outside: the BUILT package (dist/, as users import it), each real
// provider client, and a local HTTP server replaying real recordings (test/fixtures/recorded/), re-chunked at
// random byte boundaries: a recorded tool call first, then the recorded structured-output answer.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type * as Agentloop from "../../src/index.js";

const dist = new URL("../../dist/index.js", import.meta.url).href;
const { Agent, createAnthropic, createOpenAI, tool } = (await import(dist)) as typeof Agentloop;

const fixture = (path: string) => readFileSync(new URL(`../fixtures/recorded/${path}`, import.meta.url));

/** Serves the recorded bodies in order, cut at random byte boundaries; records each request body. */
async function replayServer(bodies: Buffer[]): Promise<{ url: string; requests: unknown[]; server: Server }> {
  const requests: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      requests.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      const body = bodies[requests.length - 1];
      if (body === undefined) {
        res.writeHead(500).end("no more recordings");
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (let at = 0; at < body.length; ) {
        const size = 1 + Math.floor(Math.random() * 40);
        res.write(body.subarray(at, at + size));
        at += size;
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, server };
}

let open: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => open?.close(resolve));
  open = undefined;
});

const Dog = z.object({ name: z.string(), age: z.number().int(), bio: z.string() });

async function collect<T>(stream: AsyncIterable<Agentloop.AgentEvent> & { result: Promise<T> }) {
  const events: Agentloop.AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result };
}

describe("typed final answers over recorded provider streams (built package)", () => {
  it("OpenAI Chat: a tool call, then response_format json_schema answered in text", async () => {
    const { url, requests, server } = await replayServer([
      fixture("openai-chat/stream-tool-call.sse"),
      fixture("openai-chat/stream-structured-output.sse"),
    ]);
    open = server;
    const getWeather = tool({
      name: "get_weather",
      description: "Weather of a city.",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, temperatureF: 61 }),
    });
    const Location = z.object({ city: z.string(), temperature: z.number(), units: z.enum(["c", "f"]) });
    const model = createOpenAI({ baseURL: `${url}/v1`, apiKey: "k" })("gpt-4o-2024-08-06");
    const agent = new Agent({ model, tools: [getWeather], output: Location });
    const { events, result } = await collect(agent.stream("What's the weather in SF?"));
    expect(result.stopReason).toBe("completed");
    expect(result.output).toEqual({ city: "San Francisco", temperature: 61, units: "f" });
    const partials = events.filter((e) => e.type === "output_delta").map((e) => e.data.partial);
    expect(partials.length).toBeGreaterThan(3);
    expect(partials.at(-1)).toEqual(result.output);
    for (const body of requests as Array<Record<string, unknown>>) {
      expect(body.response_format).toMatchObject({
        type: "json_schema",
        json_schema: { name: "final_answer", strict: true, schema: { additionalProperties: false } },
      });
    }
    const second = requests[1] as { messages: Array<{ role: string }> };
    expect(second.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("Anthropic: a tool call, then output_config.format answered in text", async () => {
    const { url, requests, server } = await replayServer([
      fixture("anthropic-messages/stream-tool-use.sse"),
      fixture("anthropic-messages/stream-structured-output.sse"),
    ]);
    open = server;
    const getWeather = tool({
      name: "get_weather",
      description: "Weather of a location.",
      parameters: z.object({ location: z.string() }),
      execute: async ({ location }) => `${location}: 18°C`,
    });
    const model = createAnthropic({ baseURL: url, apiKey: "k" })("claude-sonnet-4-5");
    const agent = new Agent({ model, tools: [getWeather], output: Dog });
    const { events, result } = await collect(agent.stream("Invent a dog"));
    expect(result.error).toBeUndefined();
    expect(result.output).toMatchObject({ name: "Biscuit", age: 4 });
    expect(events.some((e) => e.type === "output_delta")).toBe(true);
    const format = (requests[1] as { output_config?: { format?: unknown } }).output_config?.format;
    const recorded = JSON.parse(
      fixture("anthropic-messages/stream-structured-output.request.json").toString(),
    );
    expect(format).toMatchObject({
      type: "json_schema",
      schema: { type: "object", additionalProperties: false },
    });
    expect(Object.keys((format as { schema: { properties: object } }).schema.properties)).toEqual(
      Object.keys(recorded.output_config.format.schema.properties),
    );
  });

  it("OpenAI Responses: a function call, then text.format answered in text", async () => {
    const { url, requests, server } = await replayServer([
      fixture("openai-responses/stream-function-call.sse"),
      fixture("openai-responses/stream-structured-output.sse"),
    ]);
    open = server;
    const getCapital = tool({
      name: "get_capital",
      description: "Capital of a country.",
      parameters: z.object({ country: z.string() }),
      execute: async () => "Mexico City",
    });
    const model = createOpenAI({ baseURL: `${url}/v1`, apiKey: "k" }).responses("gpt-4o-mini");
    const agent = new Agent({ model, tools: [getCapital], output: Dog });
    const { result } = await collect(agent.stream("Invent a dog"));
    expect(result.error).toBeUndefined();
    expect(result.output).toMatchObject({ name: "Barkley", age: 5 });
    const text = (requests[1] as { text?: { format?: unknown } }).text?.format;
    expect(text).toMatchObject({ type: "json_schema", name: "final_answer", strict: true });
  });

  it("a schema the recorded answer does not match ends with an OutputError after one retry", async () => {
    const { url, server } = await replayServer([
      fixture("openai-chat/stream-structured-output.sse"),
      fixture("openai-chat/stream-structured-output.sse"),
    ]);
    open = server;
    const model = createOpenAI({ baseURL: `${url}/v1`, apiKey: "k" })("gpt-4o-2024-08-06");
    const agent = new Agent({ model, output: z.object({ city: z.string(), temperature: z.string() }) });
    const { result } = await collect(agent.stream("Weather?"));
    expect(result.stopReason).toBe("error");
    expect(result.output).toBeUndefined();
    expect(result.error?.name).toBe("OutputError");
    expect(result.events.filter((e) => e.type === "output_invalid")).toHaveLength(2);
  });
});
