import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { Budget } from "../cost/budget.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { SessionConflictError } from "../errors/session-conflict-error.js";
import type { AgentEvent } from "../loop/agent-event.js";
import { FileStore } from "../stores/file-store.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStep } from "../testing/scripted-step.js";
import { tool } from "../tools/tool.js";
import { FileJournal } from "./file-journal.js";
import { MemoryJournal } from "./memory-journal.js";

/** A gated payment tool counting real executions. */
function payments() {
  const sent: string[] = [];
  const send = tool({
    name: "send_money",
    description: "sends money",
    parameters: z.object({ to: z.string() }),
    needsApproval: true,
    execute: ({ to }) => {
      sent.push(to);
      return `sent to ${to}`;
    },
  });
  return { sent, send };
}

/** A tool that looks things up, and a scripted step calling it with call id `id`. */
const lookup = tool({
  name: "lookup",
  description: "looks up",
  parameters: z.object({ q: z.string() }),
  execute: ({ q }) => `found ${q}`,
});
const call = (id: string): ScriptedStep => ({ toolCalls: [{ id, name: "lookup", arguments: { q: id } }] });

const pay: ScriptedStep = { toolCalls: [{ id: "g1", name: "send_money", arguments: { to: "x" } }] };
const kinds = (events: readonly AgentEvent[]) => events.map((e) => `${e.type}${e.replayed ? "*" : ""}`);

describe("durable runs and approvals: the decision is a record of the run's log", () => {
  it("pauses, takes the decision in another Agent object, executes the approved call once", async () => {
    const journal = new MemoryJournal();
    const a = payments();
    const first = new ScriptedModel([pay]);
    const paused = await new Agent({ model: first, tools: [a.send], journal }).run("Pay x", {
      runId: "pay-1",
    });
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(paused.pendingApprovals).toEqual([
      { toolCallId: "g1", toolName: "send_money", arguments: { to: "x" } },
    ]);
    expect((await journal.load("pay-1"))?.map((r) => r.kind)).toEqual([
      "start",
      "model_response",
      "approval_requested",
    ]);

    // "Another process": a new agent, model and tool set, sharing only the journal.
    const b = payments();
    const second = new ScriptedModel([{ text: "Paid x." }]);
    const agent = new Agent({ model: second, tools: [b.send], journal });
    const done = await agent.resume("pay-1", { approve: ["g1"], decidedBy: "alice" });
    expect(done.stopReason).toBe("completed");
    expect(done.text).toBe("Paid x.");
    expect(b.sent).toEqual(["x"]);
    expect(a.sent).toEqual([]);
    expect(second.calls).toHaveLength(1); // the recorded first response was not requested again
    // (The unpriced-model warnings are `error` events: left out here.)
    expect(kinds(done.events.filter((e) => e.type !== "error"))).toEqual([
      "loop_start*",
      "turn_start*",
      "model_call*",
      "action",
      "observation",
      "turn_start", // the turn's call is made for real: it is not a replay
      "model_call",
      "loop_end",
    ]);
    const decided = (await journal.load("pay-1"))?.find((r) => r.kind === "approval_decided");
    expect(decided).toMatchObject({ turn: 1, approve: ["g1"], deny: [], decidedBy: "alice" });

    // Finished: answered from its log, whole (events, tool calls), nothing runs again.
    const again = await agent.resume("pay-1");
    expect(again.text).toBe("Paid x.");
    expect(again.toolCalls.map((c) => c.name)).toEqual(["send_money"]);
    expect(again.events.filter((e) => !e.replayed).map((e) => e.type)).toEqual(["loop_end"]);
    expect(b.sent).toEqual(["x"]);
    expect(second.calls).toHaveLength(1);
    // The same decision delivered again (a retried request) is applied once: the finished result, nothing runs.
    const repeated = await agent.resume("pay-1", { approve: ["g1"] });
    expect(repeated.text).toBe("Paid x.");
    expect(b.sent).toEqual(["x"]);
    await expect(agent.resume("pay-1", { deny: ["g1"] })).rejects.toThrow(/has finished/);
  });

  it("a pending call in neither list is denied (the model is told), as with any resume", async () => {
    const journal = new MemoryJournal();
    const { sent, send } = payments();
    const model = new ScriptedModel([pay, { text: "Not paid." }]);
    const agent = new Agent({ model, tools: [send], journal });
    await agent.run("Pay x", { runId: "pay-2" });
    const denied = await agent.resume("pay-2"); // no decision named: g1 is in neither list, so denied
    expect(denied.text).toBe("Not paid.");
    expect(sent).toEqual([]);
    expect(model.calls[1]?.request.messages.at(-1)?.content).toMatch(/denied/);
  });

  it("refuses decisions for calls that are not pending, and runs that are not paused, writing nothing", async () => {
    const journal = new MemoryJournal();
    const { send } = payments();
    const agent = new Agent({ model: new ScriptedModel([pay]), tools: [send], journal });
    await agent.run("Pay x", { runId: "pay-3" });
    const before = (await journal.load("pay-3"))?.length;
    const error = await agent.resume("pay-3", { approve: ["nope"] }).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(String(error)).toMatch(/"nope" is not pending in run "pay-3" \(pending: g1\)/);
    expect((await journal.load("pay-3"))?.length).toBe(before);
    await expect(agent.resume("unknown-run", { approve: ["g1"] })).rejects.toThrow(/not in the journal/);
  });

  it("a shared budget is charged for live calls only, not for the replayed ones", async () => {
    const journal = new MemoryJournal();
    const { send } = payments();
    const pricing = { scripted: { inputPerMTok: 1_000_000, outputPerMTok: 1_000_000 } };
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    // The worst case reserved per call is 1,024 output tokens: $1,024 at this price.
    const budget = new Budget({ limitUsd: 1_000_000 });
    const agent = (steps: ScriptedStep[]) =>
      new Agent({ model: new ScriptedModel(steps), tools: [send], journal, pricing, budget });
    await agent([{ ...pay, usage }]).run("Pay x", { runId: "pay-4" });
    expect(budget.spentUsd).toBe(2);
    const done = await agent([{ text: "Paid.", usage }]).resume("pay-4", { approve: ["g1"] });
    expect(done.costUsd).toBe(4); // the run's cost counts both calls
    expect(budget.spentUsd).toBe(4); // but the budget paid each once
    await agent([]).resume("pay-4");
    expect(budget.spentUsd).toBe(4);
  });
});

