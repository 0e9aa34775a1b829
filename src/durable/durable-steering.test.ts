import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { validateHistory } from "../context/validate-history.js";
import { SteeringInbox } from "../loop/steering-inbox.js";
import { MemoryStore } from "../stores/memory-store.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { FileJournal } from "./file-journal.js";
import { parseJournalRecord } from "./journal-record.js";
import { MemoryJournal } from "./memory-journal.js";

// Steering messages of a durable run are journaled (`user_message` records) before they enter the history, so
// a resumed run adds each again before the same turn and rebuilds the same history.

function tools(controller: AbortController, state: { crash: boolean; sent?: () => void }) {
  const lookup = tool({
    name: "lookup",
    description: "looks up",
    parameters: z.object({}),
    idempotent: true,
    execute: () => {
      state.sent?.();
      return "price 5";
    },
  });
  const charge = tool({
    name: "charge",
    description: "charges",
    parameters: z.object({}),
    execute: () => {
      if (!state.crash) return "charged";
      controller.abort(new Error("crash"));
      return new Promise<string>(() => undefined);
    },
  });
  return [lookup, charge];
}

const STEPS = [
  { toolCalls: [{ id: "l1", name: "lookup", arguments: {} }] },
  { toolCalls: [{ id: "c1", name: "charge", arguments: {} }] },
  { text: "Charged in euros." },
];

const userMessages = (messages: readonly { role: string; content: unknown }[]) =>
  messages.flatMap((m, i) => (m.role === "user" ? [`${i}:${String(m.content)}`] : []));

describe("steering a durable run", () => {
  it("journals the message; a resumed run adds it again before the same turn (in its session too)", async () => {
    const journal = new MemoryJournal();
    const store = new MemoryStore();
    const controller = new AbortController();
    const state: { crash: boolean; sent?: () => void } = { crash: false };
    // The provider fails for good at turn 3: the run stops unfinished (stop reason error), to be resumed.
    const first = new ScriptedModel([...STEPS.slice(0, 2), { error: new Error("provider down") }]);
    const agent1 = new Agent({ model: first, tools: tools(controller, state), journal, store });
    const stream = agent1.stream("Buy it", { runId: "r1", sessionId: "chat" });
    let delivered: Promise<boolean> | undefined;
    state.sent = () => {
      delivered = stream.send("Pay in euros.");
    };
    const interrupted = await stream.result;
    expect(interrupted.stopReason).toBe("error");
    expect(await delivered).toBe(true);
    const records = (await journal.load("r1")) ?? [];
    expect(records.filter((r) => r.kind === "user_message")).toEqual([
      { v: 2, kind: "user_message", turn: 2, content: "Pay in euros.", at: expect.any(Number) },
    ]);
    // The message was journaled before the turn that saw it.
    const kinds = records.map((r) => r.kind);
    expect(kinds.indexOf("user_message")).toBeLessThan(kinds.lastIndexOf("model_response"));

    state.sent = undefined;
    const second = new ScriptedModel(STEPS.slice(2));
    const agent2 = new Agent({ model: second, tools: tools(controller, state), journal, store });
    const done = await agent2.resume({ runId: "r1" });
    expect(done.stopReason).toBe("completed");
    expect(second.calls).toHaveLength(1);
    const sent = second.calls[0]?.request.messages ?? [];
    expect(userMessages(sent)).toEqual(["0:Buy it", "3:Pay in euros."]);
    expect(done.events.filter((e) => e.type === "user_message").map((e) => e.replayed)).toEqual([true]);
    expect(validateHistory(done.messages)).toEqual([]);
    const stored = (await store.load("chat"))?.messages ?? [];
    expect(userMessages(stored)).toEqual(["0:Buy it", "3:Pay in euros."]);
    expect(stored).toHaveLength(done.messages.length);

    // Finished: answered from its log, the message in place, nothing called again.
    const again = await agent2.resume({ runId: "r1" });
    expect(userMessages(again.messages)).toEqual(["0:Buy it", "3:Pay in euros."]);
    expect(again.events.filter((e) => !e.replayed).map((e) => e.type)).toEqual(["loop_end"]);
    expect(second.calls).toHaveLength(1);
  });

  it("a message sent while the run replays its log waits for the first live turn (a file journal)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentloop-steering-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const journal = new FileJournal({ dir });
    const controller = new AbortController();
    const state = { crash: true };
    await new Agent({
      model: new ScriptedModel(STEPS.slice(0, 2)),
      tools: tools(controller, state),
      journal,
    }).run("Buy it", { runId: "r2", signal: controller.signal });
    state.crash = false;
    const steering = new SteeringInbox();
    const delivered = steering.send("Also send a receipt.");
    const second = new ScriptedModel(STEPS.slice(2));
    const done = await new Agent({ model: second, tools: tools(controller, state), journal }).run("Buy it", {
      runId: "r2",
      steering,
    });
    expect(await delivered).toBe(true);
    expect(done.stopReason).toBe("completed");
    // Added before turn 3, the first live one: not inside the replayed part of the history.
    expect(second.calls[0]?.request.messages.at(-1)).toEqual({
      role: "user",
      content: "Also send a receipt.",
    });
    const record = (await journal.load("r2"))?.find((r) => r.kind === "user_message");
    expect(record).toMatchObject({ turn: 3, content: "Also send a receipt." });
    expect(done.events.find((e) => e.type === "user_message")?.replayed).toBeUndefined();
  });
});

describe("the user_message journal record", () => {
  it("is read back as written; a malformed one is refused", () => {
    const record = { v: 2, kind: "user_message", turn: 2, content: [{ type: "text", text: "hi" }], at: 1 };
    expect(parseJournalRecord({ value: record, runId: "r", where: "test" })).toEqual(record);
    const bad = { ...record, turn: "2" };
    expect(() => parseJournalRecord({ value: bad, runId: "r", where: "test" })).toThrow(/malformed/);
  });
});
