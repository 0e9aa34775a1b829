import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentOptions } from "../../src/agent.js";
import { ContextOverflowError } from "../../src/errors/context-overflow-error.js";
import { InvalidArgumentError } from "../../src/errors/invalid-argument-error.js";
import { PlanAgent } from "../../src/planner/plan-agent.js";
import { createAnthropic } from "../../src/providers/anthropic/create-anthropic.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { FileStore } from "../../src/stores/file-store.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import { type MockOpenAIServer, ScriptedModel, startMockOpenAIServer } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";

// Every request any agent of this file sends goes to this server, so "no model call" is counted on the wire.
let server: MockOpenAIServer;
beforeAll(async () => {
  server = await startMockOpenAIServer();
});
afterAll(() => server.close());

const wireModel = () => createOpenAI({ baseURL: server.url, apiKey: "test" })("gpt-4o-mini");
const echo = (name: string) =>
  tool({ name, description: "echo", parameters: z.object({}), execute: async () => "ok" });

/** Asserts `build` throws an InvalidArgumentError for `argument` whose message names it. */
function expectInvalid(build: () => unknown, argument: string, mentions?: string): InvalidArgumentError {
  let thrown: unknown;
  try {
    build();
  } catch (error) {
    thrown = error;
  }
  expect(
    InvalidArgumentError.isInstance(thrown),
    `expected InvalidArgumentError, got ${String(thrown)}`,
  ).toBe(true);
  const error = thrown as InvalidArgumentError;
  expect(error.argument).toBe(argument);
  expect(error.message).toContain(`Invalid ${argument}:`);
  if (mentions !== undefined) expect(error.message).toContain(mentions);
  return error;
}

type Row = [label: string, options: Record<string, unknown>, argument: string, mentions?: string];
const bad = (options: Record<string, unknown>) => options as unknown as AgentOptions;

