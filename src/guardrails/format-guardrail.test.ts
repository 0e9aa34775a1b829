import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { formatGuardrail } from "./format-guardrail.js";
import type { GuardrailCheck } from "./guardrail.js";

const signal = new AbortController().signal;
const output = (text: string): GuardrailCheck => ({
  kind: "output",
  text,
  output: undefined,
  messages: [],
  signal,
});

describe("formatGuardrail", () => {
  it("with a pattern: passes matching text, blocks the rest (the description names the format)", () => {
    const yesNo = formatGuardrail({ pattern: /^(yes|no)$/gi, description: "yes or no" });
    expect(yesNo.name).toBe("format");
    expect(yesNo.check(output("Yes"))).toEqual({ block: false });
    expect(yesNo.check(output("Yes"))).toEqual({ block: false }); // the g flag does not make it stateful
    expect(yesNo.check(output("Maybe"))).toEqual({ block: true, reason: "the answer is not yes or no" });
    const ticket = formatGuardrail({ pattern: /^[A-Z]+-\d+$/ });
    expect(ticket.check(output("see ABC-12"))).toEqual({
      block: true,
      reason: "the answer does not match /^[A-Z]+-\\d+$/",
    });
  });

  it("with validate: true passes, false blocks, a string blocks with that reason; async works", async () => {
    const noScript = formatGuardrail({
      validate: (text) => !/<script/i.test(text) || "the answer contains a script tag",
    });
    expect(noScript.check(output("<b>hi</b>"))).toEqual({ block: false });
    expect(noScript.check(output("<script>x</script>"))).toEqual({
      block: true,
      reason: "the answer contains a script tag",
    });
    const json = formatGuardrail({
      description: "JSON",
      validate: async (text) => {
        try {
          JSON.parse(text);
          return true;
        } catch {
          return false;
        }
      },
    });
    await expect(json.check(output('{"a":1}'))).resolves.toEqual({ block: false });
    await expect(json.check(output("{a:1}"))).resolves.toEqual({
      block: true,
      reason: "the answer is not JSON",
    });
  });

  it("needs exactly one of pattern and validate", () => {
    expect(() => formatGuardrail({})).toThrow(InvalidArgumentError);
    expect(() => formatGuardrail({ pattern: /x/, validate: () => true })).toThrow(InvalidArgumentError);
    expect(() => formatGuardrail({ pattern: "x" as unknown as RegExp })).toThrow(InvalidArgumentError);
  });

  it("blocks a final answer in the wrong format", async () => {
    const model = new ScriptedModel([{ text: "I think so, yes." }]);
    const agent = new Agent({
      model,
      guardrails: { output: [formatGuardrail({ pattern: /^(yes|no)$/i, description: "yes or no" })] },
    });
    const result = await agent.run("Is Paris in France? Answer yes or no.");
    expect(result.stopReason).toBe("guardrail");
    expect(result.error).toMatchObject({ guardrailName: "format", reason: "the answer is not yes or no" });
  });
});
