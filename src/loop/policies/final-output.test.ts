import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent.js";
import { OutputError } from "../../errors/output-error.js";
import { RefusalError } from "../../errors/refusal-error.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import type { ScriptedStep } from "../../testing/scripted-step.js";
import { tool } from "../../tools/tool.js";
import type { AgentEvent } from "../agent-event.js";

const Weather = z.object({
  city: z.string(),
  temperature: z.number(),
  units: z.enum(["c", "f"]).default("c"),
});

const lookup = tool({
  name: "lookup",
  description: "Looks a city up.",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: 18 }),
});

const native = (steps: ScriptedStep[]) =>
  new ScriptedModel(steps, { capabilities: { structuredOutput: true } });

describe("typed final answers, native structured output", () => {
  it("runs tools as usual and validates the final JSON into result.output (zod defaults applied)", async () => {
    const model = native([
      { toolCalls: [{ name: "lookup", arguments: { city: "Paris" } }] },
      { text: '{"city":"Paris","temperature":18}' },
    ]);
    const agent = new Agent({ model, tools: [lookup], output: Weather });
    const result = await agent.run("Weather in Paris?");
    expect(result.stopReason).toBe("completed");
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ city: "Paris", temperature: 18, units: "c" });
    expect(result.text).toBe('{"city":"Paris","temperature":18}');
    // Every request carries the schema (the model may call tools or answer).
    for (const call of model.calls) {
      expect(call.request.output?.name).toBe("final_answer");
      expect(call.request.output?.schema).toMatchObject({
        type: "object",
        required: ["city", "temperature"],
      });
      expect(call.request.tools?.map((t) => t.name)).toEqual(["lookup"]);
    }
  });

  it("accepts an answer wrapped in a ```json fence", async () => {
    const model = native([{ text: '```json\n{"city":"Oslo","temperature":-3,"units":"c"}\n```' }]);
    const result = await new Agent({ model, output: Weather }).run("Oslo?");
    expect(result.output).toEqual({ city: "Oslo", temperature: -3, units: "c" });
  });

  it("sends an invalid answer back once with its field-level errors, then takes the corrected one", async () => {
    const model = native([
      { text: '{"city":"Paris","temperature":"warm"}' },
      { text: '{"city":"Paris","temperature":21}' },
    ]);
    const agent = new Agent({ model, output: Weather });
    const result = await agent.run("Paris?");
    expect(result.output).toEqual({ city: "Paris", temperature: 21, units: "c" });
    const invalid = result.events.filter((e) => e.type === "output_invalid");
    expect(invalid).toHaveLength(1);
    expect(invalid[0]?.data).toEqual({ errors: [expect.stringContaining('"temperature"')], retry: true });
    const sentBack = model.calls[1]?.request.messages.at(-1);
    expect(sentBack?.role).toBe("user");
    expect(String(sentBack?.content)).toMatch(/temperature.*expected number/s);
    // The history stays valid: assistant answer, user correction, assistant answer.
    expect(result.messages.slice(-3).map((m) => m.role)).toEqual(["assistant", "user", "assistant"]);
  });

  it("ends with an OutputError after the allowed retries (stop reason error, output undefined)", async () => {
    const model = native([{ text: "It is sunny." }, { text: '{"city":1}' }]);
    const result = await new Agent({ model, output: Weather }).run("Paris?");
    expect(model.calls).toHaveLength(2);
    expect(result.stopReason).toBe("error");
    expect(result.output).toBeUndefined();
    expect(OutputError.isInstance(result.error)).toBe(true);
    const error = result.error as OutputError;
    expect(error.reason).toBe("invalid");
    expect(error.errors.join("\n")).toMatch(/"city": expected string/);
    expect(error.text).toBe('{"city":1}');
    const invalid = result.events.filter((e) => e.type === "output_invalid").map((e) => e.data);
    expect(invalid.map((d) => (d as { retry: boolean }).retry)).toEqual([true, false]);
  });

  it("outputRetries: 0 fails at the first invalid answer", async () => {
    const model = native([{ text: "not json" }]);
    const result = await new Agent({ model, output: Weather, outputRetries: 0 }).run("Paris?");
    expect(model.calls).toHaveLength(1);
    expect((result.error as OutputError).errors[0]).toMatch(/not valid JSON/);
  });

  it("reports a refusal as a RefusalError and does not ask again", async () => {
    const model = native([{ refusal: "I can't help with that." }]);
    const result = await new Agent({ model, output: Weather }).run("Something bad");
    expect(model.calls).toHaveLength(1);
    expect(result.stopReason).toBe("error");
    expect(RefusalError.isInstance(result.error)).toBe(true);
    expect((result.error as RefusalError).refusal).toBe("I can't help with that.");
    expect(OutputError.isInstance(result.error)).toBe(true);
  });

  it("at maxTurns the wrap-up call still asks for the typed answer (no tools) and gets it", async () => {
    const model = native([
      { toolCalls: [{ name: "lookup", arguments: { city: "Paris" } }] },
      { text: '{"city":"Paris","temperature":18}' },
    ]);
    const agent = new Agent({ model, tools: [lookup], output: Weather, limits: { maxTurns: 1 } });
    const result = await agent.run("Paris?");
    expect(result.stopReason).toBe("max_turns");
    expect(result.output).toEqual({ city: "Paris", temperature: 18, units: "c" });
    expect(result.error).toBeUndefined();
    const wrapUp = model.calls[1]?.request;
    expect(wrapUp?.toolChoice).toBe("none");
    expect(wrapUp?.output?.name).toBe("final_answer");
  });

  it("a run stopped by a limit without a wrap-up has no output and a 'missing' OutputError", async () => {
    const model = native([{ toolCalls: [{ name: "lookup", arguments: { city: "Paris" } }] }]);
    const agent = new Agent({
      model,
      tools: [lookup],
      output: Weather,
      limits: { maxTurns: 1, wrapUp: false },
    });
    const result = await agent.run("Paris?");
    expect(result.stopReason).toBe("max_turns");
    expect(result.output).toBeUndefined();
    expect((result.error as OutputError).reason).toBe("missing");
    expect(result.error?.message).toMatch(/max_turns/);
  });

  it("streams output_delta events with the growing partial object", async () => {
    const model = new ScriptedModel([{ text: '{"city":"San Francisco","temperature":18,"units":"f"}' }], {
      capabilities: { structuredOutput: true },
      chunkSize: 3,
    });
    const events: AgentEvent[] = [];
    const stream = new Agent({ model, output: Weather }).stream("SF?");
    for await (const event of stream) events.push(event);
    const partials = events.filter((e) => e.type === "output_delta").map((e) => e.data.partial);
    expect(partials.length).toBeGreaterThan(3);
    expect(partials[0]).toEqual({}); // `{"` parses to an empty object
    expect(partials).toContainEqual({ city: "San Franc" });
    expect(partials.at(-1)).toEqual({ city: "San Francisco", temperature: 18, units: "f" });
    // Every partial differs from the one before it.
    for (let i = 1; i < partials.length; i++) expect(partials[i]).not.toEqual(partials[i - 1]);
    expect((await stream.result).output).toEqual({ city: "San Francisco", temperature: 18, units: "f" });
  });

  it("refuses a schema whose top level is not an object, at construction", () => {
    expect(() => new Agent({ model: native([]), output: z.array(z.string()) })).toThrow(/Invalid output/);
    expect(() => new Agent({ model: native([]), output: { type: "string" } })).toThrow(/Invalid output/);
    expect(() => new Agent({ model: native([]), output: z.object({}), outputRetries: -1 })).toThrow(
      /outputRetries/,
    );
  });
});