// [what, the options besides `model` (a wire model), the argument the error must name, text it must contain]
const rows: Row[] = [
  ["limits.maxTurns negative", { limits: { maxTurns: -1 } }, "limits.maxTurns", "-1"],
  ["limits.maxTurns zero", { limits: { maxTurns: 0 } }, "limits.maxTurns", "0"],
  ["limits.maxTurns NaN", { limits: { maxTurns: Number.NaN } }, "limits.maxTurns", "NaN"],
  ["limits.maxTurns a string", { limits: { maxTurns: "5" } }, "limits.maxTurns"],
  ["limits.maxTurns fractional", { limits: { maxTurns: 1.5 } }, "limits.maxTurns", "1.5"],
  ["limits.timeoutMs negative", { limits: { timeoutMs: -1 } }, "limits.timeoutMs"],
  ["limits.maxTotalTokens negative", { limits: { maxTotalTokens: -5 } }, "limits.maxTotalTokens"],
  [
    "limits.maxTokens (renamed)",
    { limits: { maxTokens: 5 } },
    "limits.maxTokens",
    "renamed to limits.maxTotalTokens",
  ],
  [
    "context.maxTokens (renamed)",
    { context: { maxTokens: 1000 } },
    "context.maxTokens",
    "renamed to context.maxContextTokens",
  ],
  ["limits.maxCostUsd NaN", { limits: { maxCostUsd: Number.NaN } }, "limits.maxCostUsd"],
  ["limits.softMaxTurns zero", { limits: { softMaxTurns: 0 } }, "limits.softMaxTurns"],
  [
    "limits.softMaxSteps (renamed)",
    { limits: { softMaxSteps: 3 } },
    "limits.softMaxSteps",
    "renamed to limits.softMaxTurns",
  ],
  [
    "prompts.softSteps (renamed)",
    { prompts: { softSteps: () => "x" } },
    "prompts.softSteps",
    "renamed to prompts.softTurns",
  ],
  ["limits with an unknown key (typo)", { limits: { maxTurn: 3 } }, "limits.maxTurn", "maxTurns"],
  ["limits null", { limits: null }, "limits", "expected an object"],
  ["limits a number", { limits: 10 }, "limits", "expected an object"],
  ["limits.wrapUp a string", { limits: { wrapUp: "yes" } }, "limits.wrapUp", "boolean"],
  ["retry.maxRetries negative", { retry: { maxRetries: -1 } }, "retry.maxRetries"],
  ["retry.maxRetries fractional", { retry: { maxRetries: 1.5 } }, "retry.maxRetries", "integer"],
  ["retry.baseDelayMs NaN", { retry: { baseDelayMs: Number.NaN } }, "retry.baseDelayMs"],
  ["retry.maxDelayMs a string", { retry: { maxDelayMs: "5" } }, "retry.maxDelayMs"],
  ["retry with an unknown key", { retry: { retries: 3 } }, "retry.retries", "maxRetries"],
  ["retry null", { retry: null }, "retry", "expected an object"],
  ["toolTimeoutMs negative", { toolTimeoutMs: -1 }, "toolTimeoutMs"],
  ["toolTimeoutMs zero", { toolTimeoutMs: 0 }, "toolTimeoutMs"],
  ["toolTimeoutMs NaN", { toolTimeoutMs: Number.NaN }, "toolTimeoutMs"],
  ["toolTimeoutMs a string", { toolTimeoutMs: "1000" }, "toolTimeoutMs"],
  ["toolConcurrency zero", { toolConcurrency: 0 }, "toolConcurrency"],
  ["toolConcurrency fractional", { toolConcurrency: 1.5 }, "toolConcurrency", "integer"],
  ["maxToolResultChars fractional", { maxToolResultChars: 10.5 }, "maxToolResultChars", "integer"],
  ["maxOutputTokens negative", { maxOutputTokens: -1 }, "maxOutputTokens"],
  ["maxOutputTokens fractional", { maxOutputTokens: 100.5 }, "maxOutputTokens", "integer"],
  ["temperature NaN", { temperature: Number.NaN }, "temperature", "NaN"],
  ["temperature negative", { temperature: -0.1 }, "temperature", "0 to 2"],
  ["temperature above 2", { temperature: 5 }, "temperature", "0 to 2"],
  ["temperature a string", { temperature: "0.5" }, "temperature"],
  ["system not a string", { system: 42 }, "system", "string"],
  ["context null", { context: null }, "context", "expected an object"],
  ["context without maxContextTokens", { context: {} }, "context.maxContextTokens"],
  ["context.maxContextTokens negative", { context: { maxContextTokens: -1 } }, "context.maxContextTokens"],
  ["context.compactAt above 1", { context: { maxContextTokens: 1000, compactAt: 2 } }, "context.compactAt"],
  [
    "context.strategy sliding-window (renamed)",
    { context: { maxContextTokens: 1000, strategy: "sliding-window" } },
    "context.strategy",
    'renamed to "sliding_window"',
  ],
  ["context.strategy unknown", { context: { maxContextTokens: 1000, strategy: "lru" } }, "context.strategy"],
  [
    "context.keepLastMessages negative",
    { context: { maxContextTokens: 1000, keepLastMessages: -1 } },
    "context.keepLastMessages",
  ],
  ["context with an unknown key", { context: { maxContextTokens: 1000, maxToken: 5 } }, "context.maxToken"],
  [
    "context.summaryModel not a model",
    { context: { maxContextTokens: 1000, summaryModel: {} } },
    "context.summaryModel",
  ],
  ["context.counter not a counter", { context: { maxContextTokens: 1000, counter: 5 } }, "context.counter"],
  ["loopDetection.window zero", { loopDetection: { window: 0 } }, "loopDetection.window"],
  ["loopDetection.threshold 1", { loopDetection: { threshold: 1 } }, "loopDetection.threshold"],
  ["loopDetection a string", { loopDetection: "off" }, "loopDetection", "expected an object"],
  ["loopDetection null", { loopDetection: null }, "loopDetection"],
  ["tools: an object that is not a tool", { tools: [{ name: "x" }] }, "tool", "tool()"],
  ["tools: null in the list", { tools: [null] }, "tool", "tool()"],
  ["tools: a string", { tools: "calculator" }, "tools", "array of tools"],
  ["tools: a name-to-tool map", { tools: { a: echo("a") } }, "tools", "array of tools"],
  ["tools: duplicate names", { tools: [echo("a"), echo("a")] }, "tool", 'named "a"'],
  ["store not a store", { store: {} }, "store", "SessionStore"],
  ["journal not a journal", { journal: "file" }, "journal", "RunJournal"],
  ["redact a string", { redact: "yes", store: new MemoryStore() }, "redact"],
  ["onEvent not a function", { onEvent: "log" }, "onEvent", "function"],
  ["parallelToolCalls a string", { parallelToolCalls: "no" }, "parallelToolCalls", "boolean"],
  ["trace a string", { trace: "yes" }, "trace", "boolean"],
  ["prompts.wrapUp a number", { prompts: { wrapUp: 5 } }, "prompts.wrapUp", "string"],
  ["budget not a Budget", { budget: { limitUsd: 5 } }, "budget", "Budget"],
  ["an unknown top-level option (maxTurns outside limits)", { maxTurns: 5 }, "options.maxTurns", "limits"],
];

