import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { MemoryJournal } from "./memory-journal.js";

describe("a durable run streamed to a consumer that stops reading", () => {
  it("the abandoned attempt ends aborted, frees the run lock, and the run resumes without redoing its steps", async () => {
    const journal = new MemoryJournal();
    const executed: string[] = [];
    const lookup = tool({
      name: "lookup",
      description: "looks up",
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => {
        executed.push(q);
        return `found ${q}`;
      },
    });
    const steps = [
      { toolCalls: [{ id: "c1", name: "lookup", arguments: { q: "a" } }] },
      { toolCalls: [{ id: "c2", name: "lookup", arguments: { q: "b" } }] },
      { text: "Done." },
    ];
    const first = new ScriptedModel(steps);
    const stream = new Agent({ model: first, tools: [lookup], journal }).stream("Look", { runId: "s-1" });
    for await (const event of stream) {
      if (event.type === "observation") break; // the browser tab closed after the first tool result
    }
    const abandoned = await stream.result;
    expect(abandoned.stopReason).toBe("aborted");
    expect(executed).toEqual(["a"]);

    const second = new ScriptedModel(steps.slice(1));
    const done = await new Agent({ model: second, tools: [lookup], journal }).run("Look", { runId: "s-1" });
    expect(done.text).toBe("Done.");
    expect(executed).toEqual(["a", "b"]); // the first lookup was not executed again
    expect(second.calls).toHaveLength(2);
    // (The scripted model's UnpricedModel warning is an `error` event, replayed too.)
    expect(done.events.filter((e) => e.replayed).map((e) => e.type)).toEqual([
      "loop_start",
      "model_call",
      "error",
      "action",
      "observation",
    ]);
  });
});
