import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { BudgetReservation } from "../cost/budget.js";
import type { CostMeterEntry } from "../cost/cost-meter.js";
import { EmptyResponseError } from "../errors/empty-response-error.js";
import { ModelCallError } from "../errors/model-call-error.js";
import { DEFAULT_RETRY_POLICY } from "../http/retry-policy.js";
import type { ModelResponse } from "../models/model.js";
import { ScriptedModel, type ScriptedSteps } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import type { AgentEvent } from "./agent-event.js";
import { createEvent } from "./create-event.js";
import { createLoopState } from "./loop-state.js";
import { ModelTurn, type ModelTurnOptions } from "./model-turn.js";
import { ResponseChecks } from "./policies/response-checks.js";

const echo = tool({
  name: "echo",
  description: "echoes",
  parameters: z.object({ v: z.number() }),
  execute: () => "",
});
const tooLong = () =>
  new ModelCallError({ message: "maximum context length exceeded", status: 400, isRetryable: false });
const reservation = { id: "r1" } as unknown as BudgetReservation;

/** A model turn over a scripted model; every seam is a recording fake that fails when it should not be used. */
function setup(steps: ScriptedSteps, seams: Partial<ModelTurnOptions> = {}) {
  const log: string[] = [];
  const state = createLoopState({ messages: [{ role: "user", content: "go" }], resumed: false });
  const model = new ScriptedModel(steps);
  const options: ModelTurnOptions = {
    state,
    model,
    modelName: "scripted:scripted",
    tools: new ToolRegistry({ tools: [echo] }),
    signal: new AbortController().signal,
    stream: false,
    retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 },
    parallelToolCalls: true,
    context: {
      prepare: () => {
        throw new Error("prepare called without a context option");
      },
      measure: () => {
        throw new Error("measure called without a cost cap");
      },
      recover: async function* () {
        log.push("recover");
        yield createEvent("compaction", 1, {
          removedMessages: 1,
          truncatedToolResults: 0,
          tokensBefore: 10,
          tokensAfter: 5,
          strategy: "sliding_window",
          reason: "context_length_exceeded",
        });
        return true;
      },
      calibrate: (tokens) => void log.push(`calibrate ${tokens}`),
    },
    compactBeforeCalls: false,
    cost: {
      active: false,
      admit: async () => {
        throw new Error("admit called without a cost cap");
      },
      price: (): CostMeterEntry => ({ costUsd: 0.5, priced: true, pricedAs: "m", firstUnpriced: false }),
      settle: async (r, usd) => void log.push(`settle ${r === undefined ? "-" : "r1"} ${usd}`),
    },
    checkpoint: { compacted: async () => void log.push("compacted") },
    checks: new ResponseChecks({ modelName: "scripted:scripted" }),
    ...seams,
  };
  return { state, model, turn: new ModelTurn(options), options, log };
}

async function run(gen: AsyncGenerator<AgentEvent, ModelResponse | undefined>) {
  const events: AgentEvent[] = [];
  for (;;) {
    const next = await gen.next();
    if (next.done) return { events, response: next.value };
    events.push(next.value);
  }
}

