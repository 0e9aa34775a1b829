import { describe, expect, it } from "vitest";
import { AbortError } from "../errors/abort-error.js";
import { ThrownValueError } from "../errors/thrown-value-error.js";
import type { Guardrail, GuardrailVerdict } from "./guardrail.js";
import { runGuardrails } from "./run-guardrails.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const settlesAfter = (ms: number, verdict: GuardrailVerdict, name: string): Guardrail<string> => ({
  name,
  check: async () => {
    await sleep(ms);
    return verdict;
  },
});

describe("runGuardrails", () => {
  const signal = new AbortController().signal;

  it("runs them all at once and returns the first block in list order", async () => {
    const t0 = performance.now();
    const block = await runGuardrails({
      guardrails: [
        settlesAfter(100, { block: false }, "a"),
        settlesAfter(90, { block: true, reason: "b says no" }, "b"),
        settlesAfter(20, { block: true, reason: "c says no" }, "c"),
      ],
      check: "x",
      signal,
    });
    expect(block).toEqual({ name: "b", reason: "b says no" });
    expect(performance.now() - t0).toBeLessThan(180); // not 210: concurrent
  });

  it("resolves undefined when all pass (and with no guardrails)", async () => {
    await expect(
      runGuardrails({ guardrails: [settlesAfter(1, { block: false }, "a")], check: "x", signal }),
    ).resolves.toBeUndefined();
    await expect(runGuardrails({ guardrails: [], check: "x", signal })).resolves.toBeUndefined();
  });

  it("passes the check to each guardrail and keeps `this`", async () => {
    class Words implements Guardrail<string> {
      name = "words";
      banned = "boom";
      check(text: string): GuardrailVerdict {
        return text.includes(this.banned) ? { block: true, reason: "banned word" } : { block: false };
      }
    }
    const words = new Words();
    await expect(runGuardrails({ guardrails: [words], check: "a boom", signal })).resolves.toMatchObject({
      reason: "banned word",
    });
  });

  it("a rejection, a sync throw or a bad verdict blocks, with the failure kept", async () => {
    const block = await runGuardrails({
      guardrails: [
        { name: "rejects", check: () => Promise.reject(42n) },
        {
          name: "throws",
          check: () => {
            throw new RangeError("bad");
          },
        },
        { name: "bad", check: () => ({ block: "yes" }) as unknown as GuardrailVerdict },
      ],
      check: "x",
      signal,
    });
    expect(block?.name).toBe("rejects");
    expect(block?.reason).toMatch(/^the guardrail failed \(ThrownValueError: /);
    expect(ThrownValueError.isInstance(block?.failure)).toBe(true);
  });

  it("a block without a reason gets one", async () => {
    const block = await runGuardrails({
      guardrails: [{ name: "terse", check: () => ({ block: true }) as unknown as GuardrailVerdict }],
      check: "x",
      signal,
    });
    expect(block).toEqual({ name: "terse", reason: "(no reason given)" });
  });

  it("rejects with an AbortError when the signal aborts first (or was aborted)", async () => {
    const controller = new AbortController();
    const pending = runGuardrails({
      guardrails: [{ name: "hang", check: () => new Promise<GuardrailVerdict>(() => {}) }],
      check: "x",
      signal: controller.signal,
    });
    controller.abort("stop");
    await expect(pending).rejects.toSatisfy((error) => AbortError.isInstance(error));
    await expect(
      runGuardrails({
        guardrails: [settlesAfter(1, { block: false }, "a")],
        check: "x",
        signal: controller.signal,
      }),
    ).rejects.toSatisfy((error) => AbortError.isInstance(error));
  });
});