describe("typed final answers through the final_answer tool (no native support)", () => {
  it("offers a final_answer tool with the schema and takes its call as the answer", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "lookup", arguments: { city: "Paris" } }] },
      { toolCalls: [{ name: "final_answer", arguments: { city: "Paris", temperature: 18 } }] },
    ]);
    const result = await new Agent({ model, tools: [lookup], output: Weather }).run("Paris?");
    expect(result.stopReason).toBe("completed");
    expect(result.output).toEqual({ city: "Paris", temperature: 18, units: "c" });
    const tools = model.calls[0]?.request.tools ?? [];
    expect(tools.map((t) => t.name)).toEqual(["lookup", "final_answer"]);
    expect(tools[1]?.parameters).toMatchObject({ type: "object", required: ["city", "temperature"] });
    expect(model.calls[0]?.request.output).toBeUndefined();
    // The final call is answered: the history is valid for the next run.
    const last = result.messages.at(-1);
    expect(last).toMatchObject({ role: "tool", toolName: "final_answer" });
    expect(result.toolCalls.map((c) => c.name)).toEqual(["lookup"]);
  });

  it("forces the tool once when the model answers in text", async () => {
    const model = new ScriptedModel([
      { text: "It is 18 degrees in Paris." },
      { toolCalls: [{ name: "final_answer", arguments: { city: "Paris", temperature: 18 } }] },
    ]);
    const result = await new Agent({ model, output: Weather }).run("Paris?");
    expect(result.output).toEqual({ city: "Paris", temperature: 18, units: "c" });
    expect(model.calls[1]?.request.toolChoice).toEqual({ type: "tool", name: "final_answer" });
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "tool"]);
  });

  it("answers invalid arguments with the errors as a failed tool result and takes the retry", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "final_answer", arguments: { city: "Paris" } }] },
      { toolCalls: [{ name: "final_answer", arguments: { city: "Paris", temperature: 18, units: "f" } }] },
    ]);
    const result = await new Agent({ model, output: Weather }).run("Paris?");
    expect(result.output).toEqual({ city: "Paris", temperature: 18, units: "f" });
    const failed = model.calls[1]?.request.messages.at(-1);
    expect(failed).toMatchObject({ role: "tool", isError: true });
    expect(String(failed?.content)).toMatch(/"temperature"/);
  });

  it("at maxTurns the wrap-up forces the final_answer tool", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "lookup", arguments: { city: "Paris" } }] },
      { toolCalls: [{ name: "final_answer", arguments: { city: "Paris", temperature: 18 } }] },
    ]);
    const agent = new Agent({ model, tools: [lookup], output: Weather, limits: { maxTurns: 1 } });
    const result = await agent.run("Paris?");
    expect(result.stopReason).toBe("max_turns");
    expect(result.output).toEqual({ city: "Paris", temperature: 18, units: "c" });
    expect(model.calls[1]?.request.toolChoice).toEqual({ type: "tool", name: "final_answer" });
  });

  it("refuses a user tool named final_answer when the model has no native support", () => {
    const clash = tool({ name: "final_answer", description: "", execute: async () => "x" });
    expect(() => new Agent({ model: new ScriptedModel([]), tools: [clash], output: Weather })).toThrow(
      /final_answer/,
    );
  });

  it("streams output_delta from the final_answer call's argument fragments", async () => {
    const model = new ScriptedModel(
      [{ toolCalls: [{ name: "final_answer", arguments: { city: "Reykjavik", temperature: 4 } }] }],
      { argumentsChunkSize: 4 },
    );
    const events: AgentEvent[] = [];
    for await (const event of new Agent({ model, output: Weather }).stream("Reykjavik?")) events.push(event);
    const partials = events.filter((e) => e.type === "output_delta").map((e) => e.data.partial);
    expect(partials.length).toBeGreaterThan(2);
    expect(partials.at(-1)).toEqual({ city: "Reykjavik", temperature: 4 });
  });
});

