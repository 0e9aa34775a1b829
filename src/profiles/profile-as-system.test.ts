import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import type { AgentOptions } from "../agent-options.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Profile } from "./profile.js";

const profile = new Profile({
  name: "Atlas",
  role: "travel planner",
  goals: ["Plan short trips"],
  language: "en",
  tone: "friendly",
});

describe("a Profile as an Agent's system prompt", () => {
  it("is rendered into the system message the model receives", async () => {
    const model = new ScriptedModel([{ text: "Hello!" }, { text: "Again." }]);
    const agent = new Agent({ model, system: profile });
    expect(agent.system).toBe(profile.renderSystemPrompt());
    const first = await agent.run("Hi");
    expect(model.calls[0]?.request.messages[0]).toEqual({
      role: "system",
      content: profile.renderSystemPrompt(),
    });
    expect(model.calls[0]?.request.messages[0]?.content).toContain("You are Atlas, a travel planner.");
    // A continued conversation keeps the one system message.
    await agent.run("More", { messages: first.messages });
    const systems = model.calls[1]?.request.messages.filter((message) => message.role === "system");
    expect(systems).toHaveLength(1);
  });

  it("is kept by with(), and a merged profile gives its own prompt", async () => {
    const model = new ScriptedModel([{ text: "Bonjour" }]);
    const formal = profile.merged({ tone: "formal", language: "fr" });
    const agent = new Agent({ model, system: profile }).with({ system: formal });
    await agent.run("Salut");
    expect(model.calls[0]?.request.messages[0]?.content).toContain("Keep a formal tone.");
    expect(model.calls[0]?.request.messages[0]?.content).toContain("French (fr)");
  });

  it("still refuses other values, naming both accepted kinds", () => {
    for (const system of [42, { name: "Atlas" }, ["a"]]) {
      const build = () => new Agent({ model: new ScriptedModel([]), system } as unknown as AgentOptions);
      expect(build).toThrow(InvalidArgumentError);
      expect(build).toThrow("expected a string or a Profile");
    }
  });
});
