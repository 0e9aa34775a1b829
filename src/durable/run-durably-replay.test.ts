import { describe, expect, it } from "vitest";
import type { JournalRecord } from "./journal-record.js";
import { MemoryJournal } from "./memory-journal.js";
import { runDurably } from "./run-durably.js";
import {
  agentWith,
  CRASH_STEP,
  harness,
  INPUT,
  PRIOR,
  reference,
  STEPS,
} from "./test-utils/durable-harness.js";

const kinds = (records: JournalRecord[] | undefined) => (records ?? []).map((record) => record.kind);

describe("runDurably: replaying what the journal holds", () => {
  it("replays a recorded tool failure, an unserialisable result and a timeout with the same text", async () => {
    const steps = [
      {
        toolCalls: [
          { id: "t1", name: "lookup", arguments: { item: "a" } },
          { id: "t2", name: "charge", arguments: { amount: 1 } },
        ],
      },
      { toolCalls: [{ id: "t3", name: "lookup", arguments: { item: "slow" } }] },
      { text: "Nothing worked." },
    ];
    let lookups = 0;
    const failing = harness({
      lookup: (ctx) => {
        lookups++;
        if (lookups === 1) throw new TypeError("no such item");
        return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("late")));
      },
      charge: () => ({ amount: 1n }),
    });
    const journal = new MemoryJournal();
    const options = { toolTimeoutMs: 50 };
    const crashed = agentWith({ steps: [steps[0]!, steps[1]!, CRASH_STEP], tools: failing.tools, options });
    const partial = await runDurably({ agent: crashed.agent, journal, runId: "fail", input: INPUT });
    expect(partial.stopReason).toBe("error");
    const told = crashed.model.calls[2]!.request.messages.filter((message) => message.role === "tool");
    expect(told.map((message) => message.content)).toEqual([
      'Tool "lookup" failed: TypeError: no such item',
      'Tool "charge" returned a value that cannot be sent as JSON: TypeError: Do not know how to serialize a BigInt',
      'Tool "lookup" timed out after 50 ms',
    ]);
    const results = (await journal.load("fail"))!.filter((record) => record.kind === "tool_result");
    expect(results.map((record) => record.failure?.how)).toEqual(["threw", "unserialisable", "timed_out"]);

    const tools = harness();
    const resumed = agentWith({ steps: [steps[2]!], tools: tools.tools, options });
    const summary = await runDurably({ agent: resumed.agent, journal, runId: "fail" });
    expect(tools.executions).toEqual({ lookup: 0, charge: 0 });
    const replayed = resumed.model.calls[0]!.request.messages.filter((message) => message.role === "tool");
    // Every failure reads the same, the timeout too (thrown as the executor's own, not waited out again).
    expect(replayed).toEqual(told);
    expect(summary.text).toBe("Nothing worked.");
  });

  it("resumes a streamed run: recorded responses are played as parts, the rest streamed", async () => {
    const ref = await reference(true);
    const journal = new MemoryJournal();
    const broken = { ...STEPS[1]!, error: new Error("simulated crash"), errorAfterParts: 1 };
    const crashed = agentWith({ steps: [STEPS[0]!, broken], tools: harness().tools });
    const partial = await runDurably({
      agent: crashed.agent,
      journal,
      runId: "s",
      input: INPUT,
      messages: PRIOR,
      stream: true,
    });
    expect(partial.stopReason).toBe("error");
    expect(kinds(await journal.load("s"))).toEqual(["start", "model_response", "tool_start", "tool_result"]);

    const deltas: string[] = [];
    const tools = harness();
    const resumed = agentWith({
      steps: STEPS.slice(1),
      tools: tools.tools,
      options: { onEvent: (event) => void (event.type === "text_delta" && deltas.push(event.data.delta)) },
    });
    const summary = await runDurably({ agent: resumed.agent, journal, runId: "s", stream: true });
    expect(resumed.model.calls.map((call) => call.mode)).toEqual(["stream", "stream"]);
    expect(tools.executions).toEqual({ lookup: 0, charge: 1 });
    expect(summary.messages).toEqual(ref.summary.messages);
    expect(deltas.join("")).toBe(`${STEPS[0]!.text}${STEPS[2]!.text}`);
  });

  it("resumes twice, with a provider that reuses tool call ids across turns", async () => {
    const journal = new MemoryJournal();
    // Default ScriptedModel ids are call_<call index>_<i>: a fresh model starts again at call_0_0.
    const steps = STEPS.map(({ toolCalls, ...step }) => ({
      ...step,
      ...(toolCalls && { toolCalls: toolCalls.map(({ id: _id, ...call }) => call) }),
    }));
    const first = agentWith({ steps: [steps[0]!, CRASH_STEP], tools: harness().tools });
    await runDurably({ agent: first.agent, journal, runId: "ids", input: INPUT });

    const second = harness();
    const resumed = agentWith({ steps: [steps[1]!, CRASH_STEP], tools: second.tools });
    expect((await runDurably({ agent: resumed.agent, journal, runId: "ids" })).stopReason).toBe("error");
    expect(second.executions).toEqual({ lookup: 0, charge: 1 });
    expect(second.keys.charge).toEqual(["ids:call_0_0:1"]); // the id's second use in this run

    const third = harness();
    const last = agentWith({ steps: [steps[2]!], tools: third.tools });
    const summary = await runDurably({ agent: last.agent, journal, runId: "ids" });
    expect(third.executions).toEqual({ lookup: 0, charge: 0 });
    expect(summary.stopReason).toBe("completed");
    expect(summary.toolCalls.map((call) => [call.id, call.ok])).toEqual([
      ["call_0_0", true],
      ["call_0_0", true],
    ]);
  });

  it("a crash just before the end record: the resumed run makes no call at all and ends the same", async () => {
    const journal = new MemoryJournal();
    const first = agentWith({ steps: STEPS, tools: harness().tools });
    const summary = await runDurably({
      agent: first.agent,
      journal,
      runId: "e",
      input: INPUT,
      messages: PRIOR,
    });
    const records = (await journal.load("e"))!;
    const torn = new MemoryJournal();
    await torn.append("e", records.slice(0, -1));
    const tools = harness();
    const resumed = agentWith({ steps: [], tools: tools.tools });
    const again = await runDurably({ agent: resumed.agent, journal: torn, runId: "e" });
    expect(resumed.model.calls).toHaveLength(0);
    expect(tools.executions).toEqual({ lookup: 0, charge: 0 });
    expect({ ...again, toolCalls: [] }).toEqual({ ...summary, toolCalls: [] });
    expect(again.toolCalls.map(({ id, ok, result }) => [id, ok, result])).toEqual(
      summary.toolCalls.map(({ id, ok, result }) => [id, ok, result]),
    );
    expect(kinds(await torn.load("e"))).toEqual(kinds(records));
  });
});