describe("typed final answers from strict-mode providers", () => {
  it("reads a null on an optional, non-nullable property as absent (OpenAI strict schemas make them nullable)", async () => {
    const Schema = z.object({ city: z.string(), note: z.string().optional() });
    const model = native([{ text: '{"city":"Paris","note":null}' }]);
    const result = await new Agent({ model, output: Schema }).run("Paris?");
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ city: "Paris" });
  });

  it("keeps a null the schema allows", async () => {
    const Schema = z.object({ city: z.string(), note: z.string().nullable() });
    const model = native([{ text: '{"city":"Paris","note":null}' }]);
    const result = await new Agent({ model, output: Schema }).run("Paris?");
    expect(result.output).toEqual({ city: "Paris", note: null });
  });
});

describe("typed final answers in durable runs", () => {
  it("a finished durable run answered again from its log returns the same output without a model call", async () => {
    const { MemoryJournal } = await import("../../durable/memory-journal.js");
    const journal = new MemoryJournal();
    const model = native([
      { toolCalls: [{ name: "lookup", arguments: { city: "Paris" } }] },
      { text: '{"city":"Paris","temperature":18}' },
    ]);
    const agent = new Agent({ model, tools: [lookup], output: Weather, journal });
    const first = await agent.run("Paris?", { runId: "typed-1" });
    expect(first.output).toEqual({ city: "Paris", temperature: 18, units: "c" });
    const again = await agent.run("Paris?", { runId: "typed-1" });
    expect(model.calls).toHaveLength(2);
    expect(again.output).toEqual(first.output);
    expect(again.stopReason).toBe("completed");
  });
});

describe("typed final answers in traces", () => {
  it("a traced typed run replays offline without divergence, to the same output", async () => {
    const { replay } = await import("../../trace/replay.js");
    const model = native([
      { toolCalls: [{ name: "lookup", arguments: { city: "Paris" } }] },
      { text: '{"city":"Paris","temperature":18}' },
    ]);
    const agent = new Agent({ model, tools: [lookup], output: Weather, trace: true });
    const recorded = await agent.run("Paris?");
    expect(recorded.trace).toBeDefined();
    const { result, divergence } = await replay(recorded.trace!, { agent });
    expect(divergence).toBeNull();
    expect(result.output).toEqual({ city: "Paris", temperature: 18, units: "c" });
    expect(model.calls).toHaveLength(2);
  });
});
