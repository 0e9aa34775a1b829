import { describe, expect, it } from "vitest";
import { calculator } from "../builtin-tools/calculator.js";
import { Profile } from "../profiles/profile.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { PlanAgent } from "./plan-agent.js";
import { planAnswer, toolStep, weatherTool } from "./test-utils/planner-fixtures.js";

const en = new Profile({ language: "en" });
const content = (model: ScriptedModel, call: number, message: number) =>
  String(model.calls[call]?.request.messages[message]?.content ?? "");
/** The run's error events, but the scripted model's UnpricedModel warnings. */
const errorsOf = (events: readonly { type: string; data: unknown }[]) =>
  events
    .filter((e) => e.type === "error")
    .map((e) => e.data as { name: string; message: string; fatal: boolean })
    .filter((e) => e.name !== "UnpricedModel");

describe("PlanAgent: planning", () => {
  it("asks for a plan with the profile, the query and each tool's name, description and schema", async () => {
    const model = new ScriptedModel([planAnswer(toolStep("calculator", { expression: "40 + 7" }))]);
    const { tool: weather } = weatherTool();
    const profile = new Profile({ name: "Atlas", goals: ["Be exact"] });
    const agent = new PlanAgent({ model, tools: [calculator, weather], profile });
    await agent.execute("What is 40 + 7?");
    const request = model.calls[0]?.request;
    expect(request?.tools).toBeUndefined();
    const system = content(model, 0, 0);
    expect(system.startsWith(profile.renderSystemPrompt())).toBe(true);
    expect(system).toContain("JSON array");
    expect(system).toContain('{"type": "reply", "text"');
    expect(system).toContain(`- calculator: ${calculator.description}`);
    expect(system).toContain(JSON.stringify(calculator.jsonSchema));
    expect(system).toContain("- get_weather: Current weather for a city");
    expect(content(model, 0, 1)).toBe("User query:\nWhat is 40 + 7?");
  });

  it("runs a fenced plan wrapped in prose", async () => {
    const plan = JSON.stringify([toolStep("calculator", { expression: "40 + 7" })], null, 2);
    const model = new ScriptedModel([{ text: `Here you go:\n\`\`\`json\n${plan}\n\`\`\`\nDone.` }]);
    const agent = new PlanAgent({ model, tools: [calculator], profile: en });
    expect(await agent.execute("40 + 7?")).toBe("#1 tool calculator succeeded: 47");
  });

  it("repairs an unreadable plan once, sending the bad output and the parse error", async () => {
    const model = new ScriptedModel([
      { text: "I would use the calculator." },
      planAnswer(toolStep("calculator", { expression: "6 * 7" })),
    ]);
    const agent = new PlanAgent({ model, tools: [calculator], profile: en });
    const result = await agent.run("6 * 7?");
    expect(result.text).toBe("#1 tool calculator succeeded: 42");
    const repair = model.calls[1]?.request.messages ?? [];
    expect(repair).toHaveLength(4);
    expect(repair[2]).toEqual({ role: "assistant", content: "I would use the calculator." });
    expect(repair[3]?.content).toContain("not a valid plan");
    expect(repair[3]?.content).toContain("no JSON array of steps found");
    expect(repair[3]?.content).toContain("only the JSON array");
    expect(errorsOf(result.events).map((e) => [e.name, e.fatal])).toEqual([["PlanParseError", false]]);
  });

  it("makes the model's text the reply when the repair fails too", async () => {
    const model = new ScriptedModel([{ text: "It is 4." }, { text: "The answer is 4." }]);
    const { tool: weather, calls } = weatherTool();
    const agent = new PlanAgent({ model, tools: [weather] });
    const result = await agent.run("2 + 2?");
    expect(result.text).toBe("The answer is 4.");
    expect(result.plans).toEqual([[{ type: "reply", text: "The answer is 4." }]]);
    expect(model.calls).toHaveLength(2);
    expect(calls).toEqual([]);
    expect(errorsOf(result.events).map((e) => e.name)).toEqual(["PlanParseError", "PlanParseError"]);
  });

  it("says no plan was possible when both the plan and its repair are blank", async () => {
    const model = new ScriptedModel([{ text: "" }, { text: "  " }]);
    const agent = new PlanAgent({ model, tools: [calculator], profile: en });
    expect(await agent.execute("?")).toBe("Sorry, I could not make a plan for this request.");
  });

  it("answers with a lone reply step without calling tools", async () => {
    const model = new ScriptedModel([{ text: '{"type": "reply", "text": "Hello!"}' }]);
    const { tool: weather, calls } = weatherTool();
    expect(await new PlanAgent({ model, tools: [weather] }).execute("hi")).toBe("Hello!");
    expect(calls).toEqual([]);
  });

  it("drops steps naming unknown tools, with a non-fatal error event", async () => {
    const model = new ScriptedModel([
      planAnswer(toolStep("teleport", { to: "Mars" }), toolStep("calculator", { expression: "1 + 1" })),
    ]);
    const agent = new PlanAgent({ model, tools: [calculator], profile: en });
    const result = await agent.run("go");
    expect(result.steps).toEqual([toolStep("calculator", { expression: "1 + 1" })]);
    expect(result.text).toBe("#1 tool calculator succeeded: 2");
    const [error] = errorsOf(result.events);
    expect(error).toMatchObject({ name: "UnknownTool", fatal: false });
    expect(error?.message).toContain('"teleport", which does not exist');
  });

  it("answers that no plan was possible for an empty plan, in the profile's language", async () => {
    const zh = await new PlanAgent({
      model: new ScriptedModel([{ text: "[]" }]),
      tools: [calculator],
    }).execute("?");
    expect(zh).toBe("抱歉，我无法为这个请求制定计划。");
    const model = new ScriptedModel([planAnswer(toolStep("nope"))]);
    const agent = new PlanAgent({ model, tools: [calculator], profile: en });
    expect(await agent.execute("?")).toBe("Sorry, I could not make a plan for this request.");
  });

  it("offers only the top-k most relevant tools, and only those may be called", async () => {
    const topics = [
      "email",
      "calendar",
      "weather",
      "stock",
      "news",
      "translate",
      "music",
      "maps",
      "recipe",
      "flight",
      "hotel",
      "taxi",
      "currency",
      "dictionary",
      "timer",
      "alarm",
      "notes",
      "contacts",
      "photos",
      "forecast",
    ];
    const tools = topics.map((topic) =>
      tool({
        name: `${topic}_tool`,
        description:
          topic === "forecast"
            ? "Weather forecast for the coming days in a city"
            : `Handles ${topic} tasks for the user`,
        parameters: { type: "object", properties: {} },
        execute: () => topic,
      }),
    );
    const model = new ScriptedModel([planAnswer(toolStep("weather_tool"), toolStep("email_tool"))]);
    const agent = new PlanAgent({ model, tools, maxToolsInPrompt: 2, profile: en });
    const result = await agent.run("What will the weather be in Paris? Give me the forecast.");
    expect(result.offeredTools).toEqual(["forecast_tool", "weather_tool"]);
    const system = content(model, 0, 0);
    const listed = topics.filter((topic) => system.includes(`- ${topic}_tool:`));
    expect(listed.sort()).toEqual(["forecast", "weather"]);
    expect(result.steps).toEqual([toolStep("weather_tool")]);
    expect(errorsOf(result.events)[0]?.message).toContain(
      '"email_tool", which was not offered for this query',
    );
  });
});