describe("durable runs in a session, streamed, decided elsewhere", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "agentloop-durable-session-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("stream + sessionId + runId: pauses, resumes from new objects on the same files, history right", async () => {
    const open = (steps: ScriptedStep[], tools = payments()) => ({
      tools,
      model: new ScriptedModel(steps),
      agent: (model: ScriptedModel) =>
        new Agent({
          model,
          tools: [tools.send],
          journal: new FileJournal({ dir: join(dir, "journal") }),
          store: new FileStore({ dir: join(dir, "sessions") }),
        }),
    });
    const earlier = open([{ text: "Hello." }]);
    await earlier.agent(earlier.model).run("Hi", { sessionId: "s1" });

    const a = open([{ ...pay, text: "Paying." }]);
    const stream = a.agent(a.model).stream("Pay x", { sessionId: "s1", runId: "r1" });
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.type);
    const paused = await stream.result;
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(seen).toContain("text_delta");

    const b = open([{ text: "Paid x." }]);
    const done = await b.agent(b.model).resume({ runId: "r1" }, { approve: ["g1"] });
    expect(done.stopReason).toBe("completed");
    expect(b.tools.sent).toEqual(["x"]);
    expect(a.tools.sent).toEqual([]);

    const stored = await new FileStore({ dir: join(dir, "sessions") }).load("s1");
    expect(stored?.messages.map((m) => `${m.role}:${m.content}`)).toEqual([
      "user:Hi",
      "assistant:Hello.",
      "user:Pay x",
      "assistant:Paying.",
      "tool:sent to x",
      "assistant:Paid x.",
    ]);
    expect(stored?.state).toEqual({});

    // The next run of the session sees all of it, once.
    const c = open([{ text: "You paid x." }]);
    await c.agent(c.model).run("What did I do?", { sessionId: "s1" });
    expect(c.model.calls[0]?.request.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
  });

  it("a durable session run interrupted mid-run resumes without storing any message twice", async () => {
    const journal = new FileJournal({ dir: join(dir, "journal") });
    const store = new FileStore({ dir: join(dir, "sessions") });
    const failing = new ScriptedModel([call("c1"), call("c2")]); // a third call fails: unscripted
    const first = await new Agent({
      model: failing,
      tools: [lookup],
      journal,
      store,
      retry: { maxRetries: 0 },
    }).run("Look twice", { sessionId: "s2", runId: "r2" });
    expect(first.stopReason).toBe("error");
    const model = new ScriptedModel([{ text: "Done." }]);
    const done = await new Agent({ model, tools: [lookup], journal, store }).run("Look twice", {
      sessionId: "s2",
      runId: "r2",
    });
    expect(done.text).toBe("Done.");
    expect(model.calls).toHaveLength(1);
    const stored = await new FileStore({ dir: join(dir, "sessions") }).load("s2");
    expect(stored?.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    await expect(
      new Agent({ model, tools: [lookup], journal, store }).run("Look twice", { runId: "r2" }),
    ).resolves.toMatchObject({ text: "Done." }); // finished: answered from the log, no session needed
    await expect(
      new Agent({ model, tools: [lookup], journal, store }).run("Look twice", {
        sessionId: "other",
        runId: "r2",
      }),
    ).rejects.toThrow(/started in session "s2"/);
  });

  it("refuses to continue a durable run in a session another run wrote to (SessionConflictError)", async () => {
    const journal = new FileJournal({ dir: join(dir, "journal") });
    const store = new FileStore({ dir: join(dir, "sessions") });
    const { sent, send } = payments();
    const agent = (steps: ScriptedStep[]) =>
      new Agent({ model: new ScriptedModel(steps), tools: [send], journal, store });
    await agent([pay]).run("Pay x", { sessionId: "s3", runId: "r3" });
    // A new message before the decision: its run closes the paused calls ("not executed").
    await agent([{ text: "Sure." }]).run("Never mind", { sessionId: "s3" });
    const before = await store.load("s3");
    const error = await agent([{ text: "Paid." }])
      .resume("r3", { approve: ["g1"] })
      .catch((e: unknown) => e);
    expect(SessionConflictError.isInstance(error)).toBe(true);
    expect(String(error)).toMatch(/session "s3".*moved on since the run paused/);
    expect(sent).toEqual([]);
    expect((await journal.load("r3"))?.some((r) => r.kind === "approval_decided")).toBe(false);
    expect(await store.load("s3")).toEqual(before);
  });

  it("a crashed durable session run does not resume over another run's messages", async () => {
    const journal = new FileJournal({ dir: join(dir, "journal") });
    const store = new FileStore({ dir: join(dir, "sessions") });
    const crashed = await new Agent({
      model: new ScriptedModel([call("c1")]),
      tools: [lookup],
      journal,
      store,
      retry: { maxRetries: 0 },
    }).run("Look", { sessionId: "s4", runId: "r4" });
    expect(crashed.stopReason).toBe("error"); // unfinished: resumable
    await new Agent({ model: new ScriptedModel([{ text: "Hi." }]), store }).run("Hello", { sessionId: "s4" });
    const before = await store.load("s4");
    const error = await new Agent({
      model: new ScriptedModel([{ text: "Done." }]),
      tools: [lookup],
      journal,
      store,
    })
      .run("Look", { sessionId: "s4", runId: "r4" })
      .catch((e: unknown) => e);
    expect(SessionConflictError.isInstance(error)).toBe(true);
    expect(await store.load("s4")).toEqual(before);
  });
});
