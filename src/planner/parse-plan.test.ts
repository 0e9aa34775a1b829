import { describe, expect, it } from "vitest";
import { parsePlan } from "./parse-plan.js";

const calc = { type: "tool", name: "calculator", arguments: { expression: "40+7" } } as const;

describe("parsePlan", () => {
  it("reads a bare JSON array", () => {
    expect(parsePlan(JSON.stringify([calc, { type: "reply", text: "done" }]))).toEqual({
      ok: true,
      steps: [calc, { type: "reply", text: "done" }],
    });
  });

  it("reads a fenced plan", () => {
    const text = `Here is the plan:\n\`\`\`json\n${JSON.stringify([calc], null, 2)}\n\`\`\`\nGood luck.`;
    expect(parsePlan(text)).toEqual({ ok: true, steps: [calc] });
    expect(parsePlan(`\`\`\`\n${JSON.stringify([calc])}\n\`\`\``)).toEqual({ ok: true, steps: [calc] });
  });

  it("reads a plan wrapped in prose, skipping bracketed text that is not JSON", () => {
    const text = `Sure [as requested]! The steps: ${JSON.stringify([calc])} — that should do it.`;
    expect(parsePlan(text)).toEqual({ ok: true, steps: [calc] });
  });

  it("keeps brackets inside strings", () => {
    const step = { type: "reply", text: 'use [brackets] and {braces} and "quotes"' };
    expect(parsePlan(`Plan: ${JSON.stringify([step])}`)).toEqual({ ok: true, steps: [step] });
  });

  it("reads a single step object and { steps: [...] }", () => {
    expect(parsePlan(JSON.stringify(calc))).toEqual({ ok: true, steps: [calc] });
    expect(parsePlan(`Result: ${JSON.stringify({ steps: [calc] })}`)).toEqual({ ok: true, steps: [calc] });
    expect(parsePlan(JSON.stringify({ plan: [calc] }))).toEqual({ ok: true, steps: [calc] });
  });

  it("forgives a missing type, tool/args aliases and string arguments", () => {
    expect(parsePlan('[{"tool": "calculator", "args": {"expression": "1+1"}}, {"text": "hi"}]')).toEqual({
      ok: true,
      steps: [
        { type: "tool", name: "calculator", arguments: { expression: "1+1" } },
        { type: "reply", text: "hi" },
      ],
    });
    expect(parsePlan('[{"type": "tool", "name": "clock"}]')).toEqual({
      ok: true,
      steps: [{ type: "tool", name: "clock", arguments: {} }],
    });
    expect(
      parsePlan('[{"type": "tool", "name": "calculator", "arguments": "{\\"expression\\": \\"2\\"}"}]'),
    ).toEqual({ ok: true, steps: [{ type: "tool", name: "calculator", arguments: { expression: "2" } }] });
  });

  it("accepts an empty plan", () => {
    expect(parsePlan("[]")).toEqual({ ok: true, steps: [] });
  });

  it("returns an error, never throws, for what is not a plan", () => {
    for (const text of [
      "",
      "   ",
      "The answer is 4.",
      "42",
      '{"answer": 4}',
      "[1, 2]",
      '[{"type": "jump"}]',
      "[{",
    ]) {
      const result = parsePlan(text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).not.toBe("");
    }
    expect(parsePlan('[{"type": "reply"}]')).toEqual({
      ok: false,
      error: 'step 1: a reply step needs a string "text"',
    });
    expect(parsePlan(undefined as unknown as string).ok).toBe(false);
  });
});
