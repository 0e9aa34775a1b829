import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStep } from "../testing/scripted-step.js";
import { tool } from "../tools/tool.js";

// Loop detection counts repeats across turns: one response holding identical calls (three dice rolls) runs
// them all; the model repeating the same call turn after turn is stopped.

let rolls = 0;
const rollDice = tool({
  name: "roll_dice",
  description: "rolls a die",
  parameters: { type: "object", properties: { sides: { type: "number" } }, required: ["sides"] },
  execute: () => {
    rolls++;
    return 4;
  },
});
const threeRolls = (turn: number): ScriptedStep => ({
  toolCalls: [0, 1, 2].map((i) => ({ id: `t${turn}_${i}`, name: "roll_dice", arguments: { sides: 6 } })),
});

describe("loop detection across turns", () => {
  it.each(["run", "stream"] as const)("runs one response's three identical calls (%s)", async (mode) => {
    rolls = 0;
    const model = new ScriptedModel([threeRolls(1), { text: "You rolled 4, 4 and 4." }]);
    const agent = new Agent({ model, tools: [rollDice] });
    const result =
      mode === "run" ? await agent.run("Roll three dice") : await agent.stream("Roll three dice").result;
    expect(result.stopReason).toBe("completed");
    expect(rolls).toBe(3);
    expect(result.toolCalls.map((c) => c.ok)).toEqual([true, true, true]);
  });

  it("stops the same call repeated in three consecutive turns", async () => {
    rolls = 0;
    const once = (turn: number): ScriptedStep => ({
      toolCalls: [{ id: `c${turn}`, name: "roll_dice", arguments: { sides: 6 } }],
    });
    const model = new ScriptedModel([once(1), once(2), once(3), { text: "never" }]);
    const result = await new Agent({ model, tools: [rollDice] }).run("Roll");
    expect(result.stopReason).toBe("loop_detected");
    expect(rolls).toBe(2);
  });

  it("stops three identical responses of three dice rolls each on the third", async () => {
    rolls = 0;
    const model = new ScriptedModel([threeRolls(1), threeRolls(2), threeRolls(3), { text: "never" }]);
    const result = await new Agent({ model, tools: [rollDice] }).run("Roll");
    expect(result.stopReason).toBe("loop_detected");
    expect(rolls).toBe(6);
  });
});
