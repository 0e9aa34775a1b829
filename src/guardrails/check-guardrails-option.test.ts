import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { secretsGuardrail } from "./secrets-guardrail.js";

const model = new ScriptedModel([]);
const make = (guardrails: unknown) => () => new Agent({ model, guardrails } as never);
const pass = () => ({ block: false }) as const;

describe("the guardrails option", () => {
  it.each([
    ["not an object", 1, "guardrails"],
    ["an unknown kind", { inputs: [] }, "guardrails.inputs"],
    ["a list that is not an array", { input: secretsGuardrail() }, "guardrails.input"],
    ["an entry that is not an object", { output: [null] }, "guardrails.output[0]"],
    ["a missing name", { tool: [{ check: pass }] }, "guardrails.tool[0].name"],
    ["an empty name", { input: [{ name: "", check: pass }] }, "guardrails.input[0].name"],
    [
      "a check that is not a function",
      { output: [{ name: "x", check: true }] },
      "guardrails.output[0].check",
    ],
    ["an unknown mode", { input: [{ name: "x", check: pass, mode: "after" }] }, "guardrails.input[0].mode"],
    ["an unknown phase", { tool: [{ name: "x", check: pass, phase: "both" }] }, "guardrails.tool[0].phase"],
  ])("refuses %s at construction", (_, guardrails, argument) => {
    expect(make(guardrails)).toThrow(InvalidArgumentError);
    expect(make(guardrails)).toThrow(argument);
  });

  it("takes the three kinds, the built-ins and class instances", () => {
    class Custom {
      name = "custom";
      check() {
        return { block: false } as const;
      }
    }
    expect(
      make({
        input: [secretsGuardrail({ mode: "parallel" })],
        output: [new Custom()],
        tool: [secretsGuardrail()],
      }),
    ).not.toThrow();
    expect(make({})).not.toThrow();
  });
});
