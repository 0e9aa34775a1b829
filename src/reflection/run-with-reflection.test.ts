import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { parseCritique } from "./parse-critique.js";
import { runWithReflection } from "./run-with-reflection.js";

describe("runWithReflection", () => {
  it("acts, critiques and redoes with the feedback until the target score", async () => {
    const model = new ScriptedModel([{ text: "Draft 1" }, { text: "Draft 2" }, { text: "Draft 3" }]);
    const critic = new ScriptedModel([
      { text: '{"score": 4, "feedback": "Too vague: name the cities."}' },
      { text: '```json\n{"score": 6, "feedback": "Add the temperatures."}\n```' },
      { text: 'Sure! {"score": 9, "feedback": "Good."}' },
    ]);
    const outcome = await runWithReflection({
      agent: new Agent({ model }),
      input: "Compare Paris and London.",
      critic,
      targetScore: 8,
      maxRounds: 5,
    });
    expect(outcome.rounds.map((r) => [r.text, r.score])).toEqual([
      ["Draft 1", 4],
      ["Draft 2", 6],
      ["Draft 3", 9],
    ]);
    expect(outcome.text).toBe("Draft 3");
    expect(outcome.best.score).toBe(9);
    const redo = model.calls[1]?.request.messages.at(-1)?.content ?? "";
    expect(redo).toContain("Compare Paris and London.");
    expect(redo).toContain("Draft 1");
    expect(redo).toContain("Too vague: name the cities.");
    expect(critic.calls[0]?.request.messages.at(-1)?.content).toContain("Draft 1");
  });

  it("stops after maxRounds and returns the best round, not the last", async () => {
    const model = new ScriptedModel([{ text: "A" }, { text: "B" }]);
    const critic = new ScriptedModel([
      { text: '{"score": 7, "feedback": "ok"}' },
      { text: '{"score": 3, "feedback": "worse"}' },
    ]);
    const outcome = await runWithReflection({
      agent: new Agent({ model }),
      input: "task",
      critic,
      maxRounds: 2,
    });
    expect(outcome.rounds).toHaveLength(2);
    expect(outcome.text).toBe("A");
    expect(outcome.best.feedback).toBe("ok");
  });

  it("uses the agent's model as critic by default", async () => {
    const model = new ScriptedModel([{ text: "answer" }, { text: '{"score": 10, "feedback": "perfect"}' }]);
    const outcome = await runWithReflection({ agent: new Agent({ model }), input: "task" });
    expect(outcome.rounds).toHaveLength(1);
    expect(outcome.best.score).toBe(10);
  });

  it("reads scores forgivingly", () => {
    expect(parseCritique('{"score": "7", "feedback": "x"}')).toEqual({ score: 7, feedback: "x" });
    expect(parseCritique("Score: 6. Needs work.").score).toBe(6);
    expect(parseCritique("I'd give it 8/10.").score).toBe(8);
    expect(parseCritique('{"score": 42}').score).toBe(10);
    expect(parseCritique("no idea")).toEqual({ score: 0, feedback: "no idea" });
  });

  it("rejects invalid options", async () => {
    await expect(
      runWithReflection({ agent: new Agent({ model: new ScriptedModel([]) }), input: "t", maxRounds: 0 }),
    ).rejects.toThrow(/maxRounds/);
    const positional = runWithReflection as unknown as (agent: Agent, input: string) => Promise<unknown>;
    await expect(positional(new Agent({ model: new ScriptedModel([]) }), "t")).rejects.toThrow(
      /runWithReflection\(\{ agent, input, \.\.\. \}\)/,
    );
  });
});
