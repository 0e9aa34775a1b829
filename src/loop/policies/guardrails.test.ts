import { describe, expect, it } from "vitest";
import type { GuardrailsOptions } from "../../guardrails/guardrail.js";
import { createLoopState } from "../loop-state.js";
import { Guardrails } from "./guardrails.js";

const options = (guardrails: GuardrailsOptions) => ({
  state: createLoopState({ messages: [{ role: "user", content: "hi" }], resumed: false }),
  guardrails,
  signal: new AbortController().signal,
  abortRun: () => undefined,
  resumed: false,
  wrapUp: false,
  answerTool: undefined,
});
const pass = { name: "pass", check: () => ({ block: false }) as const };

describe("Guardrails (the loop policy)", () => {
  it("is not made for a run without guardrails (nothing is checked or allocated per turn)", () => {
    expect(Guardrails.of(options({}))).toBeUndefined();
    expect(Guardrails.of(options({ input: [], output: [], tool: [] }))).toBeUndefined();
    expect(Guardrails.of(options({ output: [pass] }))).toBeInstanceOf(Guardrails);
  });

  it("returns the turn's events untouched unless parallel input guardrails are pending", () => {
    const events = (async function* () {
      yield* [];
      return undefined;
    })();
    expect(Guardrails.of(options({ input: [pass] }))?.turn(events)).toBe(events);
    const parallel = Guardrails.of(options({ input: [{ ...pass, mode: "parallel" }] }));
    expect(parallel?.turn(events)).not.toBe(events);
    expect(parallel?.turn(events)).toBe(events); // only the first turn
  });

  it("makes the tool part only with tool guardrails, per phase", () => {
    expect(Guardrails.of(options({ output: [pass] }))?.tools).toBeUndefined();
    const tools = Guardrails.of(options({ tool: [{ ...pass, phase: "result" }] }))?.tools;
    expect([tools?.checksCalls, tools?.checksResults]).toEqual([false, true]);
  });
});
