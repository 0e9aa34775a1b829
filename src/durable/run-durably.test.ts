import { describe, expect, it } from "vitest";
import type { JournalRecord } from "./journal-record.js";
import { OUTCOME_UNKNOWN_MESSAGE } from "./journaled-tools.js";
import { MemoryJournal } from "./memory-journal.js";
import { runDurably } from "./run-durably.js";
import {
  agentWith,
  CRASH_STEP,
  crashWhileRunning,
  harness,
  INPUT,
  PRIOR,
  reference,
  STEPS,
} from "./test-utils/durable-harness.js";

const kinds = (records: JournalRecord[] | undefined) => (records ?? []).map((record) => record.kind);

describe("runDurably: a fresh run", () => {
  it("journals start, each response and tool call, and the end; the result equals a plain run", async () => {
    const journal = new MemoryJournal();
    const tools = harness();
    const { agent, model } = agentWith({ steps: STEPS, tools: tools.tools });
    const summary = await runDurably({ agent, journal, runId: "r1", input: INPUT, messages: PRIOR });
    expect(kinds(await journal.load("r1"))).toEqual([
      "start",
      "model_response",
      "tool_start",
      "tool_result",
      "model_response",
      "tool_start",
      "tool_result",
      "model_response",
      "end",
    ]);
    expect(model.calls).toHaveLength(3);
    expect(tools.keys).toEqual({ lookup: ["r1:c1"], charge: ["r1:c2"] });

    const plain = await agentWith({ steps: STEPS, tools: harness().tools }).agent.run(INPUT, {
      messages: PRIOR,
    });
    expect(summary).toMatchObject({
      runId: "r1",
      text: plain.text,
      stopReason: "completed",
      turns: 3,
      usage: plain.usage,
      messages: plain.messages,
    });
    expect(summary.toolCalls.map(({ id, ok, result }) => [id, ok, result])).toEqual(
      plain.toolCalls.map(({ id, ok, result }) => [id, ok, result]),
    );
    const end = (await journal.load("r1"))!.at(-1);
    expect(end?.kind === "end" && end.result).toEqual(summary);
  });

  it("journals each step before the loop acts on it", async () => {
    const journal = new MemoryJournal();
    const seen: string[][] = [];
    const tools = harness({
      lookup: async (ctx) => {
        const records = (await journal.load("before"))!;
        seen.push(kinds(records));
        expect(records.at(-1)).toEqual({
          v: 1,
          kind: "tool_start",
          toolCallId: "c1",
          toolName: "lookup",
          idempotencyKey: ctx.idempotencyKey,
        });
        return "price 5";
      },
    });
    const { agent } = agentWith({ steps: STEPS, tools: tools.tools });
    await runDurably({ agent, journal, runId: "before", input: INPUT });
    expect(seen).toEqual([["start", "model_response", "tool_start"]]);
  });

  it("returns the stored summary of a finished run without calling the model or tools again", async () => {
    const journal = new MemoryJournal();
    const first = agentWith({ steps: STEPS, tools: harness().tools });
    const summary = await runDurably({ agent: first.agent, journal, runId: "done", input: INPUT });
    const tools = harness();
    const again = agentWith({ steps: [], tools: tools.tools });
    expect(await runDurably({ agent: again.agent, journal, runId: "done", input: INPUT })).toEqual(summary);
    expect(await runDurably({ agent: again.agent, journal, runId: "done" })).toEqual(summary);
    expect(again.model.calls).toHaveLength(0);
    expect(tools.executions).toEqual({ lookup: 0, charge: 0 });
    await journal.compact("done");
    expect(await runDurably({ agent: again.agent, journal, runId: "done" })).toEqual(summary);
  });
});

