import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { baseLanguage, languageName } from "./language-name.js";
import { Profile } from "./profile.js";

describe("Profile", () => {
  it("has defaults", () => {
    const profile = new Profile();
    expect(profile.toJSON()).toEqual({
      name: "BaseAgent",
      role: "general assistant",
      goals: [],
      tasks: [],
      backstory: "",
      language: "zh",
      tone: "concise",
    });
    expect(new Profile({ name: undefined }).name).toBe("BaseAgent");
  });

  it("is immutable", () => {
    const goals = ["help"];
    const profile = new Profile({ goals });
    goals.push("later");
    expect(profile.goals).toEqual(["help"]);
    expect(Object.isFrozen(profile.goals)).toBe(true);
    expect(Object.isFrozen(profile)).toBe(true);
  });

  it("renders the default system prompt with placeholders", () => {
    expect(new Profile().renderSystemPrompt()).toBe(
      [
        "You are BaseAgent, a general assistant.",
        "Always answer in Chinese (zh).",
        "Keep a concise tone.",
        "",
        "Goals:",
        "- (none specified)",
        "",
        "Typical tasks:",
        "- (none specified)",
      ].join("\n"),
    );
  });

  it("renders backstory, goals and tasks as bullets", () => {
    const prompt = new Profile({
      name: "Atlas",
      role: "travel planner",
      goals: ["Plan cheap trips", "  ", "Avoid layovers"],
      tasks: ["Compare flights"],
      backstory: "Atlas worked at a travel agency for ten years.",
      language: "en",
      tone: "friendly",
    }).renderSystemPrompt();
    expect(prompt).toContain("You are Atlas, a travel planner.");
    expect(prompt).toContain("Always answer in English (en).");
    expect(prompt).toContain("Keep a friendly tone.");
    expect(prompt).toContain("\n\nAtlas worked at a travel agency for ten years.\n\n");
    expect(prompt).toContain("Goals:\n- Plan cheap trips\n- Avoid layovers");
    expect(prompt).toContain("Typical tasks:\n- Compare flights");
    expect(prompt).not.toContain("(none specified)");
  });

  it("spells out known languages, keeps unknown codes and picks the article", () => {
    expect(new Profile({ language: "fr" }).renderSystemPrompt()).toContain("Always answer in French (fr).");
    expect(new Profile({ language: "ja" }).renderSystemPrompt()).toContain("Japanese (ja)");
    expect(new Profile({ language: "zh-CN" }).renderSystemPrompt()).toContain("Chinese (zh-CN)");
    expect(new Profile({ language: "pt" }).renderSystemPrompt()).toContain("Always answer in pt.");
    expect(new Profile({ role: "engineer" }).renderSystemPrompt()).toContain("BaseAgent, an engineer.");
    expect(new Profile({ role: "the lead" }).renderSystemPrompt()).toContain("BaseAgent, the lead.");
    expect(languageName("DE")).toBe("German");
    expect(languageName("es-MX")).toBe("Spanish");
    expect(languageName("xx")).toBeUndefined();
    expect(baseLanguage("en_US")).toBe("en");
  });

  it("merges overrides into a new profile, ignoring undefined and leaving the original untouched", () => {
    const original = new Profile({ name: "Atlas", goals: ["a"] });
    const merged = original.merged({ language: "en", name: undefined, goals: ["b", "c"] });
    expect(merged).not.toBe(original);
    expect(merged.name).toBe("Atlas");
    expect(merged.language).toBe("en");
    expect(merged.goals).toEqual(["b", "c"]);
    expect(original.language).toBe("zh");
    expect(original.goals).toEqual(["a"]);
    expect(() => original.merged({ tone: "" })).toThrow(InvalidArgumentError);
  });

  it("round-trips through JSON", () => {
    const profile = new Profile({ name: "Atlas", goals: ["x"], tasks: ["y"], backstory: "b", tone: "warm" });
    const copy = Profile.fromJSON(JSON.parse(JSON.stringify(profile)));
    expect(copy.toJSON()).toEqual(profile.toJSON());
    expect(Profile.fromJSON(JSON.stringify(profile)).toJSON()).toEqual(profile.toJSON());
    expect(copy.renderSystemPrompt()).toBe(profile.renderSystemPrompt());
  });

  it("fromJSON ignores unknown keys and fills defaults", () => {
    const profile = Profile.fromJSON({ name: "X", extra: 1, nested: { a: 1 } });
    expect(profile.toJSON()).toEqual({ ...new Profile().toJSON(), name: "X" });
    expect(profile).not.toHaveProperty("extra");
  });

  it("rejects wrong types with InvalidArgumentError", () => {
    expect(() => Profile.fromJSON({ name: 3 })).toThrow(InvalidArgumentError);
    expect(() => Profile.fromJSON({ goals: "not an array" })).toThrow(/goals/);
    expect(() => Profile.fromJSON({ tasks: [1] })).toThrow(InvalidArgumentError);
    expect(() => Profile.fromJSON({ backstory: null })).toThrow(InvalidArgumentError);
    expect(() => Profile.fromJSON([])).toThrow(InvalidArgumentError);
    expect(() => Profile.fromJSON(null)).toThrow(InvalidArgumentError);
    expect(() => Profile.fromJSON("{not json")).toThrow(InvalidArgumentError);
    expect(() => new Profile({ language: " " })).toThrow(InvalidArgumentError);
  });

  it("works as the system prompt of an Agent", async () => {
    const model = new ScriptedModel([{ text: "你好" }]);
    const profile = new Profile({ name: "Atlas" });
    await new Agent({ model, system: profile.renderSystemPrompt() }).run("hi");
    expect(model.calls[0]?.request.messages[0]).toEqual({
      role: "system",
      content: profile.renderSystemPrompt(),
    });
  });
});