describe("ModelTurn", () => {
  it("calls the model with the run's own messages and tools, then counts, reports and appends the answer", async () => {
    const { state, model, turn, log } = setup([
      { text: "hello", usage: { inputTokens: 7, outputTokens: 3 } },
    ]);
    const { events, response } = await run(turn.run());
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]?.request).toMatchObject({ parallelToolCalls: true, tools: [{ name: "echo" }] });
    expect(response?.text).toBe("hello");
    expect(state).toMatchObject({ turns: 1, text: "hello", modelCalled: true });
    expect(state.usage).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
    expect(state.messages.at(-1)).toEqual({ role: "assistant", content: "hello" });
    expect(events.map((e) => e.type)).toEqual(["turn_start", "model_call"]);
    expect(events[0]).toMatchObject({ type: "turn_start", turn: 1, data: { model: "scripted:scripted" } });
    expect(events[1]).toMatchObject({
      turn: 1,
      data: { model: "scripted:scripted", costUsd: 0.5, priced: true },
    });
    expect(log).toEqual(["calibrate 7"]); // no compaction, no budget: nothing else touched
  });

  it("passes request overrides (the wrap-up's toolChoice) to the call", async () => {
    const { model, turn } = setup([{ text: "ok" }]);
    await run(turn.run({ toolChoice: "none" }));
    expect(model.calls[0]?.request.toolChoice).toBe("none");
  });

  it("with a context option: compacts before the call and persists the compacted history through the checkpoint", async () => {
    const { model, turn, log } = setup([{ text: "ok" }], {
      compactBeforeCalls: true,
      context: {
        prepare: async function* (args) {
          log.push(`prepare turn ${args.turn}`);
          args.messages.unshift({ role: "user", content: "summary" });
          yield createEvent("compaction", args.turn, {
            removedMessages: 0,
            truncatedToolResults: 0,
            tokensBefore: 9,
            tokensAfter: 9,
            strategy: "sliding_window",
            reason: "threshold",
          });
          return true;
        },
        recover: async function* () {
          yield* [];
          return false;
        },
        measure: async () => 0,
        calibrate: () => {},
      },
    });
    const { events } = await run(turn.run());
    expect(log).toEqual(["prepare turn 1", "compacted"]);
    expect(events.map((e) => e.type)).toEqual(["turn_start", "compaction", "model_call"]);
    expect(model.calls[0]?.request.messages[0]).toEqual({ role: "user", content: "summary" });
  });

  it("with a cost cap: a refused call is not made (undefined, no turn counted)", async () => {
    const { state, model, turn } = setup([{ text: "ok" }], {
      cost: { active: true, admit: async () => false, price: () => assertNever(), settle: async () => {} },
      context: { ...setup([]).options.context, measure: async () => 123 },
    });
    const { response, events } = await run(turn.run());
    expect(response).toBeUndefined();
    // The turn started (turn_start), but its call was refused: nothing else happened.
    expect(events.map((e) => e.type)).toEqual(["turn_start"]);
    expect(model.calls).toHaveLength(0);
    expect(state.turns).toBe(0);
  });

  it("with a budget: settles the reservation with the actual cost, or with 0 when the call failed", async () => {
    const admitted = (log: string[]) => ({
      active: true,
      admit: async ({ inputTokens }: { inputTokens: number }) => {
        log.push(`admit ${inputTokens}`);
        return reservation;
      },
      price: (): CostMeterEntry => ({ costUsd: 0.25, priced: true, pricedAs: "m", firstUnpriced: false }),
      settle: async (_r: BudgetReservation | undefined, usd: number) => void log.push(`settle ${usd}`),
    });
    const measured = { ...setup([]).options.context, measure: async () => 42 };
    const ok = setup([{ text: "ok" }]);
    const okTurn = new ModelTurn({ ...ok.options, cost: admitted(ok.log), context: measured });
    await run(okTurn.run());
    expect(ok.log).toEqual(["admit 42", "settle 0.25"]);

    const failing = setup([
      { error: new ModelCallError({ message: "bad", status: 400, isRetryable: false }) },
    ]);
    const failTurn = new ModelTurn({ ...failing.options, cost: admitted(failing.log), context: measured });
    await expect(run(failTurn.run())).rejects.toThrow("bad");
    expect(failing.log).toEqual(["admit 42", "settle 0"]);
  });

  it("after a context-length error: compacts harder, persists, and retries the call once", async () => {
    const { model, turn, log } = setup([{ error: tooLong() }, { text: "fits now" }]);
    const { events, response } = await run(turn.run());
    expect(response?.text).toBe("fits now");
    expect(model.calls).toHaveLength(2);
    expect(log.slice(0, 2)).toEqual(["recover", "compacted"]);
    expect(events.map((e) => e.type)).toEqual(["turn_start", "compaction", "model_call"]);

    const twice = setup([{ error: tooLong() }, { error: tooLong() }, { text: "never" }]);
    await expect(run(twice.turn.run())).rejects.toThrow(/maximum context length/);
    expect(twice.model.calls).toHaveLength(2);
  });

  it("warns once about an unpriced model (a non-fatal error event after model_call)", async () => {
    const { turn } = setup([{ text: "ok" }], {
      cost: {
        active: false,
        admit: async () => undefined,
        price: () => ({ costUsd: 0, priced: false, pricedAs: "x", firstUnpriced: true }),
        settle: async () => {},
      },
    });
    const { events } = await run(turn.run());
    expect(events.map((e) => e.type)).toEqual(["turn_start", "model_call", "error"]);
    expect(events[2]).toMatchObject({ data: { name: "UnpricedModel", fatal: false } });
  });

  it("an empty response is counted but not appended: EmptyResponseError", async () => {
    const { state, turn } = setup([{ text: "" }]);
    const error = await run(turn.run()).catch((e: unknown) => e);
    expect(EmptyResponseError.isInstance(error)).toBe(true);
    expect(state.turns).toBe(1);
    expect(state.messages).toHaveLength(1);
  });
});

function assertNever(): never {
  throw new Error("must not be called");
}
