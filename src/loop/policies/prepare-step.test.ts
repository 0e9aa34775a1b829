import { describe, expect, it } from "vitest";
import { z } from "zod";
import { StepControlError } from "../../errors/step-control-error.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import { tool } from "../../tools/tool.js";
import { ToolRegistry } from "../../tools/tool-registry.js";
import { createLoopState } from "../loop-state.js";
import { type StepOverrides, StepPreparer } from "./prepare-step.js";
import { StepModel } from "./step-model.js";

const t = (name: string) => tool({ name, description: name, parameters: z.object({}), execute: () => name });

function preparer(overrides: (turn: number) => StepOverrides | undefined, resolved: string[] = []) {
  const registry = new ToolRegistry({ tools: [t("a"), t("b"), t("c")] });
  const state = createLoopState({ messages: [{ role: "user", content: "go" }], resumed: false });
  return new StepPreparer({
    prepareStep: ({ turn }) => overrides(turn),
    state,
    registry,
    signal: new AbortController().signal,
    resolveModel: (name) => {
      resolved.push(name);
      return new ScriptedModel([], { modelId: name });
    },
    extraTools: ["final_answer"],
  });
}

describe("StepPreparer", () => {
  it("resolves each model string once and makes each tool subset once (in the registry's order)", async () => {
    const resolved: string[] = [];
    const p = preparer((turn) => ({ model: turn % 2 ? "x:one" : "x:two", tools: ["c", "a"] }), resolved);
    const plans = [
      await p.plan({ turn: 1, model: "m" }),
      await p.plan({ turn: 2, model: "m" }),
      await p.plan({ turn: 3, model: "m" }),
    ];
    expect(resolved).toEqual(["x:one", "x:two"]);
    expect(plans[0]?.model).toBe(plans[2]?.model);
    expect(plans.map((plan) => plan?.modelName)).toEqual([
      "scripted:x:one",
      "scripted:x:two",
      "scripted:x:one",
    ]);
    expect(plans[0]?.tools?.registry.names()).toEqual(["a", "c"]);
    expect(plans[1]?.tools).toBe(plans[0]?.tools);
  });

  it("an empty object or undefined is no plan; the typed answer's tool is a valid toolChoice", async () => {
    expect(await preparer(() => ({})).plan({ turn: 1, model: "m" })).toBeUndefined();
    expect(await preparer(() => undefined).plan({ turn: 1, model: "m" })).toBeUndefined();
    const plan = await preparer(() => ({
      tools: ["a"],
      toolChoice: { type: "tool", name: "final_answer" },
    })).plan({
      turn: 1,
      model: "m",
    });
    expect(plan?.toolChoice).toEqual({ type: "tool", name: "final_answer" });
  });

  it("a model string that fails to resolve is a StepControlError naming the turn", async () => {
    const p = new StepPreparer({
      prepareStep: () => ({ model: "bad" }),
      state: createLoopState({ messages: [], resumed: false }),
      registry: new ToolRegistry(),
      signal: new AbortController().signal,
      resolveModel: () => {
        throw new Error("no such provider");
      },
    });
    const error = await p.plan({ turn: 4, model: "m" }).catch((e: unknown) => e);
    expect(StepControlError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe("prepareStep failed at turn 4: it returned no such provider");
  });
});

describe("StepModel", () => {
  it("routes calls to the chosen model, else the base; keeps the base's retry policy and capabilities", async () => {
    const base = new ScriptedModel([{ text: "base" }], {
      modelId: "base",
      capabilities: { structuredOutput: true },
    });
    const other = new ScriptedModel([{ text: "other" }], { modelId: "other" });
    const model = new StepModel(base);
    model.use(other);
    expect([model.provider, model.modelId, model.capabilities]).toEqual([
      "scripted",
      "other",
      { structuredOutput: true },
    ]);
    expect((await model.generate({ messages: [{ role: "user", content: "x" }] })).text).toBe("other");
    model.use(undefined);
    expect(model.current).toBe(base);
    expect((await model.generate({ messages: [{ role: "user", content: "x" }] })).text).toBe("base");
  });
});