describe("runDurably: resuming after a crash", () => {
  it("a crash in a model call: recorded responses are not requested, finished tools not re-run", async () => {
    const ref = await reference();
    const journal = new MemoryJournal();
    const crashed = agentWith({ steps: [STEPS[0]!, STEPS[1]!, CRASH_STEP], tools: harness().tools });
    const partial = await runDurably({
      agent: crashed.agent,
      journal,
      runId: "m",
      input: INPUT,
      messages: PRIOR,
    });
    expect(partial.stopReason).toBe("error");
    expect(partial.error?.message).toBe("simulated crash");
    expect(kinds(await journal.load("m"))).not.toContain("end");

    // A fresh process: a new agent whose model holds only the remaining answer.
    const tools = harness();
    const resumed = agentWith({ steps: [STEPS[2]!], tools: tools.tools });
    const summary = await runDurably({ agent: resumed.agent, journal, runId: "m" });
    expect(resumed.model.calls).toHaveLength(1);
    expect(resumed.model.calls[0]?.request.messages).toEqual(ref.model.calls[2]?.request.messages);
    expect(tools.executions).toEqual({ lookup: 0, charge: 0 });
    expect(summary.text).toBe(ref.summary.text);
    expect(summary.messages).toEqual(ref.summary.messages);
    expect(summary.turns).toBe(3);
    expect(summary.usage).toEqual(ref.summary.usage);
    expect(kinds(await journal.load("m")).at(-1)).toBe("end");
  });

  it("an idempotent tool interrupted while it ran is executed again with the same idempotency key", async () => {
    const ref = await reference();
    const journal = new MemoryJournal();
    const controller = new AbortController();
    const first = harness({ lookup: crashWhileRunning(controller) });
    const crashed = agentWith({ steps: STEPS, tools: first.tools });
    const partial = await runDurably({
      agent: crashed.agent,
      journal,
      runId: "idem",
      input: INPUT,
      messages: PRIOR,
      signal: controller.signal,
    });
    expect(partial.stopReason).toBe("aborted");
    expect(kinds(await journal.load("idem"))).toEqual(["start", "model_response", "tool_start"]);

    const tools = harness();
    const resumed = agentWith({ steps: STEPS.slice(1), tools: tools.tools });
    const summary = await runDurably({ agent: resumed.agent, journal, runId: "idem", input: INPUT });
    expect(resumed.model.calls).toHaveLength(2);
    expect(tools.executions).toEqual({ lookup: 1, charge: 1 });
    expect(tools.keys.lookup).toEqual(first.keys.lookup);
    expect(tools.keys.lookup).toEqual(["idem:c1"]);
    expect(summary.text).toBe(ref.summary.text);
    expect(summary.messages).toEqual(ref.summary.messages);
    expect(kinds(await journal.load("idem"))).toEqual([
      "start",
      "model_response",
      "tool_start",
      "tool_result", // no second tool_start: the journaled one stands
      "model_response",
      "tool_start",
      "tool_result",
      "model_response",
      "end",
    ]);
  });

  it("a non-idempotent tool interrupted while it ran is not executed again: the model is told", async () => {
    const ref = await reference();
    const journal = new MemoryJournal();
    const controller = new AbortController();
    const first = harness({ charge: crashWhileRunning(controller) });
    const crashed = agentWith({ steps: STEPS, tools: first.tools });
    const partial = await runDurably({
      agent: crashed.agent,
      journal,
      runId: "once",
      input: INPUT,
      messages: PRIOR,
      signal: controller.signal,
    });
    expect(partial.stopReason).toBe("aborted");
    expect(first.executions).toEqual({ lookup: 1, charge: 1 });

    const tools = harness();
    const resumed = agentWith({ steps: [STEPS[2]!], tools: tools.tools });
    const summary = await runDurably({ agent: resumed.agent, journal, runId: "once" });
    expect(tools.executions).toEqual({ lookup: 0, charge: 0 });
    expect(resumed.model.calls).toHaveLength(1);
    const told = resumed.model.calls[0]!.request.messages.at(-1);
    expect(told).toMatchObject({ role: "tool", toolCallId: "c2", isError: true });
    expect(told?.content).toBe(`Tool "charge" failed: ToolOutcomeUnknownError: ${OUTCOME_UNKNOWN_MESSAGE}`);
    expect(summary.text).toBe(ref.summary.text);
    expect(summary.toolCalls.find((call) => call.id === "c2")?.ok).toBe(false);

    // What the model was told is journaled: resumed again (end removed), it is told the same.
    const records = (await journal.load("once"))!;
    const replay = new MemoryJournal();
    await replay.append("once", records.slice(0, -2)); // drop the final response and the end
    const again = agentWith({ steps: [STEPS[2]!], tools: harness().tools });
    await runDurably({ agent: again.agent, journal: replay, runId: "once" });
    expect(again.model.calls[0]!.request.messages).toEqual(resumed.model.calls[0]!.request.messages);
  });
});
