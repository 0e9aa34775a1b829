import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import { SubAgentError } from "../errors/sub-agent-error.js";
import type { AgentEvent } from "../loop/agent-event.js";
import { MemoryStore } from "../stores/memory-store.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { type Tool, tool } from "../tools/tool.js";

const PRICING = { scripted: { inputPerMTok: 1_000, outputPerMTok: 1_000 } };
const USAGE = { inputTokens: 100, outputTokens: 100 }; // $0.20 per call at PRICING

function researcher(model: ScriptedModel, extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}) {
  return new Agent({ name: "researcher", model, ...extra });
}

function lead(args: { model: ScriptedModel; tools: Tool[] } & Record<string, unknown>) {
  return new Agent({ name: "lead", ...args });
}

/** A gated tool and a log of what it did. */
function gatedDelete() {
  const deleted: string[] = [];
  const del = tool({
    name: "delete_file",
    description: "deletes a file",
    parameters: z.object({ path: z.string() }),
    needsApproval: true,
    execute: ({ path }) => {
      deleted.push(path);
      return `deleted ${path}`;
    },
  });
  return { del, deleted };
}

describe("agent.asTool", () => {
  it("runs the sub-agent as a tool: its answer is the result, its events are tagged, its usage and cost add up", async () => {
    const sub = new ScriptedModel([{ text: "Paris has 2.1M people.", usage: USAGE }]);
    const main = new ScriptedModel([
      {
        toolCalls: [{ id: "c1", name: "research", arguments: { input: "population of Paris" } }],
        usage: USAGE,
      },
      { text: "About 2.1 million.", usage: USAGE },
    ]);
    const agent = lead({
      model: main,
      tools: [
        researcher(sub, { pricing: PRICING }).asTool({
          name: "research",
          description: "researches a question",
        }),
      ],
      pricing: PRICING,
    });
    const result = await agent.run("How many people live in Paris?");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("About 2.1 million.");
    expect(sub.calls[0]?.request.messages.at(-1)).toMatchObject({
      role: "user",
      content: "population of Paris",
    });
    const toolMessage = main.calls[1]?.request.messages.find((m) => m.role === "tool");
    expect(toolMessage?.content).toBe("Paris has 2.1M people.");
    const nested = result.events.filter((e) => e.agent !== undefined);
    expect(new Set(nested.map((e) => e.agent))).toEqual(new Set(["lead/researcher"]));
    expect(nested.map((e) => e.type)).toEqual(["loop_start", "turn_start", "model_call", "loop_end"]);
    // The sub-agent's events come between the call's action and its observation.
    const types = result.events.map((e) => `${e.agent ?? ""}:${e.type}`);
    expect(types.indexOf("lead/researcher:loop_end")).toBeLessThan(types.indexOf(":observation"));
    expect(types.indexOf(":action")).toBeLessThan(types.indexOf("lead/researcher:loop_start"));
    expect(result.turns).toBe(2); // the lead's model calls
    expect(result.usage.inputTokens).toBe(300);
    expect(result.costUsd).toBeCloseTo(0.6, 10);
    expect(result.toolCalls.map((c) => c.name)).toEqual(["research"]);
  });

  it("streams the sub-agent's text deltas into the caller's stream as they happen", async () => {
    const sub = new ScriptedModel([{ text: "one two three" }]);
    const main = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "research", arguments: { input: "q" } }] },
      { text: "done" },
    ]);
    const agent = lead({
      model: main,
      tools: [researcher(sub).asTool({ name: "research", description: "r" })],
    });
    const seen: AgentEvent[] = [];
    const stream = agent.stream("go");
    for await (const event of stream) seen.push(event);
    const nestedText = seen
      .filter((e) => e.type === "text_delta" && e.agent === "lead/researcher")
      .map((e) => (e.type === "text_delta" ? e.data.delta : ""))
      .join("");
    expect(nestedText).toBe("one two three");
    expect((await stream.result).text).toBe("done");
  });

  it("takes typed arguments and returns a typed sub-agent's output as JSON", async () => {
    const sub = new ScriptedModel([
      { toolCalls: [{ name: "final_answer", arguments: { city: "Paris", population: 2_100_000 } }] },
    ]);
    const main = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "lookup", arguments: { city: "Paris" } }] },
      { text: "ok" },
    ]);
    const typed = new Agent({
      model: sub,
      output: z.object({ city: z.string(), population: z.number() }),
    });
    const agent = lead({
      model: main,
      tools: [typed.asTool({ name: "lookup", description: "l", input: z.object({ city: z.string() }) })],
    });
    await agent.run("go");
    expect(sub.calls[0]?.request.messages.at(-1)?.content).toBe('{"city":"Paris"}');
    const result = main.calls[1]?.request.messages.find((m) => m.role === "tool");
    expect(JSON.parse(String(result?.content))).toEqual({ city: "Paris", population: 2_100_000 });
  });

  it("fails the call with a SubAgentError when the sub-agent stops without an answer", async () => {
    const sub = new ScriptedModel(() => ({ toolCalls: [{ name: "nope", arguments: {} }] }));
    const main = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "research", arguments: { input: "q" } }] },
      { text: "gave up" },
    ]);
    const agent = lead({
      model: main,
      tools: [researcher(sub, { limits: { maxTurns: 2 } }).asTool({ name: "research", description: "r" })],
    });
    const result = await agent.run("go");
    const observation = result.events.find((e) => e.type === "observation" && e.agent === undefined);
    expect(observation?.type === "observation" && observation.data.ok).toBe(false);
    expect(observation?.type === "observation" && observation.data.result).toContain(
      'sub-agent "lead/researcher" stopped (max_turns)',
    );
    expect(SubAgentError.isInstance(new SubAgentError({ agent: "a", stopReason: "error", text: "" }))).toBe(
      true,
    );
  });

  it("the caller's abort stops the sub-agent mid-call", async () => {
    const sub = new ScriptedModel([{ text: "slow", delayMs: 5_000 }]);
    const main = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "research", arguments: { input: "q" } }] },
    ]);
    const agent = lead({
      model: main,
      tools: [researcher(sub).asTool({ name: "research", description: "r" })],
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = await agent.run("go", { signal: controller.signal });
    expect(result.stopReason).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(sub.calls).toHaveLength(1);
  });

  it("a shared cost cap holds across the caller and its sub-agents", async () => {
    const sub = new ScriptedModel((_, i) => ({
      toolCalls: [{ name: "noop", arguments: { n: i } }],
      usage: USAGE,
    }));
    const main = new ScriptedModel((_, i) => ({
      toolCalls: [{ name: "research", arguments: { input: `question ${i}` } }],
      usage: USAGE,
    }));
    const noop = tool({
      name: "noop",
      description: "n",
      parameters: z.object({ n: z.number() }),
      execute: () => "ok",
    });
    const agent = lead({
      model: main,
      tools: [
        researcher(sub, { tools: [noop], pricing: PRICING }).asTool({ name: "research", description: "r" }),
      ],
      pricing: PRICING,
      limits: { maxCostUsd: 1.5, maxTurns: 50 },
      maxOutputTokens: 100,
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("cost_limit");
    expect(result.costUsd).toBeLessThanOrEqual(1.5 + 1e-9);
    expect(result.costUsd).toBeGreaterThan(1);
    expect(sub.calls.length).toBeGreaterThan(0);
    const subStops = result.events.filter((e) => e.type === "loop_end" && e.agent !== undefined);
    expect(subStops.some((e) => e.type === "loop_end" && e.data.stopReason === "cost_limit")).toBe(true);
  });

  it("refuses sub-agents nested deeper than 8 agents (an agent calling itself)", async () => {
    const model = new ScriptedModel(() => ({ toolCalls: [{ name: "self", arguments: { input: "again" } }] }));
    const tools: Tool[] = [];
    const agent = new Agent({ name: "a", model, tools, limits: { maxTurns: 2 } });
    agent.tools.register(agent.asTool({ name: "self", description: "me" }));
    const result = await agent.run("go");
    const deepest = result.events.filter((e) => e.type === "observation" && e.data.error !== undefined);
    expect(
      deepest.some((e) => e.type === "observation" && e.data.result.includes("nest deeper than 8 agents")),
    ).toBe(true);
  });
});

