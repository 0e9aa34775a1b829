import { describe, expect, it } from "vitest";
import { EmptyResponseError } from "../../errors/empty-response-error.js";
import type { ToolCall } from "../../models/message.js";
import type { ModelResponse } from "../../models/model.js";
import { ResponseChecks } from "./response-checks.js";

const response = (fields: Partial<ModelResponse>): ModelResponse => ({
  text: "",
  toolCalls: [],
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  finishReason: { unified: "stop", raw: "stop" },
  ...fields,
});
const checks = new ResponseChecks({ modelName: "scripted:m" });

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe("ResponseChecks", () => {
  it("keeps an answer, a tool call or a refusal as it is (the same object)", () => {
    for (const r of [
      response({ text: "hi" }),
      response({ refusal: "I can't" }),
      response({ toolCalls: [{ id: "a", name: "t", arguments: {}, rawArguments: "{}" }] }),
    ]) {
      expect(checks.accept(r)).toBe(r);
    }
  });

  it("throws EmptyResponseError (naming the model and finish reason) for no text, calls or refusal", () => {
    for (const r of [response({}), response({ text: " \n\t", refusal: "  " })]) {
      const error = (() => {
        try {
          checks.accept(r);
        } catch (e) {
          return e;
        }
      })();
      expect(EmptyResponseError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/scripted:m/);
    }
  });

  it("refuses arguments nested too deeply in a copy, leaving the other calls and the response untouched", () => {
    const deep: ToolCall = { id: "d", name: "t", arguments: nested(80), rawArguments: "" };
    const fine: ToolCall = { id: "f", name: "t", arguments: { v: 1 }, rawArguments: '{"v":1}' };
    const original = response({ toolCalls: [fine, deep] });
    const kept = checks.accept(original);
    expect(kept).not.toBe(original);
    expect(kept.toolCalls[0]).toBe(fine);
    expect(kept.toolCalls[1]).toMatchObject({
      id: "d",
      arguments: undefined,
      parseError: expect.stringMatching(/64/),
    });
    expect(original.toolCalls[1]).toBe(deep);
  });
});