describe("bad user input: invalid Agent options throw InvalidArgumentError at construction", () => {
  it.each(rows)("%s", (_label, options, argument, mentions) => {
    expectInvalid(() => new Agent(bad({ model: wireModel(), ...options })), argument, mentions);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ["an unknown provider", "foo:bar", "model", '"foo:bar"'],
    ["a model id without provider whose provider is not obvious", "llama3.2", "model", "openai, anthropic"],
    ["an empty string", "", "model", "<provider>:<model-id>"],
    ["a provider without model id", "openai:", "model", '"openai:"'],
    ["a blank model id", "openai:   ", "model", '"openai:   "'],
    ["a number", 42, "model", "Model object"],
    ["missing", undefined, "model", "Model object"],
  ])("model: %s", (_label, model, argument, mentions) => {
    expectInvalid(() => new Agent(bad({ model })), argument, mentions);
  });

  it.each([
    ["null", null],
    ["a string", "openai:gpt-4o-mini"],
    ["a number", 7],
  ])("options: %s", (_label, options) => {
    expectInvalid(() => new Agent(options as unknown as AgentOptions), "options", "options object");
  });

  it("limits given as undefined mean the defaults, not 'no limit'", async () => {
    // Without the limit the loop would go on: the script answers after 30 calls, so that shows as a failure.
    const model = new ScriptedModel((_request, index) =>
      index < 30 ? { toolCalls: [{ name: "a", arguments: { n: index } }] } : { text: "gave up" },
    );
    const tools = [
      tool({ name: "a", description: "a", parameters: z.object({ n: z.number() }), execute: () => "ok" }),
    ];
    const agent = new Agent(bad({ model, tools, limits: { maxTurns: undefined, timeoutMs: undefined } }));
    const result = await agent.run("loop");
    expect(result.stopReason).toBe("max_turns");
    expect(model.calls).toHaveLength(20);
  });
});

