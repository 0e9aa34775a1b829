import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { validateHistory } from "../context/validate-history.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import { GuardrailError } from "../errors/guardrail-error.js";
import type { GuardrailVerdict, InputGuardrail, ToolGuardrail } from "../guardrails/guardrail.js";
import { secretsGuardrail } from "../guardrails/secrets-guardrail.js";
import { MemoryStore } from "../stores/memory-store.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";

// Guardrails with sessions, durable runs, streams and approvals: a blocked run is finished and leaves a valid
// history behind it, and what a guardrail blocked is not kept.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const email = `${"jane.doe"}@example.com`;

function lookupTool(executions: string[]) {
  return tool({
    name: "lookup",
    description: "looks a customer up",
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => {
      executions.push(id);
      return id === "42" ? `customer 42: ${email}` : `customer ${id}: no contact`;
    },
  });
}

const noRefunds: ToolGuardrail = {
  name: "no_refunds",
  phase: "call",
  check: (check): GuardrailVerdict =>
    check.toolName === "refund" ? { block: true, reason: "refunds need a human" } : { block: false },
};

describe("guardrails with sessions", () => {
  it("a blocked input is not stored, and the next run does not send it", async () => {
    const store = new MemoryStore();
    const model = new ScriptedModel([{ text: "Hi!" }]);
    const agent = new Agent({ model, store, guardrails: { input: [secretsGuardrail()] } });
    const blocked = await agent.run(`my key is ${"sk"}-proj-abcdefghijklmnopqrstu12345`, { sessionId: "s" });
    expect(blocked.stopReason).toBe("guardrail");
    expect((await store.load("s"))?.messages ?? []).toEqual([]);
    const next = await agent.run("hello", { sessionId: "s" });
    expect(next.stopReason).toBe("completed");
    expect(model.calls[0]?.request.messages).toEqual([{ role: "user", content: "hello" }]);
  });

  it("a blocked answer is not stored; a blocked tool result leaves a valid stored history", async () => {
    const store = new MemoryStore();
    const executions: string[] = [];
    const model = new ScriptedModel([
      { text: `Write to ${email}` },
      { toolCalls: [{ id: "t1", name: "lookup", arguments: { id: "42" } }] },
      { text: "Nobody to contact." },
    ]);
    const agent = new Agent({
      model,
      store,
      tools: [lookupTool(executions)],
      guardrails: { output: [secretsGuardrail()], tool: [secretsGuardrail({ phase: "result" })] },
    });
    const first = await agent.run("Who do I write to?", { sessionId: "s" });
    expect(first.stopReason).toBe("guardrail");
    expect((await store.load("s"))?.messages).toEqual([{ role: "user", content: "Who do I write to?" }]);

    const second = await agent.run("Look up customer 42.", { sessionId: "s" });
    expect(second.stopReason).toBe("guardrail");
    expect(second.error).toMatchObject({ kind: "tool", phase: "result", toolCallId: "t1" });
    expect(executions).toEqual(["42"]);
    const stored = (await store.load("s"))?.messages ?? [];
    expect(validateHistory(stored)).toEqual([]);
    expect(JSON.stringify(stored)).not.toContain(email);
    expect(stored.map((m) => m.role)).toEqual(["user", "user", "assistant", "tool"]);

    // The session goes on from a valid history.
    const third = await agent.run("Anyone else?", { sessionId: "s" });
    expect(third.stopReason).toBe("completed");
    expect(JSON.stringify(model.calls[2]?.request.messages)).not.toContain(email);
  });

  it("a parallel input guardrail's block stores nothing of the discarded turn", async () => {
    const store = new MemoryStore();
    const model = new ScriptedModel([{ text: "quick answer" }]);
    const slow: InputGuardrail = {
      name: "moderation",
      mode: "parallel",
      check: async () => {
        await sleep(30);
        return { block: true, reason: "flagged" };
      },
    };
    const agent = new Agent({ model, store, guardrails: { input: [slow] } });
    const result = await agent.run("something flagged", { sessionId: "s" });
    expect(result.stopReason).toBe("guardrail");
    expect(model.calls).toHaveLength(1);
    expect((await store.load("s"))?.messages ?? []).toEqual([]);
  });
});

