import jsep from "jsep";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { executeToolCalls } from "../tools/execute-tool-calls.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { calculator } from "./calculator.js";
import { evaluateExpression } from "./evaluate-expression.js";

describe("evaluateExpression", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 / 4", 2.5],
    ["10 % 4", 2],
    ["10 - 4 - 3", 3],
    ["2 ** 10", 1024],
    ["2 ^ 10", 1024],
    ["2 ^ 3 ^ 2", 512],
    ["2 * 3 ^ 2", 18],
    ["-3 + +5", 2],
    ["-(2 ^ 2)", -4],
    ["-2 ^ 2", 4],
    ["1.5e3 + .5", 1500.5],
  ])("%s = %d", (expression, expected) => {
    expect(evaluateExpression(expression)).toBe(expected);
  });

  it("supports the whitelisted Math functions and constants", () => {
    expect(evaluateExpression("sqrt(16) + abs(-2) + round(2.5) + floor(2.7) + ceil(2.1)")).toBe(
      4 + 2 + 3 + 2 + 3,
    );
    expect(evaluateExpression("min(3, 1, 2) + max(3, 1, 2) + pow(2, 3)")).toBe(1 + 3 + 8);
    expect(evaluateExpression("log(e) + exp(0)")).toBe(2);
    expect(evaluateExpression("sin(0) + cos(0) + tan(0)")).toBe(1);
    expect(evaluateExpression("2 * pi")).toBeCloseTo(Math.PI * 2);
  });

  it.each([
    ["constructor", /unknown name "constructor"/],
    ["__proto__", /unknown name "__proto__"/],
    ["a.b", /member access/],
    ['"x"', /only numbers/],
    ["[1]", /arrays are not allowed/],
    ["this", /`this` is not allowed/],
    ["process.exit()", /member access/],
    ["(1)(2)", /only these functions can be called/],
    ["(1).constructor", /member access/],
    ["sqrt.constructor", /member access/],
    ["Math.sqrt(2)", /write sqrt instead of Math\.sqrt/],
    ["alert(1)", /only these functions can be called/],
    ["1 && 2", /operator "&&" is not allowed/],
    ["!1", /operator "!" is not allowed/],
    ["1 ? 2 : 3", /ConditionalExpression is not allowed/],
    ["true", /only numbers are allowed, not true/],
    ["1, 2", /single expression/],
    ["sqrt", /sqrt is a function/],
    ["sqrt(1, 2)", /sqrt\(\) takes 1 argument, got 2/],
    ["1 +", /could not parse/],
    ["1 / 0", /not a finite number/],
    ["", /empty expression/],
    [`1${"+1".repeat(500)}`, /longer than 1000 characters/],
  ])("refuses %j", (expression, message) => {
    expect(() => evaluateExpression(expression)).toThrow(InvalidArgumentError);
    expect(() => evaluateExpression(expression)).toThrow(message);
  });

  it("leaves jsep's global operator table as it was", () => {
    const before = {
      caret: jsep.binary_ops["^"],
      power: jsep.binary_ops["**"],
      right: jsep.right_associative.has("^"),
    };
    evaluateExpression("2 ^ 3");
    expect(() => evaluateExpression("2 ^")).toThrow();
    expect({
      caret: jsep.binary_ops["^"],
      power: jsep.binary_ops["**"],
      right: jsep.right_associative.has("^"),
    }).toEqual(before);
  });
});

describe("calculator tool", () => {
  const registry = new ToolRegistry({ tools: [calculator] });

  it("has a described schema", () => {
    expect(calculator.spec.parameters).toMatchObject({
      type: "object",
      properties: { expression: { type: "string", maxLength: 1000, description: expect.any(String) } },
      required: ["expression"],
    });
  });

  it("returns the number, and a refusal as a tool error the model can read", async () => {
    const [ok, refused] = await executeToolCalls({
      calls: [
        { id: "1", name: "calculator", arguments: { expression: "(2 + 3) * 4" }, rawArguments: "" },
        { id: "2", name: "calculator", arguments: { expression: "constructor" }, rawArguments: "" },
      ],
      registry,
      turn: 1,
    });
    expect(ok).toMatchObject({ ok: true, content: "20", value: 20 });
    expect(refused?.ok).toBe(false);
    expect(refused?.content).toMatch(
      /^Tool "calculator" failed: InvalidArgumentError: Invalid expression: unknown name/,
    );
  });
});
