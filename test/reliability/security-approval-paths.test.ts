/**
 * Issue #15, security: approval gates hold on every path that executes a tool. The gate lives in the shared
 * executor (`executeToolCalls`), which every path goes through: the agent loop (run, stream, resume, durable
 * runs, reflection rounds, queue workers — all `agentLoop`), the planner, `ToolRegistry.execute` and direct
 * `executeToolCalls` calls. A call of a gated tool runs only with a human's decision for that call id.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { MemoryJournal } from "../../src/durable/memory-journal.js";
import { ApprovalRequiredError } from "../../src/errors/approval-required-error.js";
import { createAgentQueue, createAgentWorker } from "../../src/integrations/queue/index.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import { PlanAgent } from "../../src/planner/plan-agent.js";
import { runWithReflection } from "../../src/reflection/run-with-reflection.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";
import { executeToolCalls } from "../../src/tools/execute-tool-calls.js";
import { type Tool, tool } from "../../src/tools/tool.js";
import { ToolRegistry } from "../../src/tools/tool-registry.js";

/** A gated tool that records every execution; `check` makes the gate a per-call decision. */
function gatedTool(check?: (args: { to: string }) => boolean | Promise<boolean>): {
  tool: Tool;
  sent: string[];
} {
  const sent: string[] = [];
  const created = tool({
    name: "send_money",
    description: "Sends money",
    parameters: z.object({ to: z.string() }),
    needsApproval: check ?? true,
    execute: ({ to }) => {
      sent.push(to);
      return `sent to ${to}`;
    },
  });
  return { tool: created, sent };
}

const payCall = {
  id: "g1",
  name: "send_money",
  arguments: { to: "mallory" },
  rawArguments: '{"to":"mallory"}',
};
const plan = (to: string) => ({
  text: JSON.stringify([{ type: "tool", name: "send_money", arguments: { to } }]),
});

describe("the agent loop pauses gated calls", () => {
  it("run() and stream() pause with awaiting_approval and execute nothing", async () => {
    const { tool: send, sent } = gatedTool();
    const script = () => [{ toolCalls: [payCall] }];
    const agent = new Agent({ model: new ScriptedModel(script()), tools: [send] });
    expect((await agent.run("pay")).stopReason).toBe("awaiting_approval");
    const streamed = new Agent({ model: new ScriptedModel(script()), tools: [send] }).stream("pay");
    for await (const _event of streamed) {
      // drain
    }
    expect((await streamed.result).stopReason).toBe("awaiting_approval");
    expect(sent).toEqual([]);
  });

  it("resume() runs an approved call once and never a denied one", async () => {
    const { tool: send, sent } = gatedTool();
    const model = new ScriptedModel([{ toolCalls: [payCall] }, { text: "done" }, { toolCalls: [payCall] }]);
    const agent = new Agent({ model, tools: [send] });
    const approved = await agent.resume(await agent.run("pay"), { approve: ["g1"] });
    expect(approved.stopReason).toBe("completed");
    expect(sent).toEqual(["mallory"]);
    const denied = await agent.resume(await agent.run("pay again"), { deny: ["g1"] });
    expect(denied.toolCalls[0]).toMatchObject({ ok: false, result: expect.stringMatching(/denied/) });
    expect(sent).toEqual(["mallory"]);
  });

  it("durable runs (journal + runId, as queue workers run them) pause and execute nothing", async () => {
    const { tool: send, sent } = gatedTool();
    const agent = new Agent({
      model: new ScriptedModel([{ toolCalls: [payCall] }]),
      tools: [send],
      journal: new MemoryJournal(),
    });
    expect((await agent.run("pay", { runId: "pay-1" })).stopReason).toBe("awaiting_approval");
    expect(sent).toEqual([]);
  });

  it("reflection rounds pause and execute nothing", async () => {
    const { tool: send, sent } = gatedTool();
    const model = new ScriptedModel([
      { toolCalls: [payCall] },
      { text: '{"score": 2, "feedback": "pay"}' },
      { toolCalls: [{ ...payCall, id: "g2" }] },
      { text: '{"score": 2, "feedback": "pay"}' },
    ]);
    const result = await runWithReflection({
      agent: new Agent({ model, tools: [send] }),
      input: "pay",
      maxRounds: 2,
    });
    expect(result.rounds.map((round) => round.result.stopReason)).toEqual([
      "awaiting_approval",
      "awaiting_approval",
    ]);
    expect(sent).toEqual([]);
  });
});