describe("guardrails with durable runs", () => {
  it("a run stopped by a guardrail is finished: journaled with its end, answered again from the journal", async () => {
    const journal = new MemoryJournal();
    const refunds: string[] = [];
    const refund = tool({
      name: "refund",
      description: "refunds an order",
      parameters: z.object({ order: z.string() }),
      execute: ({ order }) => {
        refunds.push(order);
        return "refunded";
      },
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "r1", name: "refund", arguments: { order: "A7" } }] },
    ]);
    const agent = new Agent({ model, journal, tools: [refund], guardrails: { tool: [noRefunds] } });
    const result = await agent.run("Refund order A7", { runId: "run-1" });
    expect(result.stopReason).toBe("guardrail");
    expect(refunds).toEqual([]);
    const records = (await journal.load("run-1")) ?? [];
    const end = records.find((record) => record.kind === "end");
    expect(end).toMatchObject({ result: { stopReason: "guardrail" } });
    expect(validateHistory(result.messages)).toEqual([]);

    // Finished: the same call is answered from the journal (no model call), blocked the same way.
    const again = await agent.run("Refund order A7", { runId: "run-1" });
    expect(again.stopReason).toBe("guardrail");
    expect(model.calls).toHaveLength(1);
    expect(refunds).toEqual([]);
    expect(again.messages).toEqual(result.messages);
  });

  it("a durable run of a session: blocked answer withheld in both", async () => {
    const journal = new MemoryJournal();
    const store = new MemoryStore();
    const model = new ScriptedModel([{ text: `Contact ${email}` }]);
    const agent = new Agent({ model, journal, store, guardrails: { output: [secretsGuardrail()] } });
    const result = await agent.run("contact?", { runId: "run-2", sessionId: "s" });
    expect(result.stopReason).toBe("guardrail");
    expect((await store.load("s"))?.messages).toEqual([{ role: "user", content: "contact?" }]);
    const end = (await journal.load("run-2"))?.find((record) => record.kind === "end");
    expect(end).toMatchObject({ result: { stopReason: "guardrail", text: "" } });
    expect(JSON.stringify(end)).not.toContain(email);
  });
});

describe("guardrails with streams and approvals", () => {
  it("a stream ends with loop_end stop reason guardrail, right after the guardrail event", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: "r1", name: "refund", arguments: { order: "A7" } }] },
    ]);
    const refund = tool({
      name: "refund",
      description: "refunds",
      parameters: z.object({ order: z.string() }),
      execute: () => "refunded",
    });
    const stream = new Agent({ model, tools: [refund], guardrails: { tool: [noRefunds] } }).stream(
      "refund A7",
    );
    const types: string[] = [];
    let end: unknown;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "loop_end") end = event.data;
    }
    expect(types.slice(-2)).toEqual(["guardrail", "loop_end"]);
    expect(end).toEqual({ stopReason: "guardrail", text: "" });
    const result = await stream.result;
    expect(GuardrailError.isInstance(result.error)).toBe(true);
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("calls a human approved are still checked before they run on resume", async () => {
    const refunds: string[] = [];
    const refund = tool({
      name: "refund",
      description: "refunds",
      parameters: z.object({ order: z.string() }),
      needsApproval: true,
      execute: ({ order }) => {
        refunds.push(order);
        return "refunded";
      },
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "r1", name: "refund", arguments: { order: "A7" } }] },
    ]);
    const agent = new Agent({ model, tools: [refund], guardrails: { tool: [noRefunds] } });
    const paused = await agent.run("refund A7");
    expect(paused.stopReason).toBe("awaiting_approval"); // nothing is checked before the human decides
    const resumed = await agent.resume(paused, { approve: ["r1"] });
    expect(resumed.stopReason).toBe("guardrail");
    expect(refunds).toEqual([]);
    expect(validateHistory(resumed.messages)).toEqual([]);
  });
});
