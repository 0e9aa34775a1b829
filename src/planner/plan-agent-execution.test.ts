import { describe, expect, it } from "vitest";
import { calculator } from "../builtin-tools/calculator.js";
import type { AgentEvent } from "../loop/agent-event.js";
import { Profile } from "../profiles/profile.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { PlanAgent } from "./plan-agent.js";
import { planAnswer, toolStep, weatherTool } from "./test-utils/planner-fixtures.js";

const en = new Profile({ language: "en" });
const calc = (expression: string) => toolStep("calculator", { expression });

describe("PlanAgent: execution", () => {
  it("validates arguments before the call: a missing required field fails the step, the tool is not called", async () => {
    const { tool: weather, calls } = weatherTool();
    const model = new ScriptedModel([
      planAnswer(toolStep("get_weather", {}), toolStep("get_weather", { city: "Paris" })),
    ]);
    const result = await new PlanAgent({ model, tools: [weather], profile: en }).run("weather?");
    expect(calls).toEqual(["Paris"]);
    const [missing, paris] = result.observations;
    expect(missing).toMatchObject({ step: 1, round: 0, toolName: "get_weather", ok: false, arguments: {} });
    expect(missing?.ok === false && missing.error.type).toBe("ToolArgumentsError");
    expect(missing?.ok === false && missing.error.message).toContain('"city"');
    expect(paris).toMatchObject({ step: 2, ok: true, result: '{"city":"Paris","tempC":18}' });
    expect(typeof paris?.latencyMs).toBe("number");
  });

  it("ends execution at a reply step, which is the answer", async () => {
    const { tool: weather, calls } = weatherTool();
    const model = new ScriptedModel([
      planAnswer(
        toolStep("get_weather", { city: "Paris" }),
        { type: "reply", text: "Bring a jacket." },
        toolStep("get_weather", { city: "London" }),
      ),
    ]);
    const result = await new PlanAgent({ model, tools: [weather] }).run("Paris?");
    expect(result.text).toBe("Bring a jacket.");
    expect(calls).toEqual(["Paris"]);
    expect(result.observations).toHaveLength(1);
    expect(model.calls).toHaveLength(1);
  });

  it("hands the observations to the summarizer, whose text is the answer", async () => {
    const { tool: weather } = weatherTool();
    const model = new ScriptedModel([
      planAnswer(toolStep("get_weather", { city: "Paris" }), calc("18 - 11")),
    ]);
    const summarizer = new ScriptedModel([{ text: "Paris is 18°C, 7 degrees warmer." }]);
    const profile = new Profile({ language: "en", tone: "cheerful" });
    const result = await new PlanAgent({ model, tools: [weather, calculator], summarizer, profile }).run(
      "Paris?",
    );
    expect(result.text).toBe("Paris is 18°C, 7 degrees warmer.");
    const [system, user] = summarizer.calls[0]?.request.messages ?? [];
    expect(system?.content).toContain("Keep a cheerful tone.");
    expect(user?.content).toContain("User query:\nParis?");
    expect(user?.content).toContain('#1 get_weather {"city":"Paris"} → ok: {"city":"Paris","tempC":18}');
    expect(user?.content).toContain('#2 calculator {"expression":"18 - 11"} → ok: 7');
    const calls = result.events.filter((e) => e.type === "model_call").map((e) => e.data.model);
    expect(calls).toEqual(["scripted:scripted", "scripted:scripted"]);
  });

  it("falls back to the template when the summarizer fails", async () => {
    const model = new ScriptedModel([planAnswer(calc("1 + 1"))]);
    const summarizer = new ScriptedModel([{ error: new Error("overloaded") }]);
    const result = await new PlanAgent({ model, tools: [calculator], summarizer, profile: en }).run("?");
    expect(result.text).toBe("#1 tool calculator succeeded: 2");
    expect(result.events.some((e) => e.type === "error" && e.data.name === "SummarizerError")).toBe(true);
  });

  it("lists each step with the template, in Chinese and in English", async () => {
    const script = () => [planAnswer(calc("40 + 7"), toolStep("get_weather", { city: "Atlantis" }))];
    const zh = new PlanAgent({ model: new ScriptedModel(script()), tools: [calculator, weatherTool().tool] });
    expect(await zh.execute("?")).toBe(
      "#1 工具 calculator 成功: 47\n#2 工具 get_weather 失败: Error: no weather station for Atlantis",
    );
    const english = zh.with({ model: new ScriptedModel(script()), profile: en });
    expect(await english.execute("?")).toBe(
      "#1 tool calculator succeeded: 47\n#2 tool get_weather failed: Error: no weather station for Atlantis",
    );
  });

  it("takes at most maxSteps steps, and a call may lower it", async () => {
    const plan = planAnswer(calc("1"), calc("2"), calc("3"), calc("4"));
    const agent = new PlanAgent({
      model: new ScriptedModel([plan, plan]),
      tools: [calculator],
      maxSteps: 2,
      profile: en,
    });
    const result = await agent.run("count");
    expect(result.observations.map((o) => o.ok && o.result)).toEqual(["1", "2"]);
    const skipped = result.events.find((e) => e.type === "error" && e.data.name === "MaxStepsReached");
    expect(skipped?.data).toMatchObject({
      fatal: false,
      message: "maxSteps (2) reached: 2 planned step(s) not run",
    });
    expect(await agent.execute({ userQuery: "count", maxSteps: 1 })).toBe("#1 tool calculator succeeded: 1");
  });

  it("applies profile overrides to one call only, also when the call throws", async () => {
    const model = new ScriptedModel((_request, index) =>
      index === 0 ? { error: new Error("model down") } : planAnswer(calc("2 + 2")),
    );
    const agent = new PlanAgent({ model, tools: [calculator] });
    await expect(agent.execute({ userQuery: "2 + 2", profileOverrides: { language: "en" } })).rejects.toThrow(
      "model down",
    );
    expect(agent.profile.language).toBe("zh");
    expect(model.calls[0]?.request.messages[0]?.content).toContain("English (en)");
    expect(await agent.execute("2 + 2")).toBe("#1 工具 calculator 成功: 4");
    expect(model.calls[1]?.request.messages[0]?.content).toContain("Chinese (zh)");
    expect(await agent.execute({ userQuery: "2 + 2", profileOverrides: { language: "en" } })).toBe(
      "#1 tool calculator succeeded: 4",
    );
    expect(agent.profile.language).toBe("zh");
  });

  it("rejects any other input with a TypeError", async () => {
    const model = new ScriptedModel([]);
    const agent = new PlanAgent({ model, tools: [calculator] });
    const bad: unknown[] = [
      42,
      null,
      undefined,
      [],
      "",
      "  ",
      {},
      { query: "x" },
      { userQuery: 3 },
      { userQuery: "x", maxSteps: 0 },
      { userQuery: "x", maxSteps: 1.5 },
      { userQuery: "x", profileOverrides: "en" },
      { userQuery: "x", profileOverrides: { language: 7 } },
      { userQuery: "x", extra: true },
    ];
    for (const input of bad) {
      await expect(agent.execute(input as string)).rejects.toThrow(TypeError);
      await expect(agent.run(input as string)).rejects.toThrow(/PlanAgent input/);
    }
    await expect(agent.step(5 as unknown as string)).rejects.toThrow(TypeError);
    expect(model.calls).toHaveLength(0);
  });

  it("re-plans with the observations of the previous round", async () => {
    const { tool: weather } = weatherTool();
    const model = new ScriptedModel([
      planAnswer(toolStep("get_weather", { city: "Paris" })),
      planAnswer(calc("18 * 2")),
      { text: "[]" },
    ]);
    const agent = new PlanAgent({ model, tools: [weather, calculator], replan: 2, profile: en });
    const result = await agent.run("Double the temperature in Paris");
    const round1 = model.calls[1]?.request.messages[1]?.content ?? "";
    expect(round1).toContain('#1 get_weather {"city":"Paris"} → ok: {"city":"Paris","tempC":18}');
    expect(round1).toContain("Reply with [] when the results above are enough.");
    expect(model.calls[2]?.request.messages[1]?.content).toContain(
      '#2 calculator {"expression":"18 * 2"} → ok: 36',
    );
    const rounds = result.events.filter((e) => e.type === "plan").map((e) => e.data.round);
    expect(rounds).toEqual([0, 1, 2]);
    expect(result.observations.map((o) => [o.step, o.round])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(result.text).toBe(
      '#1 tool get_weather succeeded: {"city":"Paris","tempC":18}\n#2 tool calculator succeeded: 36',
    );
  });

  it("step() plans and executes once, without re-planning", async () => {
    const model = new ScriptedModel([planAnswer(calc("3 * 3"))]);
    const agent = new PlanAgent({ model, tools: [calculator], replan: 3, profile: en });
    expect(await agent.step("3 * 3")).toBe("#1 tool calculator succeeded: 9");
    expect(model.calls).toHaveLength(1);
  });

  it("emits the ReAct event types in order, JSON-serialisable, to onEvent", async () => {
    const seen: AgentEvent[] = [];
    const model = new ScriptedModel([planAnswer(calc("40 + 7"), toolStep("nope"))]);
    const agent = new PlanAgent({
      model,
      tools: [calculator],
      profile: en,
      onEvent: (e) => void seen.push(e),
    });
    const result = await agent.run("40 + 7");
    // The plan-and-execute run is the agent loop: the planning turn, its steps, then the answering turn (the
    // step report: no request). The scripted model has no price: a non-fatal UnpricedModel warning.
    expect(result.events.map((e) => (e.type === "error" ? `error:${e.data.name}` : e.type))).toEqual([
      "loop_start",
      "turn_start",
      "model_call",
      "error:UnknownTool",
      "plan",
      "error:UnpricedModel",
      "action",
      "observation",
      "turn_start",
      "model_call",
      "loop_end",
    ]);
    expect(seen).toEqual(result.events);
    expect(JSON.parse(JSON.stringify(result.events))).toEqual(result.events);
    const [start, , call, , plan, , action, observation, , answer, end] = result.events;
    expect(start?.data).toEqual({ task: "40 + 7", model: "scripted:scripted" });
    expect(call?.data).toMatchObject({ model: "scripted:scripted", costUsd: 0, priced: false });
    expect(call?.data).toHaveProperty("latencyMs");
    expect(call?.data).toHaveProperty("finishReason.unified", "tool_calls");
    expect(answer?.data).toMatchObject({ usage: { totalTokens: 0 } }); // answered without a request
    expect(plan?.data).toEqual({ round: 0, steps: [calc("40 + 7")] });
    expect(action?.data).toEqual({
      toolCallId: "plan_step_1",
      toolName: "calculator",
      arguments: { expression: "40 + 7" },
    });
    expect(observation?.data).toMatchObject({ toolCallId: "plan_step_1", result: "47", ok: true });
    expect(end?.data).toEqual({ stopReason: "completed", text: result.text });
    // One model request: the run's usage is that call's (ScriptedModel estimates it from the real tokenizer).
    expect(result.usage).toEqual((call?.data as { usage?: unknown } | undefined)?.usage);
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
    expect(model.calls).toHaveLength(1);
    expect(result.turns).toBe(2);
  });

  it("survives a hook that throws or rejects", async () => {
    let count = 0;
    const model = new ScriptedModel([planAnswer(calc("1 + 1"))]);
    const agent = new PlanAgent({
      model,
      tools: [calculator],
      profile: en,
      onEvent: (event) => {
        count++;
        if (event.type === "plan") throw new Error("renderer crashed");
        if (event.type === "action") return Promise.reject(new Error("async crash"));
        if (event.type === "loop_end") throw new Error("too late");
      },
    });
    const result = await agent.run("1 + 1");
    expect(result.text).toBe("#1 tool calculator succeeded: 2");
    // loop_start, turn_start, model_call, plan, UnpricedModel, action, observation, turn_start, model_call, loop_end
    expect(count).toBe(10);
    const hookErrors = result.events.filter((e) => e.type === "error" && e.data.name === "HookError");
    expect(hookErrors.map((e) => e.type === "error" && e.data.message)).toEqual([
      "onEvent failed: renderer crashed",
      "onEvent failed: async crash",
      "onEvent failed: too late",
    ]);
    expect(result.events.at(-1)?.type).toBe("loop_end");
  });

  it("ends with a fatal error and stop reason error when the planner fails; run() resolves, execute() rejects", async () => {
    const failure = new Error("503 from provider");
    const agent = new PlanAgent({ model: new ScriptedModel([{ error: failure }]), tools: [calculator] });
    const result = await agent.run("x");
    expect(result.stopReason).toBe("error");
    expect(result.error).toBe(failure);
    expect(result.events.map((e) => e.type)).toEqual(["loop_start", "turn_start", "error", "loop_end"]);
    expect(result.events[2]?.data).toEqual({ name: "Error", message: "503 from provider", fatal: true });
    expect(result.events[3]?.data).toEqual({ stopReason: "error", text: "" });
    const again = agent.with({ model: new ScriptedModel([{ error: failure }]) });
    await expect(again.execute("x")).rejects.toBe(failure);
  });

  it("run().text equals what execute() returns", async () => {
    const script = [planAnswer(calc("2 ^ 10"))];
    const a = new PlanAgent({ model: new ScriptedModel(script), tools: [calculator] });
    const b = new PlanAgent({ model: new ScriptedModel(script), tools: [calculator] });
    expect((await a.run("2^10")).text).toBe(await b.execute("2^10"));
  });

  it("validates its options", () => {
    const model = new ScriptedModel([]);
    expect(() => new PlanAgent({ model, maxSteps: 0 })).toThrow(/maxSteps/);
    expect(() => new PlanAgent({ model, replan: -1 })).toThrow(/replan/);
    expect(() => new PlanAgent({ model, maxToolsInPrompt: 1.5 })).toThrow(/maxToolsInPrompt/);
    expect(() => new PlanAgent({ model: "nope" })).toThrow(/model/);
    expect(new PlanAgent({ model, profile: { language: "en" } }).profile.language).toBe("en");
  });
});
