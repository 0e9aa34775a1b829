import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { GuardrailCheck } from "./guardrail.js";
import { maxLengthGuardrail } from "./max-length-guardrail.js";

const signal = new AbortController().signal;
const input = (text: string): GuardrailCheck => ({ kind: "input", input: text, messages: [], signal });

describe("maxLengthGuardrail", () => {
  it("passes text up to maxChars and blocks longer text, saying how long it was", () => {
    const guardrail = maxLengthGuardrail({ maxChars: 10 });
    expect(guardrail.name).toBe("max_length");
    expect(guardrail.check(input("0123456789"))).toEqual({ block: false });
    expect(guardrail.check(input("0123456789x"))).toEqual({
      block: true,
      reason: "the input has 11 characters, more than the 10 allowed",
    });
  });

  it("counts the text parts of a message, not its images", () => {
    const guardrail = maxLengthGuardrail({ maxChars: 5 });
    const check: GuardrailCheck = {
      kind: "input",
      input: [
        { type: "text", text: "hi" },
        { type: "image", url: "https://example.com/a-very-long-image-url.png" },
      ],
      messages: [],
      signal,
    };
    expect(guardrail.check(check)).toEqual({ block: false });
  });

  it("refuses a maxChars that is not a non-negative integer", () => {
    for (const maxChars of [-1, 1.5, Number.NaN, "10"]) {
      expect(() => maxLengthGuardrail({ maxChars: maxChars as number })).toThrow(InvalidArgumentError);
    }
  });

  it("stops an oversized input before it costs a model call, and an answer that ran long", async () => {
    const model = new ScriptedModel([{ text: "x".repeat(500) }]);
    const agent = new Agent({
      model,
      guardrails: {
        input: [maxLengthGuardrail({ maxChars: 100 })],
        output: [maxLengthGuardrail({ maxChars: 200 })],
      },
    });
    const tooLong = await agent.run("y".repeat(101));
    expect(tooLong.stopReason).toBe("guardrail");
    expect(model.calls).toHaveLength(0);
    const ranLong = await agent.run("short");
    expect(ranLong.stopReason).toBe("guardrail");
    expect(ranLong.error).toMatchObject({
      kind: "output",
      reason: "the answer has 500 characters, more than the 200 allowed",
    });
    expect(ranLong.text).toBe("");
  });
});