describe("a queue worker (real Redis) runs the loop, so it pauses too", () => {
  it("a queued run that reaches a gated call ends awaiting_approval; the tool never runs", async () => {
    const { tool: send, sent } = gatedTool();
    const connection = { host: "127.0.0.1", port: 6379 };
    const prefix = `sec-approval-${randomUUID()}`;
    const admin = new Redis(connection);
    const name = "payments";
    const queue = createAgentQueue({ connection, prefix, name });
    const worker = createAgentWorker({
      connection,
      prefix,
      name,
      agents: {
        pay: () =>
          new Agent({
            model: new ScriptedModel([{ toolCalls: [payCall] }, { text: "paid" }]),
            tools: [send],
          }),
      },
      store: new RedisStore({ client: admin, prefix: `${prefix}:sessions:` }),
    });
    try {
      const runId = await queue.enqueue({ agent: "pay", input: "pay mallory" });
      const summary = await queue.result(runId, { timeoutMs: 10_000 });
      expect(summary.stopReason).toBe("awaiting_approval");
      expect(sent).toEqual([]);
    } finally {
      await worker.close();
      await queue.close();
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length > 0) await admin.del(...keys);
      await admin.quit();
    }
  }, 20_000);
});

describe("PlanAgent runs on the agent loop, so it pauses gated plan steps too", () => {
  it("a plan step calling a gated tool (constant or per-call gate) pauses the run, executing nothing", async () => {
    for (const check of [undefined, (args: { to: string }) => args.to === "mallory"]) {
      const { tool: send, sent } = gatedTool(check);
      const agent = new PlanAgent({ model: new ScriptedModel([plan("mallory")]), tools: [send] });
      const result = await agent.run("pay mallory");
      expect(result.stopReason).toBe("awaiting_approval");
      expect(result.pendingApprovals?.map((p) => p.toolCallId)).toEqual(["plan_step_1"]);
      expect(sent).toEqual([]);
    }
  });

  it("a gated tool registered in its registry later pauses too; a denial never executes it", async () => {
    const { tool: send, sent } = gatedTool();
    const registry = new ToolRegistry();
    const agent = new PlanAgent({ model: new ScriptedModel([plan("mallory")]), tools: registry });
    registry.register(send);
    const paused = await agent.run("pay mallory");
    expect(paused.stopReason).toBe("awaiting_approval");
    const denied = await agent.resume(paused, { deny: ["plan_step_1"] });
    expect(sent).toEqual([]);
    expect(denied.stopReason).toBe("completed");
    expect(denied.observations[0]).toMatchObject({ ok: false, error: { type: "ApprovalDenied" } });
  });
});

describe("direct executor paths", () => {
  it("ToolRegistry.execute does not run a gated tool unless the call is approved", async () => {
    const { tool: send, sent } = gatedTool();
    const registry = new ToolRegistry({ tools: [send] });
    const refused = await registry.execute("send_money", { to: "mallory" });
    expect(refused).toMatchObject({ ok: false, error: { type: "ApprovalRequiredError" } });
    expect(sent).toEqual([]);
    const ran = await registry.execute("send_money", { to: "alice" }, { approved: true });
    expect(ran).toMatchObject({ ok: true, content: "sent to alice" });
    expect(sent).toEqual(["alice"]);
  });

  it("executeToolCalls runs a gated call only when its id is in `approved`", async () => {
    const { tool: send, sent } = gatedTool();
    const registry = new ToolRegistry({ tools: [send] });
    const [refused] = await executeToolCalls({ calls: [payCall], registry, turn: 0 });
    expect(refused).toMatchObject({ ok: false, error: { type: "ApprovalRequiredError" } });
    const [otherId] = await executeToolCalls({
      calls: [payCall],
      registry,
      turn: 0,
      approved: new Set(["g2"]),
    });
    expect(otherId?.ok).toBe(false);
    expect(sent).toEqual([]);
    const [ran] = await executeToolCalls({ calls: [payCall], registry, turn: 0, approved: new Set(["g1"]) });
    expect(ran?.ok).toBe(true);
    expect(sent).toEqual(["mallory"]);
  });

  it("a per-call gate decides per call, and a gate that throws refuses the call", async () => {
    const { tool: send, sent } = gatedTool(({ to }) => to !== "alice");
    const registry = new ToolRegistry({ tools: [send] });
    const calls = [
      { ...payCall, id: "a", arguments: { to: "alice" }, rawArguments: '{"to":"alice"}' },
      { ...payCall, id: "m" },
    ];
    const outcomes = await executeToolCalls({ calls, registry, turn: 0 });
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false]);
    expect(sent).toEqual(["alice"]);
    const { tool: broken, sent: brokenSent } = gatedTool(() => {
      throw new Error("check failed");
    });
    const [outcome] = await executeToolCalls({
      calls: [payCall],
      registry: new ToolRegistry({ tools: [broken] }),
      turn: 0,
    });
    expect(outcome?.error?.type).toBe("ApprovalRequiredError");
    expect(brokenSent).toEqual([]);
  });

  it("ApprovalRequiredError has structured fields and an isInstance guard", () => {
    const error = new ApprovalRequiredError({ toolName: "send_money", toolCallId: "g1" });
    expect(ApprovalRequiredError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ toolName: "send_money", toolCallId: "g1", name: "ApprovalRequiredError" });
  });
});
