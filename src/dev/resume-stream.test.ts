import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import type { AgentEvent } from "../loop/agent-event.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { resumeStream } from "./resume-stream.js";

function gatedAgent(): Agent {
  const save = tool({
    name: "save",
    description: "Saves",
    parameters: { type: "object", properties: {} },
    needsApproval: true,
    execute: () => "saved",
  });
  const model = new ScriptedModel((request) =>
    request.messages.at(-1)?.role === "tool"
      ? { text: "done" }
      : { toolCalls: [{ name: "save", arguments: {} }] },
  );
  return new Agent({ model, tools: [save], journal: new MemoryJournal() });
}

describe("resumeStream (the fallback for an agent without agent.resumeStream)", () => {
  it("streams the resumed part's events (replayed ones marked) and resolves with its result and trace", async () => {
    const agent = gatedAgent();
    const paused = await agent.run("go", { runId: "r" });
    expect(paused.stopReason).toBe("awaiting_approval");
    const seen: AgentEvent[] = [];
    const own = gatedAgent().with({
      journal: agent.options.journal,
      onEvent: (event) => void seen.push(event),
    });
    const stream = resumeStream({
      agent: own,
      runId: "r",
      decisions: { approve: ["call_0_0"] },
      trace: true,
    });
    const events: AgentEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result).toMatchObject({ stopReason: "completed", text: "done" });
    expect(result.trace).toBeDefined();
    expect(events.find((e) => e.type === "observation" && e.replayed !== true)?.data).toMatchObject({
      result: "saved",
    });
    expect(events.some((e) => e.replayed === true)).toBe(true);
    expect(events.at(-1)?.type).toBe("loop_end");
    expect(seen.map((e) => e.type)).toEqual(events.map((e) => e.type)); // the agent's own hook still runs
    expect(await stream.send("more")).toBe(false);
  });

  it("delivers a failure to the iteration and to result", async () => {
    const stream = resumeStream({ agent: gatedAgent(), runId: "unknown", decisions: {} });
    await expect(async () => {
      for await (const _ of stream) {
        // nothing
      }
    }).rejects.toThrow();
    await expect(stream.result).rejects.toThrow();
  });
});