describe("bad user input: other constructors", () => {
  it.each([
    ["FileStore without dir", () => new FileStore({} as never), "dir"],
    ["FileStore with an empty dir", () => new FileStore({ dir: "" }), "dir"],
    [
      "FileStore with negative compactAboveBytes",
      () => new FileStore({ dir: "x", compactAboveBytes: -1 }),
      "compactAboveBytes",
    ],
    ["PlanAgent with an unknown model", () => new PlanAgent({ model: "foo:bar" }), "model"],
    [
      "PlanAgent with negative maxSteps",
      () => new PlanAgent({ model: wireModel(), maxSteps: -1 }),
      "maxSteps",
    ],
    ["PlanAgent without options", () => new PlanAgent(null as never), "options"],
    [
      "PlanAgent with an unknown option (typo)",
      () => new PlanAgent({ model: wireModel(), maxStep: 3 } as never),
      "options.maxStep",
    ],
    [
      "PlanAgent with tools as a string",
      () => new PlanAgent({ model: wireModel(), tools: "x" as never }),
      "tools",
    ],
    [
      "PlanAgent with a NaN temperature",
      () => new PlanAgent({ model: wireModel(), temperature: Number.NaN }),
      "temperature",
    ],
    [
      "PlanAgent with temperature 5",
      () => new PlanAgent({ model: wireModel(), temperature: 5 }),
      "temperature",
    ],
    ["createOpenAI with a bad baseURL", () => createOpenAI({ baseURL: "not a url" }), "baseURL"],
    [
      "createOpenAI with a negative retry",
      () => createOpenAI({ retry: { maxRetries: -1 } }),
      "retry.maxRetries",
    ],
    ["createOpenAI with an empty model id", () => createOpenAI({ apiKey: "k" })(""), "modelId"],
    ["createAnthropic with a non-http baseURL", () => createAnthropic({ baseURL: "ftp://x" }), "baseURL"],
    ["createAnthropic with an empty model id", () => createAnthropic({ apiKey: "k" })(""), "modelId"],
  ])("%s", (_label, build, argument) => {
    expectInvalid(build, argument);
    expect(server.requests).toHaveLength(0);
  });
});

describe("bad user input: empty and huge input", () => {
  it.each([
    ["empty", ""],
    ["blank", "   \n\t "],
  ])(
    "%s input is an InvalidArgumentError from run and stream, with no model request",
    async (_label, input) => {
      const agent = new Agent({ model: wireModel() });
      const error = await agent.run(input).catch((e: unknown) => e);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe("input");
      expectInvalid(() => agent.stream(input), "input", "empty");
      const sessions = new Agent({ model: wireModel(), store: new MemoryStore() });
      const sessionError = await sessions.run(input, { sessionId: "s" }).catch((e: unknown) => e);
      expect((sessionError as InvalidArgumentError).argument).toBe("input");
      expect(server.requests).toHaveLength(0);
    },
  );

  it("a non-string input is an InvalidArgumentError", async () => {
    const agent = new Agent({ model: wireModel() });
    const error = await agent.run(42 as unknown as string).catch((e: unknown) => e);
    expect((error as InvalidArgumentError).argument).toBe("input");
    expect(server.requests).toHaveLength(0);
  });

  const huge = "word ".repeat(500_000); // 2.5 MB, about 500k tokens

  it("huge input with a context budget stops with ContextOverflowError before any request", async () => {
    const agent = new Agent({ model: wireModel(), context: { maxContextTokens: 8_000 } });
    const started = Date.now();
    const result = await agent.run(huge);
    expect(result.stopReason).toBe("error");
    expect(ContextOverflowError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toContain("context.maxContextTokens");
    expect(server.requests).toHaveLength(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("huge input without context options is sent once per turn, never copied into a request twice", async () => {
    server.setScript([{ toolCalls: [{ name: "a", arguments: {} }] }, { text: "done" }]);
    try {
      const agent = new Agent({ model: wireModel(), tools: [echo("a")] });
      const started = Date.now();
      const result = await agent.run(huge);
      expect(result.stopReason).toBe("completed");
      expect(result.text).toBe("done");
      expect(server.requests).toHaveLength(2);
      for (const request of server.requests) {
        expect(request.rawBody.length).toBeGreaterThan(huge.length);
        expect(request.rawBody.length).toBeLessThan(huge.length + 10_000);
      }
      expect(result.messages.filter((m) => m.role === "user")).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      server.setScript(undefined);
      server.requests.length = 0;
    }
  });
});
