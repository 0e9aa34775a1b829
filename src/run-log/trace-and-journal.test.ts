import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import type { Message } from "../models/message.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStep } from "../testing/scripted-step.js";
import { type Tool, tool } from "../tools/tool.js";
import { replay } from "../trace/replay.js";
import { replayToolResult } from "./replay-tool-result.js";

const INPUT = "Look up a widget, then try the broken tools.";
const SYSTEM = "Be brief.";

const STEPS: ScriptedStep[] = [
  { text: "Looking.", toolCalls: [{ id: "c1", name: "lookup", arguments: { item: "widget" } }] },
  {
    toolCalls: [
      { id: "c2", name: "broken", arguments: { how: "throw" } },
      { id: "c3", name: "broken", arguments: { how: "bigint" } },
    ],
  },
  { text: "The widget costs 5; the broken tool failed twice." },
];

/** The run's tools, counting their executions. */
function tools(): { list: Tool[]; executions: () => number } {
  let count = 0;
  const lookup = tool({
    name: "lookup",
    description: "Current price of an item",
    parameters: z.object({ item: z.string() }),
    execute: ({ item }) => {
      count++;
      return { item, price: 5 };
    },
  });
  const broken = tool({
    name: "broken",
    description: "Fails",
    parameters: z.object({ how: z.string() }),
    execute: ({ how }) => {
      count++;
      if (how === "throw") throw new RangeError("out of widgets");
      return { n: 1n };
    },
  });
  return { list: [lookup, broken], executions: () => count };
}

const toolContents = (messages: readonly Message[]) =>
  messages.flatMap((m) => (m.role === "tool" ? [m.content] : []));

describe("one replay path: a run recorded with trace: true and runId", () => {
  it("the trace's replay and the journal's resume reproduce the same final messages", async () => {
    const journal = new MemoryJournal();
    const recorded = tools();
    const agent = new Agent({
      model: new ScriptedModel(STEPS),
      tools: recorded.list,
      system: SYSTEM,
      journal,
    });
    const original = await agent.run(INPUT, { runId: "both", trace: true });
    expect(original.stopReason).toBe("completed");
    expect(toolContents(original.messages)).toEqual([
      '{"item":"widget","price":5}',
      'Tool "broken" failed: RangeError: out of widgets',
      expect.stringMatching(/^Tool "broken" returned a value that cannot be sent as JSON: TypeError: /),
    ]);
    const trace = original.trace;
    if (trace === undefined) throw new Error("no trace");

    // Offline: the trace replayed by an agent whose model and tools are never called.
    const offline = tools();
    const silent = new ScriptedModel([]);
    const traced = await replay(trace, {
      agent: new Agent({ model: silent, tools: offline.list, system: SYSTEM }),
    });
    expect(traced.divergence).toBeNull();

    // Crash recovery: the journal without its end record, resumed by a new process.
    const records = (await journal.load("both")) ?? [];
    expect(records.at(-1)?.kind).toBe("end");
    const torn = new MemoryJournal();
    await torn.append("both", records.slice(0, -1));
    const recovering = tools();
    const resumedModel = new ScriptedModel([]);
    const resumed = await new Agent({
      model: resumedModel,
      tools: recovering.list,
      system: SYSTEM,
      journal: torn,
    }).run(INPUT, { runId: "both" });

    expect(traced.result.messages).toEqual(original.messages);
    expect(resumed.messages).toEqual(original.messages);
    expect(resumed.messages).toEqual(traced.result.messages);
    expect(resumed.text).toBe(traced.result.text);
    expect([silent.calls.length, resumedModel.calls.length]).toEqual([0, 0]);
    expect([offline.executions(), recovering.executions()]).toEqual([0, 0]);
  });
});

describe("replayToolResult", () => {
  it("returns the content, throws the recorded error, or gives a value that fails to serialise alike", () => {
    expect(replayToolResult({ recorded: { ok: true, content: "42" } })).toBe("42");
    const threw = { how: "threw", type: "RangeError", message: "out" } as const;
    expect(() => replayToolResult({ recorded: { ok: false, content: "x", failure: threw } })).toThrow(
      expect.objectContaining({ name: "RangeError", message: "out" }),
    );
    const bad = { how: "unserialisable", type: "TypeError", message: "no BigInt" } as const;
    const value = replayToolResult({ recorded: { ok: false, content: "x", failure: bad } });
    expect(() => JSON.stringify(value)).toThrow(
      expect.objectContaining({ name: "TypeError", message: "no BigInt" }),
    );
    expect(() => replayToolResult({ recorded: { ok: false, content: "plain text" } })).toThrow("plain text");
  });

  it("a timeout is thrown at once, or waited out until the call's signal aborts", async () => {
    const timedOut = {
      ok: false,
      content: 'Tool "t" timed out after 5 ms',
      failure: { how: "timed_out", type: "ToolTimeoutError", message: 'Tool "t" timed out after 5 ms' },
    } as const;
    expect(() => replayToolResult({ recorded: timedOut })).toThrow(
      expect.objectContaining({ name: "ToolTimeoutError" }),
    );
    const controller = new AbortController();
    let settled = false;
    const waiting = Promise.resolve(
      replayToolResult({ recorded: timedOut, waitOutTimeout: controller.signal }),
    );
    void waiting.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    controller.abort();
    await waiting;
    expect(settled).toBe(true);
  });
});
