import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { validateHistory } from "../context/validate-history.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { hasToolCall } from "./policies/stop-conditions.js";

const call = (name: string, id: string, args: unknown = {}) => ({
  toolCalls: [{ id, name, arguments: args }],
});

/** A `charge` tool that "crashes the process" (aborts the attempt) while `crash.now` is true. */
function chargeTool(controller: AbortController, crash: { now: boolean }, charged: string[]) {
  return tool({
    name: "charge",
    description: "charges",
    parameters: z.object({}),
    execute: (_args, ctx) => {
      if (!crash.now) {
        charged.push(ctx.toolCallId);
        return "charged";
      }
      controller.abort(new Error("crash"));
      return new Promise<string>(() => undefined);
    },
  });
}

const lookup = tool({
  name: "lookup",
  description: "looks up",
  parameters: z.object({}),
  execute: () => "5",
});

describe("step control in durable runs: decisions recomputed from the log", () => {
  it("prepareStep's model choice replays: journaled calls are not made again, live ones go to the chosen model", async () => {
    const journal = new MemoryJournal();
    const crash = { now: true };
    const charged: string[] = [];
    const controller = new AbortController();
    const turns: number[] = [];
    const agentFor = (cheap: ScriptedModel, strong: ScriptedModel) =>
      new Agent({
        model: cheap,
        tools: [lookup, chargeTool(controller, crash, charged)],
        journal,
        prepareStep: ({ turn }) => {
          turns.push(turn);
          return turn >= 2 ? { model: strong, tools: ["charge"] } : undefined;
        },
      });
    const cheap1 = new ScriptedModel([call("lookup", "l1")], { modelId: "cheap" });
    const strong1 = new ScriptedModel([call("charge", "c1")], { modelId: "strong" });
    const first = await agentFor(cheap1, strong1).run("Buy it", {
      runId: "buy-1",
      signal: controller.signal,
    });
    expect(first.stopReason).toBe("aborted");
    expect(strong1.calls[0]?.request.tools?.map((t) => t.name)).toEqual(["charge"]);
    const responses = (await journal.load("buy-1"))?.filter((r) => r.kind === "model_response") ?? [];
    expect(responses.map((r) => r.kind === "model_response" && r.model)).toEqual([
      "scripted:cheap",
      "scripted:strong",
    ]);

    crash.now = false;
    turns.length = 0;
    const cheap2 = new ScriptedModel([], { modelId: "cheap" });
    const strong2 = new ScriptedModel([{ text: "Bought." }], { modelId: "strong" });
    const done = await agentFor(cheap2, strong2).resume("buy-1");
    expect(done.stopReason).toBe("completed");
    expect(done.text).toBe("Bought.");
    expect(turns).toEqual([1, 2, 3]); // recomputed on replay, then the live turn
    expect(cheap2.calls).toHaveLength(0);
    expect(strong2.calls).toHaveLength(1); // only the live call
    expect(strong2.calls[0]?.request.tools?.map((t) => t.name)).toEqual(["charge"]);
    expect(done.events.flatMap((e) => (e.type === "model_call" ? [e.data.model] : []))).toEqual([
      "scripted:cheap",
      "scripted:strong",
      "scripted:strong",
    ]);
    expect(done.events.filter((e) => e.type === "turn_start").map((e) => e.replayed === true)).toEqual([
      true,
      true,
      false,
    ]);
    expect(charged).toEqual([]); // started before the crash, not idempotent: not run again
    expect(validateHistory(done.messages)).toEqual([]);
  });

  it("a run stopped by stopWhen is finished: answered again from its log, with the same stop reason", async () => {
    const journal = new MemoryJournal();
    const model = new ScriptedModel([{ text: "Submitting.", ...call("lookup", "l1") }]);
    const agent = new Agent({ model, tools: [lookup], journal, stopWhen: hasToolCall("lookup") });
    const result = await agent.run("go", { runId: "stop-1" });
    expect(result.stopReason).toBe("stop_condition");
    const records = (await journal.load("stop-1")) ?? [];
    expect(records.at(-1)).toMatchObject({ kind: "end", result: { stopReason: "stop_condition" } });

    const again = await agent.run("go", { runId: "stop-1" });
    expect(again.stopReason).toBe("stop_condition");
    expect(again.text).toBe("Submitting.");
    expect(again.toolCalls.map((c) => c.name)).toEqual(["lookup"]);
    expect(again.events.filter((e) => !e.replayed).map((e) => e.type)).toEqual(["loop_end"]);
    expect(model.calls).toHaveLength(1);
  });

  it("a terminal tool's answer is the finished run's text, replayed whole", async () => {
    const journal = new MemoryJournal();
    let executed = 0;
    const finish = tool({
      name: "finish",
      description: "answers",
      parameters: z.object({ answer: z.string() }),
      terminal: true,
      execute: ({ answer }) => {
        executed++;
        return answer;
      },
    });
    const model = new ScriptedModel([call("finish", "f1", { answer: "42" })]);
    const agent = new Agent({ model, tools: [finish], journal });
    const result = await agent.run("go", { runId: "t-1" });
    expect([result.stopReason, result.text]).toEqual(["completed", "42"]);
    const again = await agent.run("go", { runId: "t-1" });
    expect([again.stopReason, again.text]).toEqual(["completed", "42"]);
    expect(again.events.filter((e) => !e.replayed).map((e) => e.type)).toEqual(["loop_end"]);
    expect(executed).toBe(1);
  });
});
