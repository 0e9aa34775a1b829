import { metrics, trace } from "@opentelemetry/api";
import { AggregationTemporality, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { ModelCallError } from "../errors/model-call-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { type OtelHooksOptions, otelHooks } from "./otel-hooks.js";

const PRICING = { scripted: { inputPerMTok: 1_000, outputPerMTok: 1_000 } };
const USAGE = { inputTokens: 100, outputTokens: 20 };
const SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

function setup() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return { exporter, tracerProvider, reader, meterProvider };
}

const weather = tool({
  name: "get_weather",
  description: "weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: ({ city }: { city: string }) => `sunny in ${city}`,
});

/** A lead agent that calls a tool and a researcher sub-agent, then answers. */
function leadAgent(hooks: OtelHooksOptions, task = "population of Paris") {
  const sub = new ScriptedModel([{ text: "Paris has 2.1M people.", usage: USAGE }]);
  const researcher = new Agent({ name: "researcher", model: sub, pricing: PRICING });
  const main = new ScriptedModel([
    {
      toolCalls: [
        { id: "c1", name: "get_weather", arguments: { city: "Paris" } },
        { id: "c2", name: "research", arguments: { input: task } },
      ],
      usage: USAGE,
    },
    { text: "Sunny; about 2.1 million people.", usage: USAGE },
  ]);
  return new Agent({
    name: "lead",
    model: main,
    pricing: PRICING,
    tools: [weather, researcher.asTool({ name: "research", description: "researches a question" })],
    ...otelHooks({ agentName: "lead", ...hooks }),
  });
}

