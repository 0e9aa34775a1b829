import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { MemoryJournal } from "./memory-journal.js";

describe("Agent durable runs (runId + journal)", () => {
  it("journals a run, returns a finished run from the journal, and resumes an interrupted one", async () => {
    const journal = new MemoryJournal();
    let charges = 0;
    let crash = true;
    const charge = tool({
      name: "charge",
      description: "charges a card",
      parameters: z.object({ cents: z.number() }),
      execute: ({ cents }, ctx) => {
        if (crash) throw Object.assign(new Error("process died"), { name: "Crash" });
        charges++;
        return `charged ${cents} (key ${ctx.idempotencyKey})`;
      },
    });
    const script = () => [
      { toolCalls: [{ id: "c1", name: "charge", arguments: { cents: 500 } }] },
      { text: "Charged." },
    ];
    // Attempt 1: the run is cut off while the tool runs (as a crash would), leaving the journal partial.
    const controller = new AbortController();
    const crashing = tool({
      name: "charge",
      description: "charges a card",
      parameters: z.object({ cents: z.number() }),
      execute: () => {
        controller.abort(new Error("crash")); // the process "dies" while the tool runs
        return new Promise<string>(() => undefined);
      },
    });
    const first = new ScriptedModel(script());
    const interrupted = await new Agent({ model: first, tools: [crashing], journal }).run("Charge $5", {
      runId: "order-1",
      signal: controller.signal,
    });
    expect(interrupted.stopReason).toBe("aborted");
    expect(first.calls).toHaveLength(1);

    // Attempt 2 (a new process, in effect): the recorded model response is not requested again.
    crash = false;
    const second = new ScriptedModel(script().slice(1));
    const agent = new Agent({ model: second, tools: [charge], journal });
    const done = await agent.resume({ runId: "order-1" });
    expect(done.stopReason).toBe("completed");
    expect(done.text).toBe("Charged.");
    expect(second.calls).toHaveLength(1);
    // The tool had started without a result and is not idempotent: not re-executed, the model was told.
    expect(charges).toBe(0);
    expect(second.calls[0]?.request.messages.at(-1)?.content).toMatch(/unknown/i);

    // Finished: answered from the journal, no model call.
    const again = await agent.run("Charge $5", { runId: "order-1" });
    expect(again.text).toBe("Charged.");
    expect(second.calls).toHaveLength(1);
  });

  it("resume takes a run id as a string, and refuses what is not a paused run clearly", async () => {
    const journal = new MemoryJournal();
    const model = new ScriptedModel([{ text: "Done." }]);
    const agent = new Agent({ model, journal });
    await agent.run("Do it", { runId: "job-7" });
    const resumed = await agent.resume("job-7");
    expect(resumed.stopReason).toBe("completed");
    expect(resumed.text).toBe("Done.");
    expect(model.calls).toHaveLength(1); // answered from the journal
    for (const bad of [null, 42, undefined]) {
      await expect(agent.resume(bad as never)).rejects.toThrow(/expected a paused result/);
    }
  });

  it("needs a journal", async () => {
    await expect(new Agent({ model: new ScriptedModel([]) }).run("x", { runId: "r" })).rejects.toThrow(
      /journal/,
    );
  });
});
