import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "./agent.js";
import { MemoryJournal } from "./durable/memory-journal.js";
import { InvalidArgumentError } from "./errors/invalid-argument-error.js";
import type { AgentEvent } from "./loop/agent-event.js";
import { ScriptedModel } from "./testing/scripted-model.js";
import { tool } from "./tools/tool.js";

const removed: string[] = [];
const remove = tool({
  name: "remove",
  description: "removes a file",
  parameters: z.object({ path: z.string() }),
  needsApproval: true,
  execute: ({ path }) => {
    removed.push(path);
    return `removed ${path}`;
  },
});

const script = () =>
  new ScriptedModel([
    { toolCalls: [{ id: "r1", name: "remove", arguments: { path: "a.txt" } }] },
    { text: "I removed a.txt as asked." },
  ]);

async function collect(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("agent.resumeStream", () => {
  it("streams the resumed run (text deltas) and resolves its result", async () => {
    removed.length = 0;
    const agent = new Agent({ model: script(), tools: [remove] });
    const paused = await agent.run("remove a.txt");
    const stream = agent.resumeStream(JSON.parse(JSON.stringify(paused)), { approve: ["r1"] });
    const events = await collect(stream);
    const text = events.flatMap((e) => (e.type === "text_delta" ? [e.data.delta] : [])).join("");
    expect(text).toBe("I removed a.txt as asked.");
    expect(events.some((e) => e.type === "observation" && e.data.result === "removed a.txt")).toBe(true);
    const result = await stream.result;
    expect(result.stopReason).toBe("completed");
    expect(removed).toEqual(["a.txt"]);
  });

  it("resumes a durable run by id, streaming", async () => {
    removed.length = 0;
    const journal = new MemoryJournal();
    const agent = new Agent({ model: script(), tools: [remove], journal });
    await agent.run("remove a.txt", { runId: "d1" });
    const stream = agent.resumeStream("d1", { deny: ["r1"] });
    const events = await collect(stream);
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(1);
    expect((await stream.result).stopReason).toBe("completed");
    expect(removed).toEqual([]);
  });

  it("a decision for a call that is not pending ends the stream with the error", async () => {
    const agent = new Agent({ model: script(), tools: [remove], journal: new MemoryJournal() });
    await agent.run("remove a.txt", { runId: "d2" });
    const stream = agent.resumeStream("d2", { approve: ["nope"] });
    await expect(collect(stream)).rejects.toThrow(InvalidArgumentError);
    expect(() => agent.resumeStream(42 as never)).toThrow(InvalidArgumentError);
  });
});
