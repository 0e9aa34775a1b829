import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { FileStore } from "../stores/file-store.js";
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

describe("a durable run of a session whose signal is aborted before it starts", () => {
  it("touches neither the run log nor the session, and ends aborted", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentloop-aborted-"));
    try {
      const journal = new MemoryJournal();
      const store = new FileStore({ dir });
      const model = new ScriptedModel([{ text: "never" }]);
      const agent = new Agent({ model, journal, store });
      const result = await agent.run("Hi", { sessionId: "s", runId: "r", signal: AbortSignal.abort() });
      expect(result.stopReason).toBe("aborted");
      expect(await journal.load("r")).toBeUndefined();
      expect(await store.load("s")).toBeUndefined();
      // The run can still start later, in its session.
      const later = await agent.run("Hi", { sessionId: "s", runId: "r" });
      expect(later.text).toBe("never");
      expect((await journal.load("r"))?.[0]).toMatchObject({ kind: "start", sessionId: "s" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
