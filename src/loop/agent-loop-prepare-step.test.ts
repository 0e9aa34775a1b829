import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { validateHistory } from "../context/validate-history.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { StepControlError } from "../errors/step-control-error.js";
import { ThrownValueError } from "../errors/thrown-value-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { replay } from "../trace/replay.js";
import type { StepInfo } from "./policies/prepare-step.js";

const echo = (name: string) =>
  tool({
    name,
    description: `the ${name} tool`,
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => `${name}:${q}`,
  });

const search = echo("search");
const write = echo("write");
const call = (name: string, id = `c_${name}`) => ({ id, name, arguments: { q: "x" } });
const toolNames = (model: ScriptedModel, index: number) =>
  model.calls[index]?.request.tools?.map((spec) => spec.name);

describe("prepareStep: the next model call's model, tools, toolChoice, system prompt and messages", () => {
  it("is awaited before each call with the turn, a frozen copy of the history, the usage and the model", async () => {
    const seen: StepInfo[] = [];
    const model = new ScriptedModel([{ toolCalls: [call("search")] }, { text: "done" }]);
    const agent = new Agent({
      model,
      tools: [search],
      system: "Be brief.",
      prepareStep: async (step) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(step);
      },
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("completed");
    expect(seen.map((s) => [s.turn, s.messages.length, s.model])).toEqual([
      [1, 2, "scripted:scripted"],
      [2, 4, "scripted:scripted"],
    ]);
    expect(Object.isFrozen(seen[0]?.messages)).toBe(true);
    expect(seen[0]?.usage.totalTokens).toBe(0);
    expect(seen[1]?.usage.totalTokens).toBe(
      result.events.find((e) => e.type === "model_call")?.data.usage.totalTokens,
    );
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
    // Returning nothing changes nothing: the requests are the agent's own.
    expect(toolNames(model, 0)).toEqual(["search"]);
    expect(model.calls[0]?.request.toolChoice).toBeUndefined();
  });

  it("offers a subset of the tools for one call; a call of a tool not offered is answered as unknown", async () => {
    const model = new ScriptedModel([
      { toolCalls: [call("search"), call("write")] },
      { toolCalls: [call("write", "c2")] },
      { text: "done" },
    ]);
    const agent = new Agent({
      model,
      tools: [search, write],
      prepareStep: ({ turn }) => (turn === 1 ? { tools: ["search"], toolChoice: "required" } : undefined),
    });
    const result = await agent.run("go");
    expect(toolNames(model, 0)).toEqual(["search"]);
    expect(model.calls[0]?.request.toolChoice).toBe("required");
    expect(toolNames(model, 1)).toEqual(["search", "write"]); // the next call has every tool again
    expect(model.calls[1]?.request.toolChoice).toBeUndefined();
    const [searched, refused, wrote] = result.toolCalls;
    expect([searched?.ok, searched?.result]).toEqual([true, "search:x"]);
    expect(refused?.ok).toBe(false);
    expect(refused?.result).toMatch(/write.*search/s); // unknown at that step: the step's tools are listed
    expect([wrote?.ok, wrote?.result]).toEqual([true, "write:x"]);
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("sends its own system prompt and messages for one call; the history keeps the agent's", async () => {
    const model = new ScriptedModel([{ toolCalls: [call("search")] }, { text: "summary" }, { text: "x" }]);
    const agent = new Agent({
      model,
      tools: [search],
      system: "Agent prompt.",
      prepareStep: ({ turn, messages }) =>
        turn === 1
          ? { system: "Step prompt." }
          : { messages: [{ role: "user", content: `Summarise ${messages.length} messages.` }] },
    });
    const result = await agent.run("go");
    expect(model.calls[0]?.request.messages).toEqual([
      { role: "system", content: "Step prompt." },
      { role: "user", content: "go" },
    ]);
    expect(model.calls[1]?.request.messages).toEqual([{ role: "user", content: "Summarise 4 messages." }]);
    expect(result.messages[0]).toEqual({ role: "system", content: "Agent prompt." });
    expect(result.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    expect(result.text).toBe("summary");
  });

  it("adds a system prompt to a history that has none", async () => {
    const model = new ScriptedModel([{ text: "ok" }]);
    const agent = new Agent({ model, prepareStep: () => ({ system: "Only this call." }) });
    const result = await agent.run("go");
    expect(model.calls[0]?.request.messages[0]).toEqual({ role: "system", content: "Only this call." });
    expect(result.messages[0]).toEqual({ role: "user", content: "go" });
  });

  it("switches the model for one call: turn_start and model_call name it, the cost is priced as it", async () => {
    const cheap = new ScriptedModel(
      [{ toolCalls: [call("search")], usage: { inputTokens: 1000, outputTokens: 0 } }],
      {
        modelId: "cheap",
      },
    );
    const strong = new ScriptedModel([{ text: "answer", usage: { inputTokens: 1000, outputTokens: 0 } }], {
      modelId: "strong",
    });
    const agent = new Agent({
      model: cheap,
      tools: [search],
      pricing: {
        cheap: { inputPerMTok: 1, outputPerMTok: 1 },
        strong: { inputPerMTok: 100, outputPerMTok: 100 },
      },
      prepareStep: ({ turn }) => (turn === 2 ? { model: strong } : undefined),
    });
    const result = await agent.run("go");
    expect(result.text).toBe("answer");
    expect([cheap.calls.length, strong.calls.length]).toEqual([1, 1]);
    const names = (type: "turn_start" | "model_call") =>
      result.events.flatMap((e) => (e.type === type ? [e.data.model] : []));
    expect(names("turn_start")).toEqual(["scripted:cheap", "scripted:strong"]);
    expect(names("model_call")).toEqual(["scripted:cheap", "scripted:strong"]);
    expect(result.costUsd).toBeCloseTo(0.001 + 0.1, 10);
    expect(result.costUnknownModels).toEqual([]);
  });

  it("calls a step's model without the agent's fallbacks; the agent's own calls keep them", async () => {
    const primary = new ScriptedModel([{ error: new Error("primary down") }]);
    const backup = new ScriptedModel([{ toolCalls: [call("search")] }]);
    const failing = new ScriptedModel([{ error: new Error("step model down") }]);
    const spare = new ScriptedModel([{ text: "spare" }]);
    const agent = new Agent({
      model: [primary, backup, spare],
      tools: [search],
      retry: { maxRetries: 0 },
      prepareStep: ({ turn }) => (turn === 2 ? { model: failing } : undefined),
    });
    const result = await agent.run("go");
    // Turn 1 fell back to the backup; turn 2's own model failed: no second fallback, the run ends.
    expect(result.events.filter((e) => e.type === "model_fallback")).toHaveLength(1);
    expect(result.stopReason).toBe("error");
    expect(result.error?.message).toMatch(/step model down/);
    expect(backup.calls).toHaveLength(1);
    expect(spare.calls).toHaveLength(0);
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("a traced run with a step's model replays offline: the step's model is not called again", async () => {
    const cheap = new ScriptedModel([{ toolCalls: [call("search")] }], { modelId: "cheap" });
    const strong = new ScriptedModel([{ text: "answer" }], { modelId: "strong" });
    const agent = new Agent({
      model: cheap,
      tools: [search],
      trace: true,
      prepareStep: ({ turn }) => (turn === 2 ? { model: strong, system: "Answer now." } : undefined),
    });
    const recorded = await agent.run("go");
    expect(recorded.trace).toBeDefined();
    const { divergence, result } = await replay(recorded.trace as NonNullable<typeof recorded.trace>, {
      agent,
    });
    expect(divergence).toBeNull();
    expect(result.text).toBe("answer");
    expect([cheap.calls.length, strong.calls.length]).toEqual([1, 1]); // nothing called by the replay
    expect(result.events.flatMap((e) => (e.type === "model_call" ? [e.data.model] : []))).toEqual([
      "scripted:cheap",
      "scripted:strong",
    ]);
  });

  it("an unknown model string ends the run with a StepControlError naming it", async () => {
    const model = new ScriptedModel([{ text: "never" }]);
    const agent = new Agent({ model, prepareStep: () => ({ model: "nowhere:model-x" }) });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("error");
    expect(StepControlError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/prepareStep failed at turn 1: .*nowhere/);
    expect(model.calls).toHaveLength(0);
  });

  it.each([
    [{ tools: ["search", "nope"] }, /invalid tools: unknown tool "nope" \(the run's tools: search\)/],
    [
      { toolChoice: { type: "tool", name: "search" }, tools: [] },
      /invalid toolChoice: tool "search" is not offered/,
    ],
    [{ toolChoice: "sometimes" }, /invalid toolChoice/],
    [{ tool: ["search"] }, /an unknown key "tool"/],
    [{ system: 42 }, /a system prompt that is 42/],
    [{ messages: [] }, /non-empty array of messages/],
    [{ messages: [{ role: "assistant", content: "hi" }] }, /a provider would refuse/],
    [{ model: { modelId: "x" } }, /expected a Model or a model string/],
    ["search", /"search", not an object of overrides/],
  ])("refuses invalid overrides before any call: %j", async (overrides, message) => {
    const model = new ScriptedModel([{ text: "never" }]);
    const agent = new Agent({ model, tools: [search], prepareStep: () => overrides as never });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("error");
    expect(result.error).toMatchObject({ name: "StepControlError", hook: "prepareStep", turn: 1 });
    expect(result.error?.message).toMatch(message);
    expect(model.calls).toHaveLength(0);
    expect(result.events.at(-2)).toMatchObject({
      type: "error",
      data: { name: "StepControlError", fatal: true },
    });
  });

  it("a hook that throws anything ends the run with stop reason error; the history stays valid", async () => {
    const model = new ScriptedModel([{ toolCalls: [call("search")] }]);
    const agent = new Agent({
      model,
      tools: [search],
      prepareStep: ({ turn }) => {
        if (turn === 2) throw Symbol("odd");
      },
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("error");
    expect(StepControlError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/prepareStep failed at turn 2: it threw .*symbol/i);
    expect(ThrownValueError.isInstance((result.error as Error).cause)).toBe(false); // the thrown value itself
    expect(typeof (result.error as Error).cause).toBe("symbol");
    expect(result.turns).toBe(1);
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("keeps the typed answer's final_answer tool when a step offers a subset", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: "f", name: "final_answer", arguments: { n: 3 } }] },
    ]);
    const agent = new Agent({
      model,
      tools: [search, write],
      output: z.object({ n: z.number() }),
      prepareStep: () => ({ tools: ["write"], toolChoice: { type: "tool", name: "final_answer" } }),
    });
    const result = await agent.run("go");
    expect(toolNames(model, 0)).toEqual(["write", "final_answer"]);
    expect(model.calls[0]?.request.toolChoice).toEqual({ type: "tool", name: "final_answer" });
    expect(result.output).toEqual({ n: 3 });
  });

  it("a run's prepareStep replaces the agent's", async () => {
    const model = new ScriptedModel([{ text: "ok" }]);
    const agent = new Agent({ model, tools: [search], prepareStep: () => ({ tools: [] }) });
    await agent.run("go", { prepareStep: () => ({ toolChoice: "none" }) });
    expect(toolNames(model, 0)).toEqual(["search"]);
    expect(model.calls[0]?.request.toolChoice).toBe("none");
  });
});

describe("per-run tools and toolChoice", () => {
  it("offers only the named tools in every call of the run, and runs only them", async () => {
    const model = new ScriptedModel([{ toolCalls: [call("write")] }, { text: "done" }]);
    const agent = new Agent({ model, tools: [search, write] });
    const result = await agent.run("go", { tools: ["search"], toolChoice: "required" });
    expect(toolNames(model, 0)).toEqual(["search"]);
    expect(toolNames(model, 1)).toEqual(["search"]);
    expect(model.calls.map((c) => c.request.toolChoice)).toEqual(["required", "required"]);
    expect(result.toolCalls[0]).toMatchObject({ name: "write", ok: false });
    // The next run has the agent's tools again.
    const next = new ScriptedModel([{ text: "ok" }]);
    await agent.with({ model: next }).run("again");
    expect(toolNames(next, 0)).toEqual(["search", "write"]);
  });

  it("an empty list offers no tools", async () => {
    const model = new ScriptedModel([{ text: "ok" }]);
    await new Agent({ model, tools: [search] }).run("go", { tools: [] });
    expect(model.calls[0]?.request.tools).toBeUndefined();
  });

  it("the wrap-up call still asks for no tools", async () => {
    const model = new ScriptedModel([{ toolCalls: [call("search")] }, { text: "best so far" }]);
    const agent = new Agent({ model, tools: [search], limits: { maxTurns: 1, wrapUp: true } });
    const result = await agent.run("go", { toolChoice: "required" });
    expect(model.calls.map((c) => c.request.toolChoice)).toEqual(["required", "none"]);
    expect(result.stopReason).toBe("max_turns");
  });

  it.each([
    [{ tools: ["nope"] }, /Invalid tools: unknown tool "nope"/],
    [{ tools: "search" }, /Invalid tools: expected an array of tool names/],
    [
      { toolChoice: { type: "tool", name: "write" }, tools: ["search"] },
      /Invalid toolChoice: tool "write" is not offered/,
    ],
    [{ toolChoice: "always" }, /Invalid toolChoice/],
    [{ prepareStep: "yes" }, /Invalid prepareStep/],
    [{ stopWhen: [() => true, 3] }, /Invalid stopWhen/],
    [{ steering: { send() {} } }, /Invalid steering: expected a SteeringInbox/],
  ])("rejects invalid run options before anything starts: %j", async (options, message) => {
    const model = new ScriptedModel([{ text: "never" }]);
    const agent = new Agent({ model, tools: [search, write] });
    await expect(agent.run("go", options as never)).rejects.toThrow(message);
    expect(() => agent.stream("go", options as never)).toThrow(InvalidArgumentError);
    expect(model.calls).toHaveLength(0);
  });

  it("rejects invalid agent options at construction", () => {
    const model = new ScriptedModel([]);
    expect(() => new Agent({ model, prepareStep: 1 as never })).toThrow(
      /Invalid prepareStep: expected a function/,
    );
    expect(() => new Agent({ model, stopWhen: ["x"] as never })).toThrow(/Invalid stopWhen/);
  });
});