describe("approvals inside sub-agents", () => {
  function setup() {
    const { del, deleted } = gatedDelete();
    let reads = 0;
    const read = tool({
      name: "read_notes",
      description: "reads notes",
      execute: () => {
        reads++;
        return "notes";
      },
    });
    const subScript = [
      { toolCalls: [{ id: "d1", name: "delete_file", arguments: { path: "/tmp/x" } }] },
      { text: "deleted it" },
    ];
    const mainScript = [
      {
        toolCalls: [
          { id: "c1", name: "cleanup", arguments: { input: "delete /tmp/x" } },
          { id: "c2", name: "read_notes", arguments: {} },
        ],
      },
      { text: "all done" },
    ];
    return { del, deleted, read, reads: () => reads, subScript, mainScript };
  }

  it("pauses the whole run; resuming the result (as JSON) continues the sub-agent where it stopped", async () => {
    const s = setup();
    const sub = new ScriptedModel(s.subScript);
    const main = new ScriptedModel(s.mainScript);
    const agent = lead({
      model: main,
      tools: [researcher(sub, { tools: [s.del] }).asTool({ name: "cleanup", description: "c" }), s.read],
    });
    const paused = await agent.run("clean up");
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(paused.pendingApprovals).toEqual([
      { toolCallId: "d1", toolName: "delete_file", arguments: { path: "/tmp/x" }, agent: "lead/researcher" },
    ]);
    expect(s.deleted).toEqual([]);
    expect(s.reads()).toBe(1);
    const stored = JSON.parse(JSON.stringify(paused));
    const done = await agent.resume(stored, { approve: ["d1"] });
    expect(done.stopReason).toBe("completed");
    expect(done.text).toBe("all done");
    expect(s.deleted).toEqual(["/tmp/x"]);
    expect(s.reads()).toBe(1); // the sibling call that finished before the pause did not run again
    expect(sub.calls).toHaveLength(2); // the sub-agent's first turn was not made again
    const results = main.calls[1]?.request.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(results).toEqual(["deleted it", "notes"]);
  });

  it("a denied call inside the sub-agent is refused and the run goes on", async () => {
    const s = setup();
    const sub = new ScriptedModel(s.subScript);
    const main = new ScriptedModel(s.mainScript);
    const agent = lead({
      model: main,
      tools: [researcher(sub, { tools: [s.del] }).asTool({ name: "cleanup", description: "c" }), s.read],
    });
    const paused = await agent.run("clean up");
    const done = await agent.resume(paused, { deny: ["d1"] });
    expect(done.stopReason).toBe("completed");
    expect(s.deleted).toEqual([]);
    const subResult = sub.calls[1]?.request.messages.find((m) => m.role === "tool");
    expect(subResult?.content).toContain("denied");
  });

  it("a session run paused inside a sub-agent resumes from the store", async () => {
    const s = setup();
    const store = new MemoryStore();
    const build = () =>
      lead({
        model: new ScriptedModel(s.mainScript),
        tools: [
          researcher(new ScriptedModel(s.subScript), { tools: [s.del] }).asTool({
            name: "cleanup",
            description: "c",
          }),
          s.read,
        ],
        store,
      });
    const agent = build();
    const paused = await agent.run("clean up", { sessionId: "s1" });
    expect(paused.stopReason).toBe("awaiting_approval");
    const again = lead({
      model: new ScriptedModel([s.mainScript[1] as never]),
      tools: [
        researcher(new ScriptedModel([s.subScript[1] as never]), { tools: [s.del] }).asTool({
          name: "cleanup",
          description: "c",
        }),
        s.read,
      ],
      store,
    });
    const done = await again.resume({ sessionId: "s1" }, { approve: ["d1"] });
    expect(done.stopReason).toBe("completed");
    expect(s.deleted).toEqual(["/tmp/x"]);
    expect(s.reads()).toBe(1);
  });

  it("a durable run paused inside a sub-agent resumes by its id with another Agent object", async () => {
    const s = setup();
    const journal = new MemoryJournal();
    const sub1 = new ScriptedModel(s.subScript);
    const main1 = new ScriptedModel(s.mainScript);
    const agent = lead({
      model: main1,
      tools: [researcher(sub1, { tools: [s.del] }).asTool({ name: "cleanup", description: "c" }), s.read],
      journal,
    });
    const paused = await agent.run("clean up", { runId: "r1" });
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(paused.pendingApprovals?.[0]).toMatchObject({ toolCallId: "d1", agent: "lead/researcher" });
    // Another process: new models that can only answer what was not answered before.
    const sub2 = new ScriptedModel([s.subScript[1] as never]);
    const main2 = new ScriptedModel([s.mainScript[1] as never]);
    const other = lead({
      model: main2,
      tools: [researcher(sub2, { tools: [s.del] }).asTool({ name: "cleanup", description: "c" }), s.read],
      journal,
    });
    const done = await other.resume("r1", { approve: ["d1"] });
    expect(done.stopReason).toBe("completed");
    expect(done.text).toBe("all done");
    expect(s.deleted).toEqual(["/tmp/x"]);
    expect(s.reads()).toBe(1);
    expect(sub2.calls).toHaveLength(1);
    expect(main2.calls).toHaveLength(1);
    // Once finished, the run replays from its log without calling anything.
    const replay = await other.resume("r1");
    expect(replay.text).toBe("all done");
    expect(main2.calls).toHaveLength(1);
  });
});

