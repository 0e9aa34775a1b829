import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { otelHooks } from "./otel-hooks.js";

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}
interface OtlpRequest {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
}

// A local OTLP/HTTP receiver (what a collector listens on at :4318): it keeps every JSON request to /v1/traces.
const received: Array<{ path: string; contentType: string; body: OtlpRequest }> = [];
let server: Server;
let url: string;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const text = await readBody(request);
    received.push({
      path: request.url ?? "",
      contentType: String(request.headers["content-type"]),
      body: JSON.parse(text) as OtlpRequest,
    });
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("otelHooks with the OTLP/HTTP exporter", () => {
  it("sends the run's spans to an OTLP/HTTP endpoint as JSON", async () => {
    const tracerProvider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "agentloop-test" }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "t1", name: "research", arguments: { input: "Paris" } }] },
      { text: "done" },
    ]);
    const researcher = new Agent({ name: "researcher", model: new ScriptedModel([{ text: "2.1M" }]) });
    const agent = new Agent({
      name: "lead",
      model,
      tools: [researcher.asTool({ name: "research", description: "r" })],
      ...otelHooks({ tracerProvider, meterProvider: false, agentName: "lead" }),
    });
    await agent.run("How many people live in Paris?");
    await tracerProvider.forceFlush();
    await tracerProvider.shutdown();

    expect(received.length).toBeGreaterThan(0);
    expect(received[0]?.path).toBe("/v1/traces");
    expect(received[0]?.contentType).toContain("application/json");
    const resourceSpans = received.flatMap((request) => request.body.resourceSpans);
    expect(resourceSpans[0]?.resource.attributes).toContainEqual({
      key: "service.name",
      value: { stringValue: "agentloop-test" },
    });
    const spans = resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
    expect(spans.map((span) => span.name).sort()).toEqual([
      "chat scripted",
      "chat scripted",
      "chat scripted",
      "execute_tool research",
      "invoke_agent lead",
      "invoke_agent researcher",
    ]);
    const tool = spans.find((span) => span.name === "execute_tool research");
    const sub = spans.find((span) => span.name === "invoke_agent researcher");
    expect(sub?.parentSpanId).toBe(tool?.spanId);
    expect(tool?.attributes).toContainEqual({ key: "gen_ai.tool.call.id", value: { stringValue: "t1" } });
  });
});
