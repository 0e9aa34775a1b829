import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { MemoryStore } from "../stores/memory-store.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { handoff, withoutToolCalls } from "./handoff.js";

const refund = tool({ name: "refund", description: "refunds an order", execute: () => "refunded" });
const lookup = tool({ name: "lookup_order", description: "finds an order", execute: () => "order 7" });

function team(args: {
  triage: ScriptedModel;
  billing: ScriptedModel;
  store?: MemoryStore;
  journal?: MemoryJournal;
}) {
  const billing = new Agent({
    name: "billing",
    model: args.billing,
    system: "You are billing.",
    tools: [refund],
  });
  const triage = new Agent({
    name: "triage",
    model: args.triage,
    system: "You are triage.",
    tools: [lookup],
    handoffs: [billing],
    ...(args.store !== undefined && { store: args.store }),
    ...(args.journal !== undefined && { journal: args.journal }),
  });
  return { triage, billing };
}

const handOver = { toolCalls: [{ id: "h1", name: "transfer_to_billing", arguments: {} }] };

describe("handoffs", () => {
  it("hands the conversation over: the target's model, system prompt and tools answer, result.agent says so", async () => {
    const triageModel = new ScriptedModel([handOver]);
    const billingModel = new ScriptedModel([
      { toolCalls: [{ id: "r1", name: "refund", arguments: {} }] },
      { text: "Your refund is on its way." },
    ]);
    const { triage } = team({ triage: triageModel, billing: billingModel });
    const result = await triage.run("I want my money back");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("Your refund is on its way.");
    expect(result.agent).toBe("billing");
    expect(triageModel.calls).toHaveLength(1);
    expect(triageModel.calls[0]?.request.tools?.map((t) => t.name).sort()).toEqual([
      "lookup_order",
      "transfer_to_billing",
    ]);
    const first = billingModel.calls[0]?.request;
    expect(first?.tools?.map((t) => t.name)).toEqual(["refund"]);
    expect(first?.messages[0]).toEqual({ role: "system", content: "You are billing." });
    // The whole conversation, the handoff included, is the target's history.
    expect(first?.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(result.toolCalls.map((c) => c.name)).toEqual(["transfer_to_billing", "refund"]);
  });

  it("an agent that hands nothing over answers itself (result.agent is its name)", async () => {
    const { triage } = team({ triage: new ScriptedModel([{ text: "hi" }]), billing: new ScriptedModel([]) });
    expect((await triage.run("hello")).agent).toBe("triage");
  });

  it("an input filter decides what the target sees; the history keeps everything", async () => {
    const billingModel = new ScriptedModel([{ text: "ok" }]);
    const billing = new Agent({ name: "billing", model: billingModel });
    const triage = new Agent({
      name: "triage",
      model: new ScriptedModel([{ text: "let me", ...handOver }]),
      handoffs: [handoff(billing, { inputFilter: withoutToolCalls })],
    });
    const result = await triage.run("refund please");
    expect(billingModel.calls[0]?.request.messages).toEqual([
      { role: "user", content: "refund please" },
      { role: "assistant", content: "let me" },
    ]);
    expect(result.messages.some((m) => m.role === "tool")).toBe(true);
  });

  it("agents can hand back to each other (handoffs as a function)", async () => {
    const triageModel = new ScriptedModel([handOver, { text: "triage again" }]);
    const billingModel = new ScriptedModel([
      { toolCalls: [{ id: "b1", name: "transfer_to_triage", arguments: {} }] },
    ]);
    const billing: Agent = new Agent({ name: "billing", model: billingModel, handoffs: () => [triage] });
    const triage: Agent = new Agent({ name: "triage", model: triageModel, handoffs: () => [billing] });
    const result = await triage.run("go");
    expect(result.text).toBe("triage again");
    expect(result.agent).toBe("triage");
    expect(billingModel.calls).toHaveLength(1);
  });

  it("a session goes on with the agent the conversation was handed to", async () => {
    const store = new MemoryStore();
    const billingModel = new ScriptedModel([{ text: "first" }, { text: "second" }]);
    const { triage } = team({ triage: new ScriptedModel([handOver]), billing: billingModel, store });
    await triage.run("refund", { sessionId: "s" });
    const next = await triage.run("and another", { sessionId: "s" });
    expect(next.text).toBe("second");
    expect(next.agent).toBe("billing");
  });

  it("a durable run replays its handoff from the log (another Agent object, no model call made again)", async () => {
    const journal = new MemoryJournal();
    const slow = new ScriptedModel([{ text: "never", delayMs: 10_000 }]);
    const { triage } = team({ triage: new ScriptedModel([handOver]), billing: slow, journal });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const first = await triage.run("refund", { runId: "r", signal: controller.signal });
    expect(first.stopReason).toBe("aborted");
    const billing2 = new ScriptedModel([{ text: "done" }]);
    const triage2 = team({ triage: new ScriptedModel([]), billing: billing2, journal }).triage;
    const done = await triage2.run("refund", { runId: "r" });
    expect(done.text).toBe("done");
    expect(done.agent).toBe("billing");
    expect(billing2.calls[0]?.request.messages[0]).toEqual({ role: "system", content: "You are billing." });
  });

  it("refuses a target without a name and two different tools of one name", () => {
    const nameless = new Agent({ model: new ScriptedModel([]) });
    expect(() => handoff(nameless)).toThrow(InvalidArgumentError);
    const other = tool({ name: "refund", description: "another refund", execute: () => "x" });
    const b = new Agent({ name: "b", model: new ScriptedModel([]), tools: [other] });
    const a = new Agent({ name: "a", model: new ScriptedModel([]), tools: [refund], handoffs: [b] });
    expect(() => a.stream("go")).toThrow(/different tools named "refund"/);
  });

  it("a target without a system prompt gets none (not the first agent's)", async () => {
    const billingModel = new ScriptedModel([{ text: "ok" }]);
    const billing = new Agent({ name: "billing", model: billingModel });
    const triage = new Agent({
      name: "triage",
      model: new ScriptedModel([handOver]),
      system: "triage only",
      handoffs: [billing],
    });
    await triage.run("go");
    expect(billingModel.calls[0]?.request.messages.some((m) => m.role === "system")).toBe(false);
  });

  it("with a cost cap, a target's model needs a price in the first agent's table", () => {
    const billing = new Agent({
      name: "billing",
      model: new ScriptedModel([], { modelId: "mystery-model" }),
    });
    const triage = new Agent({
      name: "triage",
      model: new ScriptedModel([]),
      pricing: { scripted: { inputPerMTok: 1, outputPerMTok: 1 } },
      limits: { maxCostUsd: 1 },
      handoffs: [billing],
    });
    expect(() => triage.stream("go")).toThrow(/mystery-model/);
  });

  it("refuses per-run tools on an agent with handoffs (each agent offers its own)", () => {
    const { triage } = team({ triage: new ScriptedModel([]), billing: new ScriptedModel([]) });
    expect(() => triage.stream("go", { tools: ["lookup_order"] })).toThrow(/prepareStep/);
  });
});
