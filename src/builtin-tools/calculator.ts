import { type Tool, tool } from "../tools/tool.js";
import { evaluateExpression, MAX_EXPRESSION_LENGTH } from "./evaluate-expression.js";

function createCalculator(): Tool<{ expression: string }, number> {
  return tool<{ expression: string }, number>({
    name: "calculator",
    description:
      "Evaluates an arithmetic expression and returns the number. Supports + - * / %, ** and ^ (power), " +
      "parentheses, unary minus (binds tighter than power: write -(2^2) for -4), the constants pi and e, and " +
      "sqrt, abs, round, floor, ceil, min, max, pow, log (natural), exp, sin, cos, tan (radians).",
    // Plain JSON Schema, so the built-in tools load without zod.
    parameters: {
      type: "object",
      properties: {
        expression: {
          type: "string",
          maxLength: MAX_EXPRESSION_LENGTH,
          description: "The expression, e.g. (2 + 3) * sqrt(16) / 2^3",
        },
      },
      required: ["expression"],
      additionalProperties: false,
    },
    idempotent: true,
    execute: ({ expression }) => evaluateExpression(expression),
  });
}

/**
 * A built-in tool that evaluates arithmetic safely (no `eval`; see {@link evaluateExpression}). Its result is
 * the number; an invalid or refused expression is reported to the model as a tool error.
 */
export const calculator: Tool<{ expression: string }, number> = /* @__PURE__ */ createCalculator();