describe("sub-agents in durable runs", () => {
  it("a resumed run still counts what its finished sub-agent calls spent (the log keeps it)", async () => {
    const { del } = gatedDelete();
    const journal = new MemoryJournal();
    const build = (steps: { main: object[]; research: object[]; cleanup: object[] }) =>
      lead({
        model: new ScriptedModel(steps.main as never),
        pricing: PRICING,
        journal,
        tools: [
          researcher(new ScriptedModel(steps.research as never), { pricing: PRICING }).asTool({
            name: "research",
            description: "r",
          }),
          new Agent({
            name: "cleaner",
            model: new ScriptedModel(steps.cleanup as never),
            tools: [del],
            pricing: PRICING,
          }).asTool({ name: "cleanup", description: "c" }),
        ],
      });
    const mainTurn1 = {
      toolCalls: [
        { id: "c1", name: "research", arguments: { input: "q" } },
        { id: "c2", name: "cleanup", arguments: { input: "delete" } },
      ],
      usage: USAGE,
    };
    const cleanupTurn1 = {
      toolCalls: [{ id: "d1", name: "delete_file", arguments: { path: "/x" } }],
      usage: USAGE,
    };
    const first = build({
      main: [mainTurn1],
      research: [{ text: "found", usage: USAGE }],
      cleanup: [cleanupTurn1],
    });
    const paused = await first.run("go", { runId: "r" });
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(paused.costUsd).toBeCloseTo(0.6, 10); // lead 1 + researcher 1 + cleaner 1 call
    const second = build({
      main: [{ text: "ok", usage: USAGE }],
      research: [],
      cleanup: [{ text: "gone", usage: USAGE }],
    });
    const done = await second.resume("r", { approve: ["d1"] });
    expect(done.stopReason).toBe("completed");
    // Every call of the run: lead ×2, researcher ×1 (replayed from the log), cleaner ×2.
    expect(done.costUsd).toBeCloseTo(1.0, 10);
    expect(done.usage.inputTokens).toBe(500);
  });
});