/** The spans as an indented tree: name and the attributes given (for docs/observability.md). */
function spanTree(spans: readonly ReadableSpan[], keys?: readonly string[]): string {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const children = [...(byParent.get(parent) ?? [])].sort(
      (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
    );
    for (const span of children) {
      const attrs = Object.entries(span.attributes)
        .filter(([key]) => keys === undefined || keys.includes(key))
        .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
      const status = span.status.code === 2 ? " [ERROR]" : "";
      lines.push(`${"  ".repeat(depth)}${span.name}${status}`);
      for (const attr of attrs) lines.push(`${"  ".repeat(depth)}    ${attr}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join("\n");
}

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe("otelHooks", () => {
  it("builds the span tree invoke_agent → chat, execute_tool → invoke_agent (sub-agent) → chat", async () => {
    const { exporter, tracerProvider, meterProvider } = setup();
    const result = await leadAgent({ tracerProvider, meterProvider }).run("Weather and population of Paris?");
    expect(result.stopReason).toBe("completed");
    const spans = exporter.getFinishedSpans();
    if (process.env.DUMP_SPAN_TREE) console.log(spanTree(spans));
    expect(spanTree(spans, [])).toBe(
      [
        "invoke_agent lead",
        "  chat scripted",
        "  execute_tool get_weather",
        "  execute_tool research",
        "    invoke_agent researcher",
        "      chat scripted",
        "  chat scripted",
      ].join("\n"),
    );
    const byName = (name: string) => spans.filter((span) => span.name === name);
    const [root] = byName("invoke_agent lead");
    const [sub] = byName("invoke_agent researcher");
    const [research] = byName("execute_tool research");
    const [getWeather] = byName("execute_tool get_weather");
    expect(root?.parentSpanContext).toBeUndefined();
    expect(research?.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
    expect(getWeather?.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
    expect(sub?.parentSpanContext?.spanId).toBe(research?.spanContext().spanId);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(root?.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "lead",
      "gen_ai.request.model": "scripted",
      "gen_ai.usage.input_tokens": 200,
      "gen_ai.usage.output_tokens": 40,
      "agentloop.stop_reason": "completed",
    });
    expect(sub?.attributes).toMatchObject({
      "gen_ai.agent.name": "researcher",
      "agentloop.agent.path": "lead/researcher",
      "gen_ai.usage.input_tokens": 100,
    });
    const chat = spans.find(
      (span) =>
        span.name === "chat scripted" && span.parentSpanContext?.spanId === root?.spanContext().spanId,
    );
    expect(chat?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted",
      "gen_ai.response.model": "scripted",
      "gen_ai.usage.input_tokens": 100,
      "gen_ai.usage.output_tokens": 20,
      "agentloop.cost.usd": 0.12,
    });
    expect(chat?.attributes["gen_ai.response.finish_reasons"]).toHaveLength(1);
    expect(getWeather?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "c1",
    });
    for (const span of spans) {
      expect(span.status.code).not.toBe(2);
      expect(span.endTime[0]).toBeGreaterThan(0);
    }
  });

  it("sets error status on a failed tool call and on a run that fails", async () => {
    const { exporter, tracerProvider } = setup();
    const broken = tool({
      name: "broken",
      description: "always fails",
      parameters: { type: "object", properties: {} },
      execute: () => {
        throw new Error("disk on fire");
      },
    });
    // One scripted step: the second model call is unexpected and fails the run.
    const model = new ScriptedModel([{ toolCalls: [{ id: "b1", name: "broken", arguments: {} }] }]);
    const agent = new Agent({
      model,
      tools: [broken],
      ...otelHooks({ tracerProvider, meterProvider: false }),
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("error");
    const spans = exporter.getFinishedSpans();
    const tool_ = spans.find((span) => span.name === "execute_tool broken");
    expect(tool_?.status.code).toBe(2);
    expect(tool_?.attributes["error.type"]).toBeTypeOf("string");
    const root = spans.find((span) => span.name === "invoke_agent agent");
    expect(root?.status.code).toBe(2);
    expect(root?.attributes["agentloop.stop_reason"]).toBe("error");
    expect(root?.attributes["error.type"]).toBeTypeOf("string");
    const chats = spans.filter((span) => span.name.startsWith("chat "));
    expect(chats).toHaveLength(2);
    expect(chats.filter((span) => span.status.code === 2)).toHaveLength(1);
  });

  it("records a retried model call as a span event of its chat span", async () => {
    const { exporter, tracerProvider } = setup();
    const model = new ScriptedModel([
      { error: new ModelCallError({ message: "upstream 503", status: 503, isRetryable: true }) },
      { text: "ok" },
    ]);
    const agent = new Agent({
      model,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 },
      ...otelHooks({ tracerProvider, meterProvider: false }),
    });
    expect((await agent.run("go")).text).toBe("ok");
    const chats = exporter.getFinishedSpans().filter((span) => span.name.startsWith("chat "));
    expect(chats).toHaveLength(1);
    const retry = chats[0]?.events.find((event) => event.name === "agentloop.retry");
    expect(retry?.attributes).toMatchObject({ attempt: 1, source: "request" });
    expect(String(retry?.attributes?.error)).toContain("503");
  });

  it("captures no content by default, and redacted content when asked", async () => {
    const task = `summarise, my key is ${SECRET}`;
    const input = `Weather and population of Paris? My key is ${SECRET}`;
    const off = setup();
    await leadAgent({ tracerProvider: off.tracerProvider, meterProvider: false }, task).run(input);
    const offText = JSON.stringify(off.exporter.getFinishedSpans().map((span) => span.attributes));
    expect(offText).not.toContain("Paris?");
    expect(offText).not.toContain("sunny in");
    expect(offText).not.toContain("gen_ai.input.messages");

    const on = setup();
    await leadAgent(
      { tracerProvider: on.tracerProvider, meterProvider: false, captureContent: true },
      task,
    ).run(input);
    const spans = on.exporter.getFinishedSpans();
    const onText = JSON.stringify(spans.map((span) => span.attributes));
    expect(onText).not.toContain(SECRET);
    expect(onText).toContain("[REDACTED:api_key]");
    const root = spans.find((span) => span.name === "invoke_agent lead");
    expect(String(root?.attributes["gen_ai.input.messages"])).toContain("Weather and population of Paris?");
    expect(String(root?.attributes["gen_ai.output.messages"])).toContain("Sunny; about 2.1 million people.");
    const getWeather = spans.find((span) => span.name === "execute_tool get_weather");
    expect(getWeather?.attributes["gen_ai.tool.call.result"]).toBe("sunny in Paris");
    expect(getWeather?.attributes["gen_ai.tool.call.arguments"]).toBe('{"city":"Paris"}');
  });

  it("records the token usage and operation duration histograms", async () => {
    const { tracerProvider, meterProvider, reader } = setup();
    await leadAgent({ tracerProvider, meterProvider }).run("Weather and population of Paris?");
    const { resourceMetrics } = await reader.collect();
    const all = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
    const usage = all.find((metric) => metric.descriptor.name === "gen_ai.client.token.usage");
    const duration = all.find((metric) => metric.descriptor.name === "gen_ai.client.operation.duration");
    expect(usage?.descriptor.unit).toBe("{token}");
    expect(duration?.descriptor.unit).toBe("s");
    const points = (usage?.dataPoints ?? []) as Array<{
      attributes: Record<string, unknown>;
      value: { sum?: number; count: number };
    }>;
    const input = points.find((point) => point.attributes["gen_ai.token.type"] === "input");
    const output = points.find((point) => point.attributes["gen_ai.token.type"] === "output");
    expect(input?.value).toMatchObject({ count: 3, sum: 300 });
    expect(output?.value).toMatchObject({ count: 3, sum: 60 });
    expect(input?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted",
    });
    const durationPoints = (duration?.dataPoints ?? []) as Array<{ value: { count: number } }>;
    expect(durationPoints.reduce((sum, point) => sum + point.value.count, 0)).toBe(3);
  });

  it("starts one span per run and nothing more when the tracer does not record (no-op)", async () => {
    const noop = trace.getTracerProvider().getTracer("x");
    let started = 0;
    const tracerProvider = {
      getTracer: () => ({
        startSpan: (...args: Parameters<typeof noop.startSpan>) => {
          started++;
          return noop.startSpan(...args);
        },
        startActiveSpan: noop.startActiveSpan.bind(noop),
      }),
    };
    const result = await leadAgent({ tracerProvider, meterProvider: false }).run(
      "Weather and population of Paris?",
    );
    expect(result.stopReason).toBe("completed");
    expect(started).toBe(1);
  });

  it("uses the global providers by default, and keeps no state when none is registered", async () => {
    // Nothing registered: the global tracer is a no-op; the run is untouched.
    const silent = await leadAgent({}).run("Weather and population of Paris?");
    expect(silent.stopReason).toBe("completed");
    expect(silent.events.some((event) => event.type === "error")).toBe(false);

    const { exporter, tracerProvider, meterProvider, reader } = setup();
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
    await leadAgent({}).run("Weather and population of Paris?");
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain("invoke_agent researcher");
    const { resourceMetrics } = await reader.collect();
    expect(resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).length).toBe(2);
  });
});

describe("otelHooks with concurrent runs of one agent", () => {
  it("gives each run its own span tree (the hooks keep state per run)", async () => {
    const { exporter, tracerProvider } = setup();
    const model = new ScriptedModel((_, i) =>
      i < 2
        ? {
            toolCalls: [
              { id: `w${i}`, name: "get_weather", arguments: { city: i === 0 ? "Paris" : "Oslo" } },
            ],
            delayMs: 20,
          }
        : { text: "done", delayMs: 20 },
    );
    const agent = new Agent({
      name: "lead",
      model,
      tools: [weather],
      ...otelHooks({ tracerProvider, meterProvider: false }),
    });
    const [a, b] = await Promise.all([agent.run("first"), agent.run("second")]);
    expect([a.stopReason, b.stopReason]).toEqual(["completed", "completed"]);
    const spans = exporter.getFinishedSpans();
    const roots = spans.filter((s) => s.name.startsWith("invoke_agent"));
    expect(roots).toHaveLength(2);
    for (const root of roots) {
      const children = spans.filter((s) => s.parentSpanContext?.spanId === root.spanContext().spanId);
      // Each run: two model calls and one tool call, all under its own root.
      expect(children.filter((s) => s.name.startsWith("chat")).length).toBe(2);
      expect(children.filter((s) => s.name.startsWith("execute_tool")).length).toBe(1);
    }
  });
});
